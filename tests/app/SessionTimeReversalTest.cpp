// Time reversal as the window's V key and Reverse button reach it: SessionController::reverseTime() on a running
// session on the CPU backend.
//
// Design note: the reference is the scenario's initial bodies (generateScenario, independent of the session), matched
// by id. The bound is the one tests/sim/TimeReversalTest.cpp derives and measures for fp32 leapfrog round trips; this
// run is shorter and smaller, so it is generous here. The reversal must also cost nothing outside the simulation: no
// O(N^2) energy, no vertex refresh, no overlay invalidation (positions do not move at the moment of reversal).
#include "SessionTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <TestSupport.hpp>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <unordered_map>

namespace gravlab::test {
namespace {

constexpr int kReversalFrames = 60;
constexpr double kPositionBound = 1e-5;

TEST(SessionTimeReversal, RunningBackRetracesTheRunAndTheClock) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    SimParams params;
    params.scenario = "plummer";
    params.bodyCount = 300;
    params.seed = seed;
    params.backend = BackendKind::Cpu;
    params.solver = "direct";
    CountedSession session(params);
    const Bodies initial = generateScenario("plummer", 300, seed);

    for (int frame = 0; frame < kReversalFrames; ++frame)
        ASSERT_TRUE(session.controller.advanceFrame().stepped);
    EXPECT_NEAR(session.simulation.time(), kReversalFrames * params.timeStep, 1e-12);

    session.controller.setPaused(true);
    session.controller.advanceFrame(); // pushes the stale vertices of the last step
    const SessionCounts beforeReversal = session.counts();
    session.controller.reverseTime();
    session.controller.advanceFrame();
    EXPECT_EQ(session.counts(), beforeReversal) << "a reversal moves nothing that is drawn and measures nothing";
    EXPECT_EQ(session.simulation.timeDirection(), -1);

    session.controller.setPaused(false);
    for (int frame = 0; frame < kReversalFrames; ++frame)
        ASSERT_TRUE(session.controller.advanceFrame().stepped);
    EXPECT_NEAR(session.simulation.time(), 0.0, 1e-12);

    const Bodies back = session.bodies();
    ASSERT_EQ(back.size(), initial.size());
    std::unordered_map<std::uint64_t, std::size_t> initialIndex;
    for (std::size_t i = 0; i < initial.size(); ++i)
        initialIndex.emplace(initial.id[i], i);
    double largestError = 0;
    for (std::size_t j = 0; j < back.size(); ++j) {
        const std::size_t i = initialIndex.at(back.id[j]);
        largestError =
            std::max({largestError, std::abs(double(back.x[j]) - initial.x[i]),
                      std::abs(double(back.y[j]) - initial.y[i]), std::abs(double(back.z[j]) - initial.z[i])});
        // Still reversed: the velocities are the initial ones negated.
        EXPECT_NEAR(back.vx[j], -initial.vx[i], kPositionBound);
    }
    EXPECT_LT(largestError, kPositionBound);

    // The drawn vertices follow the bodies back.
    ASSERT_EQ(session.sink.vertices.size(), back.size());
    for (std::size_t j = 0; j < back.size(); ++j)
        ASSERT_EQ(session.sink.vertices[j].x, back.x[j]);
}

} // namespace
} // namespace gravlab::test
