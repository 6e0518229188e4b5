#pragma once
// What the last step() call's time stepping cost and how the bodies are spread over hierarchical time-step levels,
// for the panel's histogram, the time-step benchmark and the tests.
//
// Design note: counted by the backends where the force evaluations are launched, so the figures are the work done,
// not an estimate; per base step (the dt of SimParams), averaged over the steps of the last step() call.
#include <cstdint>
#include <vector>

namespace gravlab {

struct TimeStepStatistics {
    /// Bodies per level (index = level, dt / 2^level) as the next base step will start them: the level each body's
    /// acceleration asks for. One entry (every body on level 0) with fixed steps; empty before the first step.
    std::vector<std::uint64_t> bodiesPerLevel;
    /// Body-force evaluations (a body's acceleration computed against all others) per base step: N with fixed steps.
    double forceEvaluationsPerStep = 0;
    /// Bodies whose force the solver computed without needing it, per base step (the GPU tree walks whole groups, some
    /// of whose bodies are not active); 0 elsewhere.
    double wastedForceEvaluationsPerStep = 0;
    /// Sub-steps (drifts) per base step: 1 with fixed steps, 2^deepest level with hierarchical ones.
    double subStepsPerStep = 0;
};

} // namespace gravlab
