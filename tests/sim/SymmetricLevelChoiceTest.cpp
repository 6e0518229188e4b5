// The symmetric level choice (LevelChoice::Symmetric): the level function against cases worked by hand, and the
// stepper's memory of each body's previous acceleration against accelerations that change linearly in time, so the
// slope it must find is known exactly; and the backend's keeping of those accelerations across steps.
#include "SimTestSupport.hpp"
#include "SlopeMemoryChecks.hpp"
#include "core/CpuBackend.hpp"
#include "core/HierarchicalStepper.hpp"
#include "core/TimeStepLevels.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <array>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

namespace gravlab {
namespace {

// tau(a) = eta sqrt(eps / |a|) = 1 at |a| = 1 (eta = eps = 1); base step 4, so the start's criterion alone picks level
// 2 (step 1). With the slope s the end's |a| is |1 + s h|, and h is allowed when h <= (1 + min(tau(end), 4)) / 2.
TEST(SymmetricLevelChoice, LevelsOfCasesWorkedByHand) {
    const TimeStepCriterion criterion{4.0, 1.0, 1.0, 8, LevelChoice::Symmetric};
    const auto level = [&](double slope) {
        const double slopes[3] = {slope, 0.0, 0.0};
        return wantedSymmetricLevel(1.0f, 0.0f, 0.0f, slopes, criterion);
    };
    EXPECT_EQ(level(0.0), 2u) << "no slope: the start's criterion";
    // s = 3: h = 1 ends at |a| = 4, tau 0.5, allowed 0.75; h = 0.5 ends at 2.5, tau 0.63, allowed 0.82.
    EXPECT_EQ(level(3.0), 3u) << "a growing acceleration shortens the step";
    // s = -0.5: h = 4 ends at |a| = 1, allowed 1; h = 2 ends at |a| = 0, tau capped at 4, allowed 2.5.
    EXPECT_EQ(level(-0.5), 1u) << "a falling acceleration lengthens it";
    // s = -0.25: h = 4 ends at |a| = 0 but the cap allows only 2.5; h = 2 ends at 0.5, allowed 1.21; h = 1 ends at
    // 0.75, allowed 1.08. Without the cap an extrapolated zero would allow the whole base step.
    EXPECT_EQ(level(-0.25), 2u) << "the end's tau is capped at 4 tau(start)";
    const double none[3] = {0.0, 0.0, 0.0};
    EXPECT_EQ(wantedSymmetricLevel(0.0f, 0.0f, 0.0f, none, criterion), 0u) << "no acceleration: the base step";
}

// Three bodies drift along x at speed 1 while the test's force hook gives each an acceleration along y that changes
// linearly with the time of its evaluation, a_k(t) = 4 + S_k t (t read from x, which y-kicks do not change). After two
// base steps every body has been evaluated at least twice, so its level must be the symmetric one for its acceleration
// and the slope S_k exactly. With S = 0, 10, -10: tau(start) = 0.5 sqrt(0.01 / |a|) at t = 0.32 asks for levels 3, 4
// and 2, the symmetric choice for 3, 4 and 1 (every step at least 7% from its bound): the falling acceleration earns
// the longer step.
TEST(SymmetricLevelChoice, TheStepperExtrapolatesWithTheSlopeOfTheLastTwoEvaluations) {
    constexpr std::array<double, 3> kSlope{0.0, 10.0, -10.0};
    Bodies bodies;
    bodies.resize(3);
    for (std::size_t k = 0; k < 3; ++k)
        simtest::setBody(bodies, k, {0, double(k), 0}, {1, 0, 0}, 1.0);
    Vec3Arrays<float> accelerations;
    accelerations.resize(3);
    const auto accelerationAt = [&](std::size_t k) { return 4.0 + kSlope[k] * double(bodies.x[k]); };
    for (std::size_t k = 0; k < 3; ++k)
        accelerations.y[k] = float(accelerationAt(k));
    HierarchicalStepperCpu::Hooks hooks;
    hooks.computeForces = [&](std::span<const std::uint32_t> active) {
        for (const std::uint32_t k : active)
            accelerations.y[k] = float(accelerationAt(k));
    };
    const TimeStepCriterion criterion{0.16, 0.01, 0.5, 8, LevelChoice::Symmetric};
    HierarchicalStepperCpu stepper;
    std::vector<PhaseTiming> times;
    stepper.step(bodies, accelerations, criterion, hooks, times);
    stepper.step(bodies, accelerations, criterion, hooks, times);
    ASSERT_NEAR(bodies.x[0], 0.32, 1e-6);
    constexpr std::array<std::uint32_t, 3> kExpected{3, 4, 1};
    for (std::size_t k = 0; k < 3; ++k)
        EXPECT_EQ(stepper.levels()[k], kExpected[k]) << "body " << k << ", a = " << accelerations.y[k];
    TimeStepCriterion atStart = criterion;
    atStart.choice = LevelChoice::Start;
    EXPECT_EQ(wantedTimeStepLevel(0.0f, accelerations.y[2], 0.0f, atStart), 2u) << "the start's choice differs";
}

// Slopes carry over from one symmetric base step to the next, and are dropped by a step under the start's choice or
// a fixed step (with ORB permuting the bodies, which would also leave position-indexed slopes with the wrong bodies).
TEST(SymmetricLevelChoice, TheBackendKeepsSlopesOnlyAcrossSymmetricSteps) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies start = generateScenario("plummer", 6000, seed, {});
    SimParams symmetric;
    symmetric.solver = "direct";
    symmetric.backend = BackendKind::Cpu;
    symmetric.softeningLength = 0.02;
    symmetric.timeSteps = {TimeStepMode::Hierarchical, 0.03, 6};
    symmetric.timeSteps.levelChoice = LevelChoice::Symmetric;
    test::expectSlopesKeptOnlyAcrossSymmetricSteps([] { return std::make_unique<CpuBackend>(); }, start, symmetric);
}

} // namespace
} // namespace gravlab
