#pragma once
// The simulation as the app sees it: parameters, a backend, time and energy bookkeeping.
//
// Design note: Simulation is the only object the app mutates. setParams() validates first and re-initialises only
// when a parameter that defines the initial conditions changed (scenario, body count and seed, or the initial file,
// its format and recentring; a file is read before anything changes, so a bad file leaves the simulation as it was);
// dt, softening and G apply from the next step; changing the backend moves the current state to the new backend, and
// changing the precision converts the current state in place (every load is brought to params.precision too).
// setParams() is also the one place that decides what an edit implies downstream: it returns a ParamsChange (new
// bodies, a new backend, stale forces, a new energy function, new ORB domains, which drawn things went stale, whether
// the device choice must be asked again), so the app follows that report instead of comparing parameters itself.
// Energy baseline: E0 is recorded at reset, so the panel can show the relative energy drift |E - E0| / |E0| whenever
// diagnostics are requested. Diagnostics are O(N^2), so for N > kEagerEnergyBaselineMaxBodies reset does not compute
// them; E0 is then taken from the first diagnostics() call instead. Changing G or the softening changes the energy
// function itself, so it also drops E0 and the next diagnostics() call records the new baseline. The diagnostics that
// recorded E0 are kept with their step and cost (energyBaseline()), so a caller keeping an energy history starts it
// from them instead of paying for the same O(N^2) sum a second time.
// The backend comes from a factory (createBackend unless a test passes a wrapper that counts calls); a backend switch
// through setParams() uses the same factory.
// ORB domains (params.orb) are brought up to date whenever bodies are loaded and after every setParams(), through the
// backend's updateOrbDomains(), so a paused view and a first frame show them without a step.
// Memory: the constructor, and setParams() whenever the estimate grows (more bodies, another backend or solver, ORB
// switched on), check the run against the available memory first (MemoryBudget.hpp), counting what the caller keeps
// next to the bodies (CompanionMemory: the render side's buffers), and refuse with InsufficientMemoryError before any
// body is generated.
// Time reversal: reverseTime() negates every velocity and flips the time arrow; from then on each step moves the clock
// back by dt (time -= dt) while the step count still counts steps taken. The KDK leapfrog is time-reversible (the next
// kick uses the cached a(x) of the unchanged positions), so K steps, a reversal and K more steps bring the bodies back
// to where they started, up to fp32 rounding, and the clock to its start value (up to double rounding). The energy is
// unchanged by a reversal (kinetic energy depends on |v| only), so the baseline stays. reset() and new initial
// conditions run forward.
#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/MemoryBudget.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SimulationBackend.hpp>
#include <gravlab/sim/Snapshot.hpp>
#include <gravlab/sim/SystemMemory.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace gravlab {

/// Largest body count for which reset() computes the energy baseline (O(N^2) fp64 pairs: 1.7 s on two CPU cores
/// at this N, about one CPU step; milliseconds on a GPU).
inline constexpr std::size_t kEagerEnergyBaselineMaxBodies = 65536;

/// What one setParams() call implies for everything derived from the simulation. Simulation fills it, since it is
/// the one that compares the old parameters with the new; an edit that changes nothing reports nothing.
struct ParamsChange {
    /// Scenario, body count or seed changed: new bodies, time and step count at zero, a new energy baseline.
    bool reinitialised = false;
    /// params.backend changed: a new backend object holds the state; it starts in its default colour mode.
    bool backendReplaced = false;
    /// The cached accelerations no longer apply (solver, G, softening, theta under the tree solver, new bodies,
    /// backend or domains); this matters at the next force evaluation only, not to anything drawn now.
    bool forcesStale = false;
    /// G or the softening changed: energies before and after measure different functions; E0 is taken anew.
    bool energyFunctionChanged = false;
    /// The ORB domains were partitioned anew or switched off (domain count or balance changed, or new bodies or a
    /// new backend while ORB is on); the body arrays may have been permuted.
    bool orbDomainsChanged = false;
    /// The octree of the last force evaluation may be gone or different (solver switch, re-partition, new bodies or
    /// backend): overlay cells collected from it are stale.
    bool treeOverlayInvalidated = false;
    /// The ORB cells may differ from those last collected.
    bool orbOverlayInvalidated = false;
    /// The drawn vertices may differ: positions, order or colour scalars (leaf depths, domains).
    bool verticesNeedRefeed = false;
    /// params.backend changed: whether the CUDA backend runs must be asked of the device again.
    bool backendChoiceMayHaveChanged = false;

    /// Whether the edit implies anything at all.
    bool any() const;
    /// Either change's implications (an edit followed by its undo implies both).
    ParamsChange& operator|=(const ParamsChange& other);
    bool operator==(const ParamsChange&) const = default;
};

/// The diagnostics that recorded the energy baseline E0, when and at what cost.
struct EnergyBaseline {
    Diagnostics diagnostics;
    std::uint64_t stepCount = 0; ///< Simulation::stepCount() when they were computed
    double computeSeconds = 0;   ///< wall-clock seconds the O(N^2) evaluation took
};

/// Makes the backend params.backend asks for (createBackend; tests pass wrappers that count calls).
using BackendFactory = std::function<std::unique_ptr<SimulationBackend>(const SimParams&)>;

