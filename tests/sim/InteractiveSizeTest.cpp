// The step-cost model behind the window's measured defaults: its predictions follow the N^2 and N log N laws, the
// chosen body count is the largest granule whose steps fit the frame's share (checked against the closed-form inverse),
// steps per frame give way before the body count does, and the probe measures on any scenario.
#include <gravlab/sim/InteractiveSize.hpp>

#include <cmath>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

const SolverInfo& directSolver() {
    return findSolver("direct");
}
const SolverInfo& treeSolver() {
    return findSolver("tree");
}

constexpr double kFrameStepSeconds = kStepShareOfFrame / kInteractiveFramesPerSecond;

TEST(InteractiveSize, AllPairsCostGrowsAsTheSquareAndTheTreeAsNLogN) {
    const StepCostModel direct = StepCostModel::of(directSolver(), 4096, 0.010);
    EXPECT_DOUBLE_EQ(direct.stepSecondsAt(8192), 0.040);
    EXPECT_DOUBLE_EQ(direct.stepSecondsAt(1024), 0.010 / 16);
    const StepCostModel tree = StepCostModel::of(treeSolver(), 16384, 0.010);
    // 65536 log2 65536 / (16384 log2 16384) = 4 * 16 / 14.
    EXPECT_DOUBLE_EQ(tree.stepSecondsAt(65536), 0.010 * 4 * 16 / 14);
}

TEST(InteractiveSize, LargestBodiesWithinInvertsTheModel) {
    const StepCostModel direct = StepCostModel::of(directSolver(), 4096, 0.010);
    EXPECT_EQ(direct.largestBodiesWithin(0.040, 1 << 20), 8192u);
    // sqrt(0.0123 / 0.010) * 4096 = 4542.7...: the closed form, floored.
    EXPECT_EQ(direct.largestBodiesWithin(0.0123, 1 << 20), std::uint64_t(std::floor(4096 * std::sqrt(1.23))));
    EXPECT_EQ(direct.largestBodiesWithin(100.0, 5000), 5000u) << "capped at the limit";
    EXPECT_EQ(direct.largestBodiesWithin(1e-12, 5000), 1u) << "at least one body";
    const StepCostModel tree = StepCostModel::of(treeSolver(), 16384, 0.010);
    const std::uint64_t fits = tree.largestBodiesWithin(0.050, 1 << 24);
    EXPECT_LE(tree.stepSecondsAt(fits), 0.050);
    EXPECT_GT(tree.stepSecondsAt(fits + 1), 0.050);
}

TEST(InteractiveSize, DefaultsTakeTheLargestGranuleThatKeepsThirtyFramesPerSecond) {
    const StepCostModel direct = StepCostModel::of(directSolver(), 4096, 0.010);
    const InteractiveDefaults defaults = chooseInteractiveDefaults(direct, 1, std::uint64_t{1} << 20);
    const double closedForm = 4096 * std::sqrt(kFrameStepSeconds / 0.010);
    EXPECT_EQ(defaults.bodyCount, std::uint64_t(closedForm / 1024) * 1024);
    EXPECT_EQ(defaults.stepsPerFrame, 1);
    EXPECT_LE(direct.stepSecondsAt(defaults.bodyCount), kFrameStepSeconds);
    EXPECT_GT(direct.stepSecondsAt(defaults.bodyCount + kInteractiveBodyGranule), kFrameStepSeconds);

    const StepCostModel fast = StepCostModel::of(directSolver(), 4096, 1e-6);
    EXPECT_EQ(chooseInteractiveDefaults(fast, 1, 100000).bodyCount, 99328u) << "the largest granule under the cap";
}

TEST(InteractiveSize, StepsPerFrameGiveWayBeforeTheBodyCount) {
    // 1024 bodies take 10 ms a step: 4 steps per frame would take 40 ms of a 23 ms share, 2 take 20 ms.
    const StepCostModel slow = StepCostModel::of(directSolver(), 1024, 0.010);
    const InteractiveDefaults defaults = chooseInteractiveDefaults(slow, 4, std::uint64_t{1} << 20);
    EXPECT_EQ(defaults.stepsPerFrame, 2);
    EXPECT_EQ(defaults.bodyCount, 1024u);
    const StepCostModel hopeless = StepCostModel::of(directSolver(), 1024, 1.0);
    const InteractiveDefaults least = chooseInteractiveDefaults(hopeless, 4, std::uint64_t{1} << 20);
    EXPECT_EQ(least.stepsPerFrame, 1);
    EXPECT_EQ(least.bodyCount, kInteractiveBodyGranule) << "never below one granule";
}

TEST(InteractiveSize, PanelFigureComesFromTheLiveStepRoundedToTwoDigits) {
    // 8192 bodies, 2 steps in 20 ms: 10 ms a step, and each of a frame's 2 steps may take 23.3 / 2 ms, so
    // sqrt(11.67 / 10) * 8192 = 8848 -> 8800.
    EXPECT_EQ(interactiveBodiesFromLiveStep(directSolver(), 8192, 0.020, 2), 8800u);
    EXPECT_EQ(interactiveBodiesFromLiveStep(directSolver(), 8192, 0.010, 1), 12000u) << "12513 with one step a frame";
    EXPECT_EQ(interactiveBodiesFromLiveStep(directSolver(), 8192, 0.0, 1), 0u) << "nothing timed yet";
}

TEST(InteractiveSize, BadMeasurementsAreRefusedWithTheirValues) {
    EXPECT_THROW((void)StepCostModel::of(directSolver(), 1, 0.01), std::invalid_argument);
    EXPECT_THROW((void)StepCostModel::of(directSolver(), 4096, std::nan("")), std::invalid_argument);
    EXPECT_THROW((void)StepCostModel::of(directSolver(), 4096, 0.0), std::invalid_argument);
}

TEST(InteractiveSize, ProbeMeasuresOnTheCpuWhateverTheScenario) {
    SimParams params;
    params.backend = BackendKind::Cpu;
    params.scenario = "kepler-binary"; // a scenario of two bodies: the probe still times thousands
    const StepCostModel model = measureStepCost(params);
    EXPECT_EQ(model.measuredBodies, 4096u);
    EXPECT_TRUE(model.allPairs);
    EXPECT_GT(model.measuredStepSeconds, 0.0);
    params.solver = "tree";
    const StepCostModel tree = measureStepCost(params);
    EXPECT_EQ(tree.measuredBodies, 16384u);
    EXPECT_FALSE(tree.allPairs);
}

} // namespace
} // namespace gravlab
