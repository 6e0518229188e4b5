#pragma once
// Simulation parameters and their validation.
//
// Design note: every entry point (command line, ImGui panel, tests) fills a SimParams and passes it through
// validateSimParams() before the simulation sees it, so a value is range-checked in exactly one place. Each numeric
// field's range is one ParamRange constant below (kTimeStepRange, ...), which the panel's sliders and the command
// line's help also read.
// Units are N-body units unless a loaded file states physical ones (Units.hpp, docs/UNITS.md): G = 1 by default,
// masses sum to about 1 per stellar system, lengths of order 1 (a Plummer sphere in Henon units has virial radius 1),
// so one time unit is about one crossing time. The initial conditions come from the scenario (scenario, bodyCount,
// seed) or, when initialFile names one, from a snapshot file, whose bodies then set the body count.
#include <gravlab/sim/EnumNames.hpp>
#include <gravlab/sim/GravityParams.hpp>
#include <gravlab/sim/LevelChoice.hpp>
#include <gravlab/sim/Precision.hpp>
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/Snapshot.hpp>
#include <gravlab/sim/SolverRegistry.hpp>
#include <gravlab/sim/Units.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gravlab {

/// Where the simulation runs.
enum class BackendKind {
    Auto, ///< CUDA when a device is present; otherwise, in the app, GL on a hardware GL driver; else the CPU
    Cuda, ///< the CUDA core; an error when no device is present
    Cpu,  ///< the OpenMP fallback
    Gl,   ///< OpenGL 4.5 compute shaders (render/compute/): any GPU; needs a GL context, so only the app creates it
};

/// What ORB balances between its domains (see Orb.hpp).
enum class OrbBalance {
    Count, ///< bodies per domain (memory)
    Work,  ///< per-body work of the last force evaluation (interactions the solver counted)
};

/// How the tree decides that a cell may stand in for its bodies (TreeMath.hpp).
enum class OpeningCriterion {
    Geometric, ///< the cell's side over its distance below theta, the same for every body
    Relative,  ///< the cell's estimated force error below forceAccuracy times the body's last |a| (GADGET's criterion)
};

/// How the bodies share the time step (TimeStepLevels.hpp states the criterion, HierarchicalStepper.hpp the scheme).
enum class TimeStepMode {
    Fixed,        ///< every body takes the base step timeStep
    Hierarchical, ///< each body takes timeStep / 2^level, its level from its acceleration (block time steps)
};

template <> struct EnumNames<TimeStepMode> {
    static constexpr std::string_view field = "time-steps";
    static constexpr std::array entries{EnumName<TimeStepMode>{TimeStepMode::Fixed, "fixed", "one step for every body"},
                                        EnumName<TimeStepMode>{TimeStepMode::Hierarchical, "hierarchical",
                                                               "power-of-two steps per body from its acceleration"}};
};

template <> struct EnumNames<BackendKind> {
    static constexpr std::string_view field = "backend";
    static constexpr std::array entries{
        EnumName<BackendKind>{BackendKind::Auto, "auto"}, EnumName<BackendKind>{BackendKind::Cuda, "cuda"},
        EnumName<BackendKind>{BackendKind::Cpu, "cpu"}, EnumName<BackendKind>{BackendKind::Gl, "gl"}};
};

template <> struct EnumNames<OpeningCriterion> {
    static constexpr std::string_view field = "opening";
    static constexpr std::array entries{EnumName<OpeningCriterion>{OpeningCriterion::Geometric, "geometric"},
                                        EnumName<OpeningCriterion>{OpeningCriterion::Relative, "relative"}};
};

template <> struct EnumNames<OrbBalance> {
    static constexpr std::string_view field = "orb-balance";
    static constexpr std::array entries{EnumName<OrbBalance>{OrbBalance::Count, "count"},
                                        EnumName<OrbBalance>{OrbBalance::Work, "work"}};
};

/// ORB domains kept over the bodies: the body arrays are then domain-major (docs/ARCHITECTURE.md, "Body order").
struct OrbParams {
    /// Number of domains; 0 switches ORB off. Range [0, kMaxOrbDomains], and at most the number of bodies.
    std::uint32_t domainCount = 0;
    OrbBalance balance = OrbBalance::Count;
    /// A full re-partition runs every this many steps (1: every step); in between, bodies that leave their cell
    /// migrate. Range [1, 100000]. The default, 16, is one headless frame's worth of steps.
    std::uint32_t rebuildInterval = 16;
    /// Between rebuilds, a full re-partition also runs as soon as the balanced quantity's imbalance (largest domain
    /// over the mean) passes this. Range [1, 100].
    double imbalanceLimit = 1.25;
    bool operator==(const OrbParams&) const = default;
};