class Simulation {
public:
    /// Validates params, creates the backend (params.backend), checks the run's memory and loads the scenario.
    /// companion: what the caller holds per body and in all next to the bodies, for every memory check. memory: where
    /// the available bytes come from; it must outlive the simulation. Throws InsufficientMemoryError (naming N, the
    /// bytes needed and available) before generating any body when the run does not fit.
    explicit Simulation(const SimParams& params, const CompanionMemory& companion = {},
                        const MemorySource& memory = systemMemory());
    /// As above, with backends (the first one and any later switch) made by makeBackend.
    Simulation(const SimParams& params, BackendFactory makeBackend, const CompanionMemory& companion = {},
               const MemorySource& memory = systemMemory());
    /// Starts from the given bodies (arrays from Python, a snapshot already read) instead of the scenario or file of
    /// params; they set the body count, and their units, where stated, the units and G. reset() returns to them.
    Simulation(const SimParams& params, Snapshot initial, const CompanionMemory& companion = {},
               const MemorySource& memory = systemMemory());

    const SimParams& params() const { return m_params; }
    /// Validates, checks the memory when the estimate grows, then applies; re-initialises when scenario, bodyCount or
    /// seed changed. Returns what the edit implies (see ParamsChange). A refusal (InvalidParameterError,
    /// InsufficientMemoryError, ...) leaves the simulation unchanged.
    ParamsChange setParams(const SimParams& params);
    /// Returns to the initial conditions: the scenario's bodies regenerated, or the file's or given bodies as they
    /// were loaded. Step count returns to zero and time to the initial time (the file's, zero for a scenario).
    void reset();
    /// The current state as a snapshot: bodies with their ids and components, time, and the units when physical.
    Snapshot snapshot() const;
    /// Advances stepCount steps; on NonFiniteStateError (naming the step counted since reset) nothing has changed.
    void step(int stepCount = 1);

    /// Negates every body's velocity and flips timeDirection(); positions, time and step count stay as they are.
    void reverseTime();
    /// +1 while the clock runs forward, -1 after an odd number of reverseTime() calls since the last reset.
    int timeDirection() const { return m_timeDirection; }
    /// stepCount() at the last reverseTime() since the reset (0 without one): the steps before it ran the other way.
    std::uint64_t stepCountAtReversal() const { return m_stepCountAtReversal; }
    double time() const { return m_time; }
    std::uint64_t stepCount() const { return m_stepCount; }
    std::size_t bodyCount() const { return m_bodyCount; }
    /// Computes diagnostics now (O(N^2) on the CPU backend: call it on demand, not every frame). Records the energy
    /// baseline E0 when there is none yet (see the design note).
    Diagnostics diagnostics() const;
    /// Relative energy drift |E - E0| / |E0| of the given diagnostics against the baseline; NaN while there is none.
    double relativeEnergyDrift(const Diagnostics& now) const;
    /// E0, or NaN while no baseline has been recorded.
    double initialEnergy() const;
    /// The diagnostics that recorded E0, with their step and cost; empty while there is no baseline.
    const std::optional<EnergyBaseline>& energyBaseline() const { return m_energyBaseline; }

    SimulationBackend& backend() { return *m_backend; }
    const SimulationBackend& backend() const { return *m_backend; }
    /// What is drawn of the current state: the backend's visual source. A new backend (setParams() switching backends)
    /// brings a new one, in the default colour mode.
    VisualSource& visuals() { return m_backend->visuals(); }
    const VisualSource& visuals() const { return m_backend->visuals(); }

private:
    Simulation(const SimParams& params, std::optional<Snapshot> initial, BackendFactory makeBackend,
               const CompanionMemory& companion, const MemorySource& memory);
    /// Time, step count and energy baseline for a state just loaded from the scenario.
    void restartClockAndEnergy();
    /// Records E0 from diagnostics computed now, which took computeSeconds.
    void recordEnergyBaseline(const Diagnostics& now, double computeSeconds) const;

    BackendFactory m_makeBackend;
    SimParams m_params;
    CompanionMemory m_companion;
    const MemorySource* m_memory;
    /// The bodies reset() returns to when they came from a file or the caller (nullopt: the scenario's, regenerated).
    std::optional<Snapshot> m_initial;
    std::optional<DeviceFootprint> m_deviceFootprint; ///< where the current bodies live: nullopt on the CPU
    std::unique_ptr<SimulationBackend> m_backend;
    std::size_t m_bodyCount = 0;
    double m_time = 0;
    int m_timeDirection = 1; ///< what each step adds to the time, in units of dt
    std::uint64_t m_stepCount = 0;
    std::uint64_t m_stepCountAtLoad = 0; ///< m_stepCount when the backend last received bodies
    std::uint64_t m_stepCountAtReversal = 0;
    mutable std::optional<EnergyBaseline> m_energyBaseline;
};

/// Body count the app uses on a GPU when the user names none: with the GPU's default solver (kDefaultGpuSolver, the
/// Barnes-Hut tree) 2^20 bodies step in about 8 milliseconds on an H100 (docs/PERFORMANCE.md).
inline constexpr std::uint64_t kDefaultCudaBodyCount = std::uint64_t{1} << 20;

/// Whether createBackend(params) would choose the CUDA backend: a CUDA build, a device present, backend not cpu.
bool cudaBackendWouldBeChosen(const SimParams& params);

/// The backend params.backend asks for: CPU, or CUDA when built with it and a device is present. Throws
/// std::runtime_error when CUDA is demanded but unavailable, naming why, or when GL is demanded (the app's factory
/// makes that one, in its GL context), and InvalidParameterError when params.solver has no implementation on the
/// chosen backend's device (with backend auto this is where that is known).
std::unique_ptr<SimulationBackend> createBackend(const SimParams& params);

} // namespace gravlab
