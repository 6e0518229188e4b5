#pragma once
// How many bodies a machine keeps interactive: a step-cost model calibrated by one measurement.
//
// Design note: the window should open at a frame rate that reads as motion (30 frames/s) on whatever machine it lands
// on, from a 2-core laptop to a workstation. Instead of a table of machines, a quick measurement (a few steps at a
// probe size, tens of milliseconds) calibrates the solver's scaling law: N^2 for the all-pairs solvers, N log N for
// the tree. The model then gives the largest body count whose steps fit a frame's share for steps. The same model
// turns the window's live step times into the panel's "keeps about N bodies interactive", so both figures come from
// measurements on this machine, not from guesses.
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/Simulation.hpp>
#include <gravlab/sim/SolverRegistry.hpp>

#include <cstdint>

namespace gravlab {

/// The frame rate the window's defaults aim at.
inline constexpr double kInteractiveFramesPerSecond = 30.0;
/// The share of a frame the steps may take: the rest feeds vertices, draws and runs the panel.
inline constexpr double kStepShareOfFrame = 0.7;

/// A solver's step time as a function of the body count, through one measured point.
struct StepCostModel {
    bool allPairs = true;             ///< N^2 (all-pairs solvers) or N log N (the tree)
    std::uint64_t measuredBodies = 1; ///< the probe's body count, at least 2
    double measuredStepSeconds = 0;   ///< its median step, > 0

    static StepCostModel of(const SolverInfo& solver, std::uint64_t bodies, double stepSeconds);
    /// The predicted step at bodies.
    double stepSecondsAt(std::uint64_t bodies) const;
    /// The most bodies (at least 1, at most limit) whose predicted step is within stepSeconds.
    std::uint64_t largestBodiesWithin(double stepSeconds, std::uint64_t limit) const;
};

/// The window's opening choice.
struct InteractiveDefaults {
    std::uint64_t bodyCount = 0;
    int stepsPerFrame = 1;
    StepCostModel model;
};

/// Body counts the defaults pick from: multiples of 1024 from 1024 up to maxBodies.
inline constexpr std::uint64_t kInteractiveBodyGranule = 1024;

/// The largest body count (a multiple of kInteractiveBodyGranule, at least one granule, at most maxBodies) whose
/// stepsPerFrame steps fit kStepShareOfFrame of a frame at kInteractiveFramesPerSecond; when not even one granule
/// fits, steps per frame are reduced (down to 1) before the count is.
InteractiveDefaults chooseInteractiveDefaults(const StepCostModel& model, int stepsPerFrame, std::uint64_t maxBodies);

/// The bodies the machine keeps at kInteractiveFramesPerSecond with stepsPerFrame steps per frame, rounded down to two
/// significant digits, from the live step time of stepsPerFrame steps at bodies (for the panel).
std::uint64_t interactiveBodiesFromLiveStep(const SolverInfo& solver, std::uint64_t bodies, double stepsSeconds,
                                            int stepsPerFrame);

/// Times a few steps of params' solver on the backend makeBackend makes for params, at a probe size suited to the
/// solver (4096 bodies for all-pairs solvers, 16384 for the tree), on a Plummer sphere; tens of milliseconds on a
/// laptop. Throws what the backend throws.
StepCostModel measureStepCost(const SimParams& params, const BackendFactory& makeBackend = createBackend);

} // namespace gravlab
