#pragma once
// The statistics the benchmarks report, shared by the step bench (BenchCommand) and the frame bench (FrameBench).
//
// Design note: every timing Gravlab publishes is a median over repeats after a warm-up (docs/PERFORMANCE.md's
// method), so one slow outlier (a context switch, a page fault) does not move the number; per-phase medians are taken
// phase by phase, so they need not sum to the median step. Means are reported beside them for what happens only every
// few steps.
#include <gravlab/sim/SimulationBackend.hpp>

#include <vector>

namespace gravlab {

/// The median of values; 0 when there are none.
double median(std::vector<double> values);

/// The median of each phase over the steps, in the order the backend names them (those of the last step); a phase a
/// step did not report is left out of that phase's median. Empty when there are no steps.
std::vector<PhaseTiming> medianPhases(const std::vector<std::vector<PhaseTiming>>& steps);

/// The mean of each phase over the steps, in the same order and leaving out the same way: a phase that runs only every
/// K steps (a re-partition) shows its share per step here, where its median is 0.
std::vector<PhaseTiming> meanPhases(const std::vector<std::vector<PhaseTiming>>& steps);

} // namespace gravlab
