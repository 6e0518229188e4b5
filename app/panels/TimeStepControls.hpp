#pragma once
// The time-step section of the simulation panel: fixed or hierarchical steps, their accuracy eta and deepest level, and
// how many bodies sit on each level with what the last steps cost.
//
// Design note: like the solver section, the widgets edit a copy of SimParams and report whether it changed; the level
// histogram is drawn from the TimeStepStatistics the session captured while the worker was idle (one small vector, so
// every frame can show it), never read from the backend here.
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/TimeStepStatistics.hpp>

namespace gravlab {

/// Mode combo, eta and max-level sliders (disabled with fixed steps); returns whether edited changed.
bool drawTimeStepControls(SimParams& edited);

/// Bodies per level as bars, and force evaluations and sub-steps per base step; bodyCount scales the cost line.
void drawTimeStepLevels(const TimeStepStatistics& statistics, std::size_t bodyCount);

} // namespace gravlab