/// Hierarchical (block) time steps: a body with acceleration a takes the largest step timeStep / 2^level that is no
/// longer than accuracy * sqrt(softeningLength / |a|), level in [0, maxLevel].
struct TimeStepParams {
    TimeStepMode mode = TimeStepMode::Fixed;
    /// eta of the criterion, dimensionless; range (0, 10]. 0.2 asks what GADGET's ErrTolIntAccuracy = 0.025 asks of
    /// its sqrt(2 eta eps / |a|) (sqrt(2 * 0.025) = 0.22); smaller is more accurate and costs more sub-steps. Under
    /// LevelChoice::Tidal it is the fraction of a body's dynamical time 1 / omega that its step may take: 0.02 to 0.05.
    double accuracy = 0.2;
    /// Deepest level, so the smallest step is timeStep / 2^maxLevel; range [0, 16]. 0 makes hierarchical steps the
    /// fixed step.
    std::uint32_t maxLevel = 8;
    /// Start; Symmetric: a step h is allowed when h <= (tau(t) + tau(t + h)) / 2, with tau = accuracy *
    /// sqrt(softeningLength / |a|) and the end's acceleration extrapolated from the body's last two evaluations, so
    /// the energy error oscillates instead of drifting; or Tidal: h <= accuracy / omega, omega^2 = |da| / |dx| over the
    /// body's last step, its dynamical time rather than its acceleration (TimeStepLevels.hpp). Measured against fixed
    /// steps of equal cost in docs/PERFORMANCE.md. Both backends.
    LevelChoice levelChoice = LevelChoice::Start;
    bool operator==(const TimeStepParams&) const = default;
};

struct SimParams {
    /// Scenario name from the registry (see Scenarios.hpp).
    std::string scenario = "galaxy-collision";
    /// Values of the scenario's own parameters (Scenarios.hpp), by name; one left out takes its default. Each must be
    /// one of the scenario's parameters and within its range. Re-initialises the scenario when changed.
    ScenarioParams scenarioParams;
    /// Number of bodies; range [1, kMaxBodyCount]. Re-initialises the scenario when changed.
    std::uint64_t bodyCount = 8192;
    /// Seed of the scenario's random sampling; any value. Same seed and N give the same bodies.
    std::uint64_t seed = 42;
    /// A snapshot file whose bodies are the initial conditions (Snapshot.hpp); empty: the scenario's. Its bodies set
    /// bodyCount, and its units, where it states them, set units and G.
    std::string initialFile;
    /// The file's format; nullopt: detected from its first bytes.
    std::optional<SnapshotFormat> initialFileFormat;
    /// Move loaded bodies to their centre-of-mass frame (files only; scenarios are generated in it). Off by default:
    /// a file's bodies keep the positions and velocities it holds, bit for bit.
    bool recentre = false;
    /// Units of lengths, masses and velocities (and so of time and G); N-body units unless a file states others.
    UnitSystem units = nbodyUnits();
    /// Gravitational constant in units; range (0, 1e12] (43009 in kpc, 1e10 Msun and km/s).
    double gravitationalConstant = 1.0;
    /// Leapfrog time step, N-body time units; range (0, 1].
    double timeStep = 0.01;
    /// Fixed or hierarchical steps; with hierarchical ones, timeStep is the base (largest) step.
    TimeStepParams timeSteps;
    /// Plummer softening length epsilon, N-body length units; range [0, 10], and at least the solver's minSoftening
    /// (SolverRegistry.hpp): 0, the exact Newtonian problem, only for the direct sums; the tree needs [1e-5, 10].
    /// The pair potential is -G m_i m_j / sqrt(r^2 + epsilon^2) for forces and energies alike. With epsilon = 0 two
    /// distinct bodies at one position make a step throw CoincidentBodiesError.
    double softeningLength = 0.05;
    /// Barnes-Hut opening angle theta (cell size / distance), dimensionless; range [0.1, 2 / sqrt(3)], the largest
    /// theta the tree's criterion takes (TreeMath.hpp).
    double openingAngle = 0.5;
    /// The tree's opening criterion. Relative needs the previous accelerations, so an evaluation without them (the
    /// first after a load or a reorder) uses the geometric criterion at openingAngle.
    OpeningCriterion openingCriterion = OpeningCriterion::Relative;
    /// Relative criterion: a cell of mass M and side s at distance r is accepted for a body whose last acceleration
    /// was a when G M s^3 / r^5 <= forceAccuracy |a| (and the body lies outside the cell); dimensionless, range
    /// [1e-5, 0.1]. The 99th percentile of the relative force error stays below it (measured on the H100, 1M to 16M
    /// bodies: 0.2 to 0.4 of it; the CPU's per-body walk 0.4 to 0.75), growing slowly with N (docs/PERFORMANCE.md).
    double forceAccuracy = 0.0025;
    /// How accelerations are computed: a solver name from the registry (SolverRegistry.hpp).
    std::string solver = std::string(kDefaultSolver);
    BackendKind backend = BackendKind::Auto;
    /// Precision of the state and its integration (Precision.hpp). Double: fp64 positions, velocities and kicks, and
    /// fp64 forces with the direct-fp64 solver (the float solvers keep float force arithmetic). Changing it converts
    /// the current state in place.
    Precision precision = Precision::Single;
    OrbParams orb;
    /// G and the softening, as the force and energy evaluations take them.
    GravityParams gravity() const { return {gravitationalConstant, softeningLength}; }
    bool operator==(const SimParams&) const = default;
};

