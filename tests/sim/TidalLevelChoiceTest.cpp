// The tidal level choice (LevelChoice::Tidal): the level function against cases worked by hand, where the dynamical
// time is known exactly (a harmonic core, its fallbacks), and the stepper's levels on a circular binary, whose orbital
// frequency is known analytically: a body's step must follow its orbit's time scale, not its acceleration. Its energy
// against fixed steps of equal cost is tested with the other choices' in HierarchicalStepsTest.cpp.
#include "SimTestSupport.hpp"
#include "core/CpuBackend.hpp"
#include "core/TimeStepLevels.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <numbers>

namespace gravlab {
namespace {

// A body in a harmonic core a = -omega^2 x with omega^2 = 4 (omega = 2), which drifted at speed 1 over its last step of
// 0.125 (dx = 0.125) while its acceleration fell by omega^2 dx = 0.5, from 0 to -0.5; the closing half-kick then left
// its velocity at 1 - 0.5 * 0.0625. Every number is exact in binary. With eta = 0.5 the allowed step is eta / omega =
// 0.25, exactly the step of level 2 on a base step of 1 (the bound is inclusive).
constexpr float kInterval = 0.125f;
constexpr float kDriftSpeed = 1.0f;

float kickedSpeed(float acceleration) {
    return kDriftSpeed + acceleration * 0.5f * kInterval;
}

TEST(TidalLevelChoice, LevelsOfCasesWorkedByHand) {
    const TimeStepCriterion criterion{1.0, 0.01, 0.5, 8, LevelChoice::Tidal};
    const auto level = [&](float before, float now, float speed) {
        return wantedTidalLevel(now, 0.0f, 0.0f, {before, 0.0f, 0.0f, kInterval}, speed, 0.0f, 0.0f, criterion);
    };
    EXPECT_EQ(level(0.0f, -0.5f, kickedSpeed(-0.5f)), 2u) << "omega = 2: eta / omega = 0.25, level 2's step";
    // omega^2 = 4.5 (a change of 0.5625): eta / omega = 0.236 < 0.25, so one level deeper.
    EXPECT_EQ(level(0.0f, -0.5625f, kickedSpeed(-0.5625f)), 3u) << "a stiffer core asks for a shorter step";
    // omega^2 = 0.25 (a change of 0.03125): eta / omega = 1, the base step.
    EXPECT_EQ(level(0.0f, -0.03125f, kickedSpeed(-0.03125f)), 0u) << "a soft core allows the base step";

    // The equivalence principle: a uniform field (here 1000) added to both accelerations changes nothing in the
    // dynamics and nothing in the tidal level, while it sends the acceleration criterion many levels deeper.
    constexpr float kField = 1000.0f;
    EXPECT_EQ(level(kField, kField - 0.5f, kickedSpeed(kField - 0.5f)), 2u) << "a uniform field added";
    TimeStepCriterion atStart = criterion;
    atStart.choice = LevelChoice::Start;
    EXPECT_EQ(wantedTimeStepLevel(-0.5f, 0.0f, 0.0f, atStart), 4u) << "the start's choice: eta sqrt(eps / |a|) = 0.07";
    EXPECT_EQ(wantedTimeStepLevel(kField - 0.5f, 0.0f, 0.0f, atStart), 8u) << "and the field moves it";

    // Where the last step tells no path length, the acceleration criterion stands in.
    EXPECT_EQ(wantedTidalLevel(-0.5f, 0.0f, 0.0f, {}, kickedSpeed(-0.5f), 0.0f, 0.0f, criterion), 4u) << "no last step";
    EXPECT_EQ(level(0.0f, -0.5f, -0.5f * 0.5f * kInterval), 4u) << "a body that did not move";
    EXPECT_EQ(level(-0.5f, -0.5f, kickedSpeed(-0.5f)), 4u) << "an acceleration that did not change";
    // The bound is the same for the velocity's direction and the change's: a change across the path counts too.
    EXPECT_EQ(wantedTidalLevel(0.0f, -0.5f, 0.0f, {0.0f, 0.0f, 0.0f, kInterval}, kDriftSpeed, -0.5f * 0.5f * kInterval,
                               0.0f, criterion),
              2u);

    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float infinity = std::numeric_limits<float>::infinity();
    EXPECT_EQ(level(0.0f, nan, 1.0f), 0u) << "a non-finite acceleration is the finiteness check's to report";
    EXPECT_EQ(level(0.0f, -0.5f, infinity), 0u) << "a non-finite velocity likewise";
    EXPECT_EQ(chosenTimeStepLevel(0.0f, -0.5f, 0.0f, {0.0f, 0.0f, 0.0f, kInterval}, kDriftSpeed,
                                  -0.5f * 0.5f * kInterval, 0.0f, criterion),
              2u)
        << "chosenTimeStepLevel dispatches to the tidal rule";
}

SimParams tidalParams(double timeStep, double eta) {
    SimParams params;
    params.solver = "direct";
    params.backend = BackendKind::Cpu;
    params.softeningLength = 1e-3;
    params.timeStep = timeStep;
    params.timeSteps = {TimeStepMode::Hierarchical, eta, 8, LevelChoice::Tidal};
    return params;
}

// Two equal masses on a circular orbit of radius 1 (G M = 1): the orbital frequency is 1 everywhere on it, and over a
// step both a body's acceleration and its position turn through the same angle, so |da| / |dx| = |a| / r = 1 exactly.
// With base step 0.1 and eta 0.03 the tidal choice allows 0.03: level 2 (0.025; level 1's 0.05 is 67% over, level 2's
// step 17% under, far beyond the leapfrog's O(dt^2) error in the estimate). The start's choice puts the same bodies on
// level 7, from eta sqrt(eps / |a|) = 1.3e-3: the test tells the two apart.
TEST(TidalLevelChoice, ACircularBinaryStepsAtItsOrbitalFrequency) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies start =
        generateScenario("kepler-binary", 2, seed, {{"eccentricity", 0.0}, {"period", 2 * std::numbers::pi}});
    const auto levelsAfter = [&](const SimParams& params, int baseSteps) {
        CpuBackend backend;
        backend.load(start);
        backend.step(params, baseSteps);
        return backend.timeStepStatistics().bodiesPerLevel;
    };
    const SimParams tidal = tidalParams(0.1, 0.03);
    // The first base step has no last step to read and takes the acceleration criterion's levels; from the second on
    // every level is the orbit's, at every phase of it.
    for (const int baseSteps : {2, 5, 17, 40})
        EXPECT_EQ(levelsAfter(tidal, baseSteps), (std::vector<std::uint64_t>{0, 0, 2})) << baseSteps << " base steps";
    SimParams atStart = tidal;
    atStart.timeSteps.levelChoice = LevelChoice::Start;
    EXPECT_EQ(levelsAfter(atStart, 2), (std::vector<std::uint64_t>{0, 0, 0, 0, 0, 0, 0, 2}));
}

} // namespace
} // namespace gravlab
