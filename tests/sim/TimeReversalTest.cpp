// Time reversal through Simulation on the CPU backend: K KDK steps forward, reverseTime(), K steps back must return
// every body to where it started and the clock to its start time.
//
// Design note: the reference is the initial state itself (the scenario's bodies before any step), an independent
// value the code cannot bend. Bodies are matched by id, since ORB domains permute them. The bound comes from fp32
// rounding: each step rounds every position and velocity to a few ulp (the kicks' and drift's fmas, the float force
// sum), i.e. about 1e-7 relative to |x| ~ 1 and |v| ~ 1 in a Plummer sphere in N-body units. The leapfrog is
// symplectic and exactly reversible in exact arithmetic, so only these roundings keep the run from retracing its
// path; they add up linearly (at worst) or as a random walk over the 2K steps, amplified by close encounters (the
// softening of 0.05 limits that). For K = 200 on 2000 bodies a random walk over 400 steps of a few ulp of the outer
// bodies' |x| ~ 10 (ulp ~ 1e-6) predicts ~1e-5 at worst. Measured over seeds 1..8, with and without ORB: the largest
// position error was 1.6e-6 and the largest velocity error 1.4e-6; the bounds of 1e-5 keep a margin of six. A skipped
// or partial reversal leaves errors of order |v| K dt ~ 1, which the sabotage tests check is far above the bounds.
#include "SimTestSupport.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <IdentityChecks.hpp>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

constexpr int kSteps = 200;
constexpr double kPositionBound = 1e-5;
constexpr double kVelocityBound = 1e-5;

SimParams plummerParams(std::uint64_t seed, std::uint32_t orbDomains = 0) {
    SimParams params;
    params.scenario = "plummer";
    params.bodyCount = 2000;
    params.seed = seed;
    params.backend = BackendKind::Cpu;
    params.solver = "direct";
    params.orb.domainCount = orbDomains;
    return params;
}

using test::bodiesOf;

using test::distanceById;
using test::StateDistance;

/// Runs K steps forward, reverses with reverse, runs K steps back and reverses again (so velocities compare
/// directly with the start), stepping one step per call as the window does.
template <class Reverse> StateDistance forwardAndBack(Simulation& simulation, const Bodies& start, Reverse reverse) {
    for (int i = 0; i < kSteps; ++i)
        simulation.step(1);
    reverse(simulation);
    for (int i = 0; i < kSteps; ++i)
        simulation.step(1);
    reverse(simulation);
    return distanceById(start, bodiesOf(simulation));
}

void reverseTime(Simulation& simulation) {
    simulation.reverseTime();
}

TEST(TimeReversal, ForwardThenBackReturnsEveryBodyAndTheClock) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    Simulation simulation(plummerParams(seed));
    const Bodies start = bodiesOf(simulation);
    const double startTime = simulation.time();
    const StateDistance distance = forwardAndBack(simulation, start, reverseTime);
    EXPECT_LT(distance.position, kPositionBound);
    EXPECT_LT(distance.velocity, kVelocityBound);
    EXPECT_NEAR(simulation.time(), startTime, 1e-12);
    EXPECT_EQ(simulation.stepCount(), std::uint64_t(2 * kSteps)); // steps taken still count up
    EXPECT_EQ(simulation.timeDirection(), 1);
}

TEST(TimeReversal, WithOrbDomainsBodiesAreMatchedById) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    Simulation simulation(plummerParams(seed, 7));
    const Bodies start = bodiesOf(simulation);
    const StateDistance distance = forwardAndBack(simulation, start, reverseTime);
    EXPECT_LT(distance.position, kPositionBound);
    EXPECT_LT(distance.velocity, kVelocityBound);
}

TEST(TimeReversal, ClockRunsBackwardsAndReversingTwiceRunsForwardAgain) {
    Simulation simulation(plummerParams(1));
    simulation.step(3);
    const Bodies before = bodiesOf(simulation);
    const double timeBefore = simulation.time();
    simulation.reverseTime();
    EXPECT_EQ(simulation.timeDirection(), -1);
    EXPECT_EQ(simulation.time(), timeBefore); // the reversal itself takes no time
    const Bodies reversed = bodiesOf(simulation);
    for (std::size_t i = 0; i < before.size(); ++i) {
        ASSERT_EQ(reversed.x[i], before.x[i]);
        ASSERT_EQ(reversed.vx[i], -before.vx[i]);
        ASSERT_EQ(reversed.vy[i], -before.vy[i]);
        ASSERT_EQ(reversed.vz[i], -before.vz[i]);
    }
    simulation.step(2);
    EXPECT_NEAR(simulation.time(), timeBefore - 2 * simulation.params().timeStep, 1e-12);
    simulation.reverseTime();
    EXPECT_EQ(simulation.timeDirection(), 1);
    simulation.step(1);
    EXPECT_NEAR(simulation.time(), timeBefore - simulation.params().timeStep, 1e-12);
    simulation.reverseTime();
    simulation.reset();
    EXPECT_EQ(simulation.timeDirection(), 1); // the initial conditions run forward
    EXPECT_EQ(simulation.time(), 0.0);
}

/// Negates only the velocity components named, through a reload (as a buggy reversal might).
auto partialReversal(bool x, bool y, bool z) {
    return [=](Simulation& simulation) {
        Bodies bodies = bodiesOf(simulation);
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            if (x)
                bodies.vx[i] = -bodies.vx[i];
            if (y)
                bodies.vy[i] = -bodies.vy[i];
            if (z)
                bodies.vz[i] = -bodies.vz[i];
        }
        simulation.backend().load(bodies);
    };
}

TEST(TimeReversal, BoundsCatchASkippedOrPartialReversal) {
    for (const auto& [x, y, z] : {std::tuple{false, false, false}, std::tuple{true, true, false},
                                  std::tuple{false, true, true}, std::tuple{true, false, true}}) {
        SCOPED_TRACE(testing::Message() << "negated vx " << x << " vy " << y << " vz " << z);
        Simulation simulation(plummerParams(2));
        const Bodies start = bodiesOf(simulation);
        const StateDistance distance = forwardAndBack(simulation, start, partialReversal(x, y, z));
        EXPECT_GT(distance.position, 100 * kPositionBound);
    }
}

} // namespace
} // namespace gravlab