inline constexpr std::uint64_t kMaxBodyCount = std::uint64_t{1} << 28;
/// Most ORB domains the simulation keeps (the benchmark goes further).
inline constexpr std::uint32_t kMaxOrbDomains = 1024;

/// Allowed interval of one numeric field, named as on the command line.
struct ParamRange {
    std::string_view name; ///< field name as the command line spells it (without "--")
    double min;
    double max;
    bool minInclusive;
    std::string_view meaning;
};

inline constexpr ParamRange kBodyCountRange{"bodies", 1.0, double(kMaxBodyCount), true, "number of bodies"};
inline constexpr ParamRange kGravitationalConstantRange{"G", 0.0, 1e12, false, "gravitational constant"};
inline constexpr ParamRange kTimeStepRange{"dt", 0.0, 1.0, false, "time step in N-body time units"};
inline constexpr ParamRange kTimeStepAccuracyRange{"eta", 0.0, 10.0, false,
                                                   "accuracy of the hierarchical time-step criterion"};
inline constexpr ParamRange kMaxTimeStepLevelRange{"max-level", 0.0, 16.0, true,
                                                   "deepest hierarchical time-step level (smallest step dt / 2^level)"};
inline constexpr ParamRange kSofteningRange{"softening", 0.0, 10.0, true,
                                            "Plummer softening length, 0 for the exact Newtonian direct sums"};
/// The smallest softening of solvers that need a positive one (the tree), and the low end of the panel's slider.
inline constexpr double kSmallestPositiveSoftening = 1e-5;
/// Ends at 2 / sqrt(3), where TreeMath.hpp caps theta (kLargestSelfSafeOpeningAngle): a larger value would act as it.
inline constexpr ParamRange kOpeningAngleRange{"theta", 0.1, 1.1547005383792515, true, "Barnes-Hut opening angle"};
inline constexpr ParamRange kForceAccuracyRange{"force-accuracy", 1e-5, 0.1, true,
                                                "tolerated force error of a cell under the relative criterion"};
inline constexpr ParamRange kOrbDomainRange{"orb-domains", 0.0, double(kMaxOrbDomains), true,
                                            "ORB domains, 0 for none, at most the number of bodies"};
inline constexpr ParamRange kOrbRebuildIntervalRange{"orb-every", 1.0, 100000.0, true,
                                                     "steps between full ORB re-partitions"};
inline constexpr ParamRange kOrbImbalanceLimitRange{"orb-imbalance", 1.0, 100.0, true,
                                                    "ORB imbalance that forces a re-partition"};

/// A parameter outside its allowed range; what() is a sentence naming the field, the value and what is allowed.
class InvalidParameterError : public std::invalid_argument {
public:
    InvalidParameterError(std::string field, const std::string& message)
        : std::invalid_argument(message), m_field(std::move(field)) {}
    const std::string& field() const { return m_field; }

private:
    std::string m_field;
};

/// Throws InvalidParameterError for the first field that is out of range, NaN, infinite or unknown (scenario, a
/// scenario parameter).
void validateSimParams(const SimParams& params);

/// Checks one value against its range; throws InvalidParameterError naming range.name.
void checkInRange(const ParamRange& range, double value);

std::string_view toString(BackendKind backend);
/// Parse "auto" / "cuda" / "cpu"; throws InvalidParameterError listing the allowed names.
BackendKind parseBackendKind(std::string_view name);
std::string_view toString(OpeningCriterion criterion);
/// Parse "geometric" / "relative"; throws InvalidParameterError (field "opening") listing the allowed names.
OpeningCriterion parseOpeningCriterion(std::string_view name);
std::string_view toString(TimeStepMode mode);
/// Parse "fixed" / "hierarchical"; throws InvalidParameterError (field "time-steps") listing the allowed names.
TimeStepMode parseTimeStepMode(std::string_view name);
std::string_view toString(Precision precision);
/// Parse "single" / "double"; throws InvalidParameterError (field "precision") listing the allowed names.
Precision parsePrecision(std::string_view name);
std::string_view toString(OrbBalance balance);
/// Parse "count" / "work"; throws InvalidParameterError (field "orb-balance") listing the allowed names.
OrbBalance parseOrbBalance(std::string_view name);

} // namespace gravlab
