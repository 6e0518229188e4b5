// The benchmarks' per-phase statistics: medians hide a phase that runs every few steps, means show its share.
#include "BenchStatistics.hpp"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace gravlab {
namespace {

/// Four steps of a force phase and a re-partition in the last step only, as a run re-cutting every 4 steps has.
std::vector<std::vector<PhaseTiming>> stepsWithOneRecut() {
    std::vector<std::vector<PhaseTiming>> steps;
    const double force[4] = {10.0, 12.0, 11.0, 13.0};
    for (int s = 0; s < 4; ++s)
        steps.push_back({{"force", force[s]}, {"orb", s == 3 ? 8.0 : 0.0}});
    return steps;
}

TEST(BenchStatistics, MediansHideAnOccasionalPhaseThatMeansShow) {
    const std::vector<PhaseTiming> medians = medianPhases(stepsWithOneRecut());
    const std::vector<PhaseTiming> means = meanPhases(stepsWithOneRecut());
    ASSERT_EQ(medians.size(), 2u);
    ASSERT_EQ(means.size(), 2u);
    EXPECT_EQ(medians[0].phase, "force");
    EXPECT_DOUBLE_EQ(medians[0].milliseconds, (11.0 + 12.0) / 2); // the middle two of 10, 11, 12, 13
    EXPECT_DOUBLE_EQ(medians[1].milliseconds, 0.0);
    EXPECT_EQ(means[1].phase, "orb");
    EXPECT_DOUBLE_EQ(means[0].milliseconds, (10.0 + 12.0 + 11.0 + 13.0) / 4);
    EXPECT_DOUBLE_EQ(means[1].milliseconds, 8.0 / 4); // one cut's 8 ms spread over the 4 steps
}

TEST(BenchStatistics, APhaseAStepDidNotReportIsLeftOutOfItsStatistics) {
    // The first step reports the force only; the orb phase's statistics run over the two steps that name it.
    const std::vector<std::vector<PhaseTiming>> steps = {
        {{"force", 10.0}}, {{"force", 20.0}, {"orb", 4.0}}, {{"force", 30.0}, {"orb", 6.0}}};
    const std::vector<PhaseTiming> means = meanPhases(steps);
    ASSERT_EQ(means.size(), 2u);
    EXPECT_DOUBLE_EQ(means[0].milliseconds, 20.0);
    EXPECT_DOUBLE_EQ(means[1].milliseconds, 5.0);
    EXPECT_DOUBLE_EQ(medianPhases(steps)[1].milliseconds, 5.0);
    EXPECT_TRUE(meanPhases({}).empty());
}

} // namespace
} // namespace gravlab
