// Bodies keep their 64-bit ids and components through every reorder on the CPU (ORB partitions and migrations), and
// a simulation started from given bodies returns to them exactly on reset.
#include "SimTestSupport.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <IdentityChecks.hpp>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

SimParams cpuParams() {
    SimParams params;
    params.backend = BackendKind::Cpu;
    params.solver = "tree";
    params.timeStep = 1e-3;
    return params;
}

TEST(BodyIdentity, OrbPartitionMovesWholeBodies) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies original = test::bodiesWithIdentities(3000, seed);
    SimParams params = cpuParams();
    params.orb.domainCount = 17;
    Simulation simulation(params, Snapshot{original});
    Bodies now;
    simulation.backend().readBodies(now);
    EXPECT_NE(now.id, original.id) << "17 domains over random bodies should have reordered them";
    EXPECT_EQ(test::identityMismatch(original, now, true), "");
}

TEST(BodyIdentity, IdsSurviveStepsWithMigrationAndRebuilds) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies original = test::bodiesWithIdentities(2000, seed);
    SimParams params = cpuParams();
    params.timeStep = 0.05; // bodies cross cells, so migration has work to do
    params.orb.domainCount = 8;
    params.orb.rebuildInterval = 5;
    Simulation simulation(params, Snapshot{original});
    simulation.step(12);
    Bodies now;
    simulation.backend().readBodies(now);
    EXPECT_EQ(test::identityMismatch(original, now, false), "");
    const BodyIdentity third = simulation.backend().bodyIdentity(3);
    EXPECT_EQ(third, (BodyIdentity{now.id[3], now.component[3]}));
}

TEST(BodyIdentity, ResetReturnsToTheGivenBodiesAndTheirTime) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    Snapshot given{test::bodiesWithIdentities(500, seed)};
    given.time = 2.5;
    Simulation simulation(cpuParams(), given);
    EXPECT_EQ(simulation.bodyCount(), 500u);
    EXPECT_EQ(simulation.time(), 2.5);
    simulation.step(4);
    EXPECT_DOUBLE_EQ(simulation.time(), 2.5 + 4 * 1e-3);
    simulation.reset();
    EXPECT_EQ(simulation.time(), 2.5);
    Bodies now;
    simulation.backend().readBodies(now);
    EXPECT_EQ(now.id, given.bodies.id);
    EXPECT_EQ(now.x, given.bodies.x);
    EXPECT_EQ(now.vz, given.bodies.vz);
}

TEST(BodyIdentity, PhysicalUnitsOfTheGivenBodiesSetG) {
    Snapshot given{test::bodiesWithIdentities(100, 7)};
    given.units = gadgetDefaultUnits();
    Simulation simulation(cpuParams(), given);
    EXPECT_EQ(simulation.params().units, *given.units);
    // G in kpc, 1e10 Msun and km/s, from CODATA G and the IAU parsec and solar mass: 43009.2 to 6 digits.
    EXPECT_NEAR(simulation.params().gravitationalConstant, 43009.2, 0.1);
    // A scenario is in N-body units: choosing one returns to them.
    SimParams scenario = simulation.params();
    scenario.scenario = "plummer";
    scenario.bodyCount = 64;
    simulation.setParams(scenario);
    EXPECT_FALSE(simulation.params().units.physical());
    EXPECT_EQ(simulation.params().gravitationalConstant, 1.0);
}

TEST(BodyIdentity, ScenarioBodiesAreNumberedInOrder) {
    SimParams params = cpuParams();
    params.scenario = "plummer";
    params.bodyCount = 300;
    const Snapshot state = Simulation(params).snapshot();
    for (std::size_t i = 0; i < state.bodies.size(); ++i) {
        ASSERT_EQ(state.bodies.id[i], i);
        ASSERT_EQ(state.bodies.component[i], kDarkMatterComponent);
    }
    EXPECT_FALSE(state.units.has_value());
}

TEST(BodyIdentity, RecentringMovesTheCentreOfMassToRest) {
    Bodies bodies = test::bodiesWithIdentities(400, 11);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        bodies.x[i] += 3.0f;
        bodies.vy[i] -= 2.0f;
    }
    moveToCentreOfMassFrame(bodies);
    double mass = 0, x = 0, vy = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        mass += bodies.mass[i];
        x += double(bodies.mass[i]) * bodies.x[i];
        vy += double(bodies.mass[i]) * bodies.vy[i];
    }
    EXPECT_NEAR(x / mass, 0.0, 1e-6);
    EXPECT_NEAR(vy / mass, 0.0, 1e-6);
}

} // namespace
} // namespace gravlab
