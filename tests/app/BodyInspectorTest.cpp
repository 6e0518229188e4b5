// The inspector's reading: it follows the body by id while ORB reorders, refreshes at most every few frames while
// running, finds the octree leaf that contains the body, and says so when the solver builds no tree.
#include "BodyInspector.hpp"

#include <IdentityChecks.hpp>
#include <TestSupport.hpp>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

SimParams cpuParams(const std::string& solver) {
    SimParams params;
    params.backend = BackendKind::Cpu;
    params.solver = solver;
    params.timeStep = 0.02;
    return params;
}

TEST(BodyInspector, FollowsTheBodyByIdThroughOrbReorders) {
    const std::uint64_t seed = test::freshSeed();
    SCOPED_TRACE(test::seedTrace(seed));
    const Bodies original = test::bodiesWithIdentities(1200, seed);
    SimParams params = cpuParams("tree");
    params.orb.domainCount = 6;
    params.orb.rebuildInterval = 2;
    Simulation simulation(params, Snapshot{original});
    BodyInspector inspector;
    inspector.track(original.id[42]);
    inspector.update(simulation);
    ASSERT_TRUE(inspector.reading().body.has_value());
    for (int frame = 0; frame < 6; ++frame) {
        simulation.step(1);
        inspector.update(simulation);
    }
    const InspectorReading& reading = inspector.reading();
    ASSERT_TRUE(reading.body.has_value()) << reading.error;
    EXPECT_EQ(reading.body->identity.id, original.id[42]);
    EXPECT_EQ(reading.body->mass, original.mass[42]) << "masses are distinct: this is the body picked";
    EXPECT_EQ(reading.step, 6u) << "read every third frame: frames 3 and 6";
    const Bodies now = test::bodiesOf(simulation);
    EXPECT_EQ(now.id[reading.body->index], original.id[42]);
    ASSERT_TRUE(reading.body->orbDomain.has_value());
    EXPECT_LT(*reading.body->orbDomain, 6u);
}

TEST(BodyInspector, ReadsAtMostEveryFewFramesUnlessStale) {
    Simulation simulation(cpuParams("direct"), Snapshot{test::bodiesWithIdentities(300, 5)});
    const std::uint64_t id = test::bodiesOf(simulation).id[7];
    BodyInspector inspector;
    inspector.track(id);
    inspector.update(simulation);
    EXPECT_EQ(inspector.reading().step, 0u);
    simulation.step(1);
    inspector.update(simulation); // one frame after the reading: not due
    EXPECT_EQ(inspector.reading().step, 0u);
    inspector.markStale();
    inspector.update(simulation);
    EXPECT_EQ(inspector.reading().step, 1u);
    EXPECT_FALSE(inspector.reading().solverBuildsTree);
    EXPECT_FALSE(inspector.reading().leaf.has_value());
}

// A reversal while paused takes no step, yet every velocity changes sign: the inspector reads again at once.
TEST(BodyInspector, ReadsAgainWhenTimeIsReversed) {
    Simulation simulation(cpuParams("direct"), Snapshot{test::bodiesWithIdentities(300, 5)});
    const Bodies before = test::bodiesOf(simulation);
    BodyInspector inspector;
    inspector.track(before.id[7]);
    inspector.update(simulation);
    ASSERT_TRUE(inspector.reading().body.has_value());
    EXPECT_EQ(inspector.reading().body->velocity[0], before.vx[7]);
    simulation.reverseTime();
    inspector.update(simulation); // the very next frame, no step taken
    ASSERT_TRUE(inspector.reading().body.has_value());
    EXPECT_EQ(inspector.reading().body->velocity[0], -before.vx[7]);
    EXPECT_EQ(inspector.reading().timeDirection, -1);
}

TEST(BodyInspector, TheLeafContainsTheBody) {
    const std::uint64_t seed = test::freshSeed();
    SCOPED_TRACE(test::seedTrace(seed));
    Simulation simulation(cpuParams("tree"), Snapshot{test::bodiesWithIdentities(5000, seed)});
    simulation.step(1); // the tree of the last force evaluation describes the current positions
    const Bodies now = test::bodiesOf(simulation);
    BodyInspector inspector;
    inspector.track(now.id[1234]);
    inspector.update(simulation);
    const InspectorReading& reading = inspector.reading();
    ASSERT_TRUE(reading.solverBuildsTree);
    ASSERT_TRUE(reading.leaf.has_value());
    const TreeCellBox& leaf = *reading.leaf;
    const float position[3] = {now.x[1234], now.y[1234], now.z[1234]};
    const float centre[3] = {leaf.centerX, leaf.centerY, leaf.centerZ};
    for (int axis = 0; axis < 3; ++axis)
        EXPECT_LE(std::abs(position[axis] - centre[axis]), leaf.halfSize * (1.0f + 1e-6f)) << "axis " << axis;
    // 5000 bodies in a ball of radius 1: a leaf of a few bodies is several levels down, far smaller than the root.
    EXPECT_GE(leaf.depth, 3);
}

TEST(BodyInspector, AnIdThatIsGoneGivesAnEmptyReading) {
    Simulation simulation(cpuParams("direct"), Snapshot{test::bodiesWithIdentities(100, 9)});
    BodyInspector inspector;
    inspector.track(3); // the test bodies' ids are random 63-bit numbers
    inspector.update(simulation);
    EXPECT_FALSE(inspector.reading().body.has_value());
    EXPECT_TRUE(inspector.reading().error.empty());
    inspector.track(std::nullopt);
    inspector.update(simulation);
    EXPECT_FALSE(inspector.reading().body.has_value());
}

} // namespace
} // namespace gravlab
