#pragma once
// Scenario registry: named, seeded generators of initial conditions shared by the app and the tests, each with the
// metadata of a gallery entry (what it shows, what to look for, its time scales, suggested settings, parameters).
//
// Design note: each scenario is deterministic for a given (N, seed, parameters) and uses its own counter-based random
// stream so results do not depend on the standard library's distributions. Units: G = 1; a stellar system (a Plummer
// sphere, a galaxy, a host halo) has mass 1 and a size of order 1, so one time unit is about one crossing time; a
// planetary system or binary has total mass 1 around its centre and a length unit of its innermost orbit's scale.
//   plummer           Plummer sphere in Henon units, sampled from its distribution function (Aarseth, Henon &
//                     Wielen 1974); velocities scaled to a chosen virial ratio 2K/|W| (1: equilibrium).
//   cold-cube         uniform cube at rest, collapses.
//   cold-sphere       uniform sphere at rest, collapses in the free-fall time.
//   disk-galaxy       exponential disk plus a Plummer bulge, velocity dispersion set by a Toomre Q.
//   galaxy-collision  two disk galaxies (mass 1 and a chosen mass ratio) on a parabolic collision course (the
//                     default scene).
//   ring-galaxy       a compact companion falling through a disk's centre along its axis.
//   satellite-stream  a small Plummer satellite on an eccentric orbit in a Hernquist host, torn into a stream.
//   kepler-binary     two bodies on a Keplerian ellipse of chosen eccentricity and period.
//   planetary-system  a star and a few light planets on Keplerian orbits.
// A scenario's parameters are a small table (name, default, range, meaning); SimParams::scenarioParams holds the
// values chosen, and a parameter left out takes its default. Time scales are computed from the parameters, in N-body
// time units, so the gallery can say how long to watch.
#include <gravlab/sim/Bodies.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gravlab {

/// One numeric parameter of a scenario; values lie in [min, max].
struct ScenarioParameter {
    std::string_view name; ///< as --scenario-param spells it, e.g. "toomre-q"
    double defaultValue;
    double min;
    double max;
    std::string_view meaning; ///< meaning and unit, for help texts and the panel
};

/// Values chosen for a scenario's parameters, by name; a parameter left out takes its default.
using ScenarioParams = std::map<std::string, double, std::less<>>;

/// One characteristic time of a scenario, in N-body time units.
struct NamedTime {
    std::string name; ///< e.g. "free-fall time"
    double value;
};

/// Settings that show a scenario well (the panel's "use suggested settings").
struct SuggestedSettings {
    std::uint64_t bodyCount;
    double timeStep;        ///< N-body time units
    double softeningLength; ///< N-body length units
    std::string_view solver;
    int stepsPerFrame;
};

struct Scenario {
    std::string_view name;
    std::string_view description;   ///< one line, shown in --help and the scenario combo
    std::string_view overview;      ///< a few sentences on what the scene is
    std::string_view whatToLookFor; ///< what to watch for while it runs
    std::span<const ScenarioParameter> parameters;
    SuggestedSettings suggested;
    /// Characteristic times for complete parameter values (every parameter present).
    std::vector<NamedTime> (*timeScales)(const ScenarioParams& values);
    /// Fills out with bodyCount bodies for complete parameter values.
    void (*generate)(Bodies& out, std::size_t bodyCount, std::uint64_t seed, const ScenarioParams& values);
};

/// All registered scenarios, in display order.
std::span<const Scenario> scenarios();
/// The scenario called name, or nullptr.
const Scenario* findScenario(std::string_view name);
/// Throws InvalidParameterError, listing the known names, unless a scenario is called name.
void checkScenarioName(std::string_view name);
/// Throws InvalidParameterError (field "scenario-param") for a value outside its parameter's range or a name the
/// scenario does not have (listing the names it has).
void checkScenarioParams(std::string_view scenarioName, const ScenarioParams& chosen);
/// The chosen values checked and completed with the defaults of the parameters left out.
ScenarioParams completeScenarioParams(std::string_view scenarioName, const ScenarioParams& chosen);
/// The scenario's characteristic times for the chosen parameter values.
std::vector<NamedTime> scenarioTimeScales(std::string_view scenarioName, const ScenarioParams& chosen = {});
/// Bodies of the named scenario; throws InvalidParameterError for an unknown name or parameter and
/// std::runtime_error when the host cannot hold bodyCount bodies.
Bodies generateScenario(std::string_view name, std::size_t bodyCount, std::uint64_t seed,
                        const ScenarioParams& chosen = {});

} // namespace gravlab
