// The session controller on the CPU backend, without GL: what each action asks of the frame pipeline, the device
// probe and the O(N^2) diagnostics (counted, see SessionTestSupport.hpp), the ORB default rule, energy scheduling,
// the energy history against plain fp64 loops, and a non-finite step.
#include "SessionTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <EnergyReference.hpp>
#include <TestSupport.hpp>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <random>

namespace gravlab::test {
namespace {

std::uint64_t randomBodyCount(std::mt19937_64& random, std::uint64_t low, std::uint64_t high) {
    return std::uniform_int_distribution<std::uint64_t>(low, high)(random);
}

ParamsChange onlyForcesStale() {
    ParamsChange change;
    change.forcesStale = true;
    return change;
}

TEST(SessionController, StartsWithVerticesFedOneProbeAndOneEnergyEvaluation) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const CountedSession session(smallPlummer(seed, 200));
    EXPECT_EQ(session.counts(), (SessionCounts{1, 1, 1, 0, 0}))
        << "Simulation's eager E0 is the session's first sample; nothing is measured twice";
    ASSERT_EQ(session.controller.energyHistory().size(), 1u);
    EXPECT_EQ(session.controller.energyHistory().latest().relativeDrift, 0.0);
    EXPECT_EQ(session.sink.vertices.size(), 200u);
}

TEST(SessionController, ThetaEditRedrawsNothingAndProbesNothing) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    SimParams params = smallPlummer(seed, randomBodyCount(random, 64, 256));
    params.solver = "tree";
    params.openingAngle = 0.5;
    CountedSession session(params);
    session.controller.advanceFrame(); // a step: the octree exists and the overlays have something to show
    session.controller.setPaused(true);
    session.controller.advanceFrame();
    const SessionCounts before = session.counts();
    const Bodies bodiesBefore = session.bodies();
    const std::uint64_t stepsBefore = session.simulation.stepCount();

    params.openingAngle = std::uniform_real_distribution<double>(0.6, kOpeningAngleRange.max)(random);
    const ParamsChange change = session.controller.applyParams(params);
    EXPECT_EQ(change, onlyForcesStale()) << "theta matters at the next force evaluation only";
    session.controller.advanceFrame(); // paused: nothing may be refreshed on the edit's account either
    EXPECT_EQ(session.counts(), before) << "no device probe, no overlay invalidation, no vertex re-feed, no energy";
    EXPECT_EQ(session.simulation.params().openingAngle, params.openingAngle);
    EXPECT_EQ(session.simulation.stepCount(), stepsBefore) << "no re-initialisation";
    EXPECT_EQ(session.bodies().x, bodiesBefore.x);
    EXPECT_TRUE(session.controller.lastError().empty());

    // The counters do see a real change: the next step refreshes everything drawn.
    session.controller.setPaused(false);
    EXPECT_TRUE(session.controller.advanceFrame().stepped);
    const SessionCounts after = session.counts();
    EXPECT_EQ(after.vertexRefreshes, before.vertexRefreshes + 1);
    EXPECT_EQ(after.treeInvalidations, before.treeInvalidations + 1);
    EXPECT_EQ(after.orbInvalidations, before.orbInvalidations + 1);
}

TEST(SessionController, OnlyABackendEditProbesTheDeviceAgain) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    SimParams params = smallPlummer(seed, 128);
    CountedSession session(params);
    session.controller.advanceFrame();
    params.timeStep = 0.002;
    EXPECT_FALSE(session.controller.applyParams(params).any());
    EXPECT_EQ(session.probes, 1);

    const std::uint64_t steps = session.simulation.stepCount();
    const SessionCounts before = session.counts();
    params.backend = BackendKind::Auto;
    const ParamsChange change = session.controller.applyParams(params);
    EXPECT_TRUE(change.backendReplaced && change.backendChoiceMayHaveChanged);
    EXPECT_EQ(session.probes, 2);
    EXPECT_EQ(session.calls.backendsMade, 2);
    EXPECT_EQ(session.counts().treeInvalidations, before.treeInvalidations + 1);
    EXPECT_EQ(session.counts().orbInvalidations, before.orbInvalidations + 1);
    EXPECT_EQ(session.simulation.stepCount(), steps) << "the state moved to the new backend";
    session.controller.setPaused(true);
    session.controller.advanceFrame();
    EXPECT_EQ(session.counts().vertexRefreshes, before.vertexRefreshes + 1) << "a new backend's vertices are fed";
}

TEST(SessionController, ResetEvaluatesTheEnergyOnce) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const SimParams params = smallPlummer(seed, randomBodyCount(random, 64, 256));
    CountedSession session(params);
    for (int frame = 0; frame < 3; ++frame)
        session.controller.advanceFrame(); // the clock stands still: no measurement falls due
    const SessionCounts before = session.counts();

    session.controller.reset();
    EXPECT_EQ(session.calls.diagnostics, before.diagnostics + 1) << "one O(N^2) evaluation per reset";
    EXPECT_EQ(session.simulation.stepCount(), 0u);
    const EnergyHistory& history = session.controller.energyHistory();
    ASSERT_EQ(history.size(), 1u) << "a reset restarts the history";
    EXPECT_EQ(history.latest().simulationTime, 0.0);
    EXPECT_EQ(history.latest().relativeDrift, 0.0);
    // The sample is the scenario's energy: plain fp64 loops over the initial bodies agree to rounding (summation
    // order differs, ~1e-14 relative here); a float accumulation or a missing term would be off by 1e-7 or more.
    const EnergyFp64 reference = energyFp64(generateScenario("plummer", params.bodyCount, seed),
                                            params.gravitationalConstant, params.softeningLength);
    EXPECT_NEAR(history.latest().kineticEnergy, reference.kinetic, 1e-10 * reference.kinetic);
    EXPECT_NEAR(history.latest().potentialEnergy, reference.potential, 1e-10 * std::abs(reference.potential));

    EXPECT_EQ(session.counts().treeInvalidations, before.treeInvalidations + 1);
    EXPECT_EQ(session.counts().orbInvalidations, before.orbInvalidations + 1);
    session.controller.setPaused(true);
    session.controller.advanceFrame();
    EXPECT_EQ(session.counts().vertexRefreshes, before.vertexRefreshes + 1);
    EXPECT_EQ(session.sink.vertices[0].x, generateScenario("plummer", params.bodyCount, seed).x[0]);
}

TEST(SessionController, BodyCountEditReinitialisesAndFeedsTheNewBodiesAtOnce) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    SimParams params = smallPlummer(seed, randomBodyCount(random, 64, 128));
    CountedSession session(params);
    session.controller.advanceFrame();
    const SessionCounts before = session.counts();

    params.bodyCount = randomBodyCount(random, 129, 256);
    const ParamsChange change = session.controller.applyParams(params);
    EXPECT_TRUE(change.reinitialised && change.verticesNeedRefeed && change.treeOverlayInvalidated &&
                change.orbOverlayInvalidated);
    EXPECT_FALSE(change.backendReplaced || change.backendChoiceMayHaveChanged);
    const SessionCounts after = session.counts();
    EXPECT_EQ(after.vertexRefreshes, before.vertexRefreshes + 1) << "fed before the edit returns, not next frame";
    EXPECT_EQ(after.probes, before.probes);
    EXPECT_EQ(after.diagnostics, before.diagnostics + 1) << "the new E0, evaluated once";
    const Bodies expected = generateScenario("plummer", params.bodyCount, seed);
    ASSERT_EQ(session.sink.vertices.size(), params.bodyCount);
    for (std::size_t i = 0; i < expected.size(); ++i)
        ASSERT_EQ(session.sink.vertices[i].y, expected.y[i]) << "vertex " << i;
    EXPECT_EQ(session.simulation.stepCount(), 0u);
    ASSERT_EQ(session.controller.energyHistory().size(), 1u);
    EXPECT_EQ(session.controller.energyHistory().latest().simulationTime, 0.0);
}

TEST(SessionController, BodiesTheVertexBufferCannotHoldUndoTheEdit) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    SimParams params = smallPlummer(seed, 100);
    CountedSession session(params);
    session.sink.refuseAbove = 100;
    params.bodyCount = 400;
    const ParamsChange change = session.controller.applyParams(params);
    EXPECT_NE(session.controller.lastError().find("no room for 400 vertices"), std::string::npos)
        << session.controller.lastError();
    EXPECT_EQ(session.simulation.params().bodyCount, 100u);
    EXPECT_EQ(session.simulation.bodyCount(), 100u);
    EXPECT_TRUE(change.reinitialised) << "the undo re-initialised too: the caller refits its view";
    session.controller.advanceFrame();
    EXPECT_EQ(session.sink.vertices.size(), 100u) << "the previous bodies are drawn again";
}

TEST(SessionController, AskingForOrbColoursOrCellsSwitchesOrbOnWithTheDefaultCount) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    SimParams params = smallPlummer(seed, randomBodyCount(random, 2, 300));
    const auto expectedDomains = static_cast<std::uint32_t>(std::min<std::uint64_t>(64, params.bodyCount));
    CountedSession session(params);
    session.controller.setPaused(true);
    const SessionCounts before = session.counts();

    session.controller.setColorMode(ColorMode::OrbDomain);
    EXPECT_EQ(session.simulation.params().orb.domainCount, expectedDomains);
    EXPECT_EQ(session.simulation.visuals().orbStatus().domainCount, expectedDomains) << "partitioned at once";
    EXPECT_EQ(session.controller.colorMode(), ColorMode::OrbDomain);
    EXPECT_EQ(session.counts().orbInvalidations, before.orbInvalidations + 1);
    session.controller.advanceFrame();
    EXPECT_EQ(session.counts().vertexRefreshes, before.vertexRefreshes + 1);
    EXPECT_EQ(session.counts().probes, before.probes);

    // Off again, then the cells asked for: the same default.
    session.controller.setColorMode(ColorMode::Component);
    params = session.simulation.params();
    params.orb.domainCount = 0;
    session.controller.applyParams(params);
    session.controller.showOrbDomains();
    EXPECT_EQ(session.simulation.params().orb.domainCount, expectedDomains);

    // A count the user chose is kept.
    params.orb.domainCount = 1;
    session.controller.applyParams(params);
    session.controller.showOrbDomains();
    session.controller.setColorMode(ColorMode::OrbDomain);
    EXPECT_EQ(session.simulation.params().orb.domainCount, 1u);
    EXPECT_TRUE(session.controller.lastError().empty()) << session.controller.lastError();
}

TEST(SessionController, LoweringTheBodyCountBelowTheDomainCountClampsTheDomains) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    SimParams params = smallPlummer(seed, 200);
    params.orb.domainCount = 64;
    CountedSession session(params);
    params.bodyCount = randomBodyCount(random, 1, 63);
    session.controller.applyParams(params);
    EXPECT_TRUE(session.controller.lastError().empty()) << session.controller.lastError();
    EXPECT_EQ(session.simulation.bodyCount(), params.bodyCount);
    EXPECT_EQ(session.simulation.params().orb.domainCount, params.bodyCount);
}

TEST(SessionController, EnergyHistoryKeepsTheLastMeasurementsInOrderAgainstFp64) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const SimParams params = smallPlummer(seed, randomBodyCount(random, 64, 160));
    const std::size_t capacity = std::uniform_int_distribution<std::size_t>(2, 5)(random);
    SessionSettings settings = withoutPlots();
    settings.energyHistoryCapacity = capacity;
    settings.autoRefreshEnergy = false;
    settings.stepsPerFrame = 3;
    CountedSession session(params, settings);
    const EnergyFp64 initial = energyFp64(session.bodies(), params.gravitationalConstant, params.softeningLength);

    struct Expected {
        double time;
        EnergyFp64 energy;
    };
    std::vector<Expected> expected;
    const std::size_t measurements = capacity + 3; // wraps the ring
    for (std::size_t k = 0; k < measurements; ++k) {
        session.controller.advanceFrame();
        session.controller.measureEnergyNow();
        expected.push_back({session.simulation.time(),
                            energyFp64(session.bodies(), params.gravitationalConstant, params.softeningLength)});
    }
    const EnergyHistory& history = session.controller.energyHistory();
    ASSERT_EQ(history.size(), capacity);
    for (std::size_t j = 0; j < capacity; ++j) {
        SCOPED_TRACE("sample " + std::to_string(j));
        const Expected& want = expected[measurements - capacity + j];
        const EnergySample& got = history[j];
        EXPECT_EQ(got.simulationTime, want.time) << "the last K, oldest first";
        // Same floats, another summation order: agreement to rounding (see ResetEvaluatesTheEnergyOnce).
        EXPECT_NEAR(got.kineticEnergy, want.energy.kinetic, 1e-10 * want.energy.kinetic);
        EXPECT_NEAR(got.potentialEnergy, want.energy.potential, 1e-10 * std::abs(want.energy.potential));
        // The drift is a difference of two such energies over |E0|: rounding of ~1e-13 absolute at most, while the
        // leapfrog drift of these few steps is far larger than that, so a wrong baseline shows.
        const double drift = std::abs(want.energy.total() - initial.total()) / std::abs(initial.total());
        EXPECT_NEAR(got.relativeDrift, drift, 1e-10);
        EXPECT_GE(got.computeSeconds, 0.0);
    }
}

TEST(SessionController, AutomaticMeasurementsFollowTheClockAndStopWhenSlow) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CountedSession session(smallPlummer(seed, 128));
    const int start = session.calls.diagnostics;
    session.controller.advanceFrame();
    EXPECT_EQ(session.calls.diagnostics, start) << "not due: the clock has not moved";
    session.clockSeconds += SessionController::kEnergyRefreshSeconds;
    session.controller.advanceFrame();
    EXPECT_EQ(session.calls.diagnostics, start + 1) << "due while running and quick";
    EXPECT_EQ(session.controller.secondsSinceLastMeasurement(), 0.0);

    session.controller.setPaused(true);
    session.clockSeconds += 10 * SessionController::kEnergyRefreshSeconds;
    session.controller.advanceFrame();
    EXPECT_EQ(session.calls.diagnostics, start + 1) << "never while paused";

    session.controller.setPaused(false);
    session.calls.onDiagnostics = [&session] { session.clockSeconds += 0.5; }; // slower than the automatic limit
    session.controller.advanceFrame();
    EXPECT_EQ(session.calls.diagnostics, start + 2);
    EXPECT_EQ(session.controller.energyHistory().latest().computeSeconds, 0.5);
    session.clockSeconds += 10 * SessionController::kEnergyRefreshSeconds;
    session.controller.advanceFrame();
    EXPECT_EQ(session.calls.diagnostics, start + 2) << "too slow to measure without being asked";
    session.controller.measureEnergyNow();
    EXPECT_EQ(session.calls.diagnostics, start + 3) << "on request always";

    session.controller.setAutoRefreshEnergy(false);
    session.calls.onDiagnostics = nullptr;
    session.controller.measureEnergyNow(); // quick again
    session.clockSeconds += 10 * SessionController::kEnergyRefreshSeconds;
    session.controller.advanceFrame();
    EXPECT_EQ(session.calls.diagnostics, start + 4) << "auto refresh off";
}

TEST(SessionController, NewGravitationalConstantRetakesTheBaselineOnceAndRedrawsNothing) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    SimParams params = smallPlummer(seed, 128);
    CountedSession session(params);
    session.controller.advanceFrame();
    session.controller.setPaused(true);
    session.controller.advanceFrame();
    SessionCounts expected = session.counts();
    params.gravitationalConstant = 2.5;
    const ParamsChange change = session.controller.applyParams(params);
    EXPECT_TRUE(change.energyFunctionChanged && change.forcesStale);
    session.controller.advanceFrame();
    ++expected.diagnostics;
    EXPECT_EQ(session.counts(), expected) << "one evaluation for the new E0; nothing drawn changes";
    const EnergyHistory& history = session.controller.energyHistory();
    ASSERT_EQ(history.size(), 1u) << "drifts against the old E0 are not mixed with the new";
    EXPECT_EQ(history.latest().relativeDrift, 0.0);
    EXPECT_EQ(history.latest().kineticEnergy + history.latest().potentialEnergy, session.simulation.initialEnergy());
}

TEST(SessionController, NonFiniteStepPausesWithAMessageAndLosesNothing) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    SimParams params = smallPlummer(seed, 64);
    params.timeStep = 1.0; // the largest time step allowed
    params.softeningLength = 1e-5;
    CountedSession session(params);
    // Valid parameters cannot overflow a sane system (SimulationTest), so two of its bodies become 1e30 masses 1e-3
    // apart, whose pull overflows a float in the first step.
    Bodies extreme = generateScenario("plummer", params.bodyCount, seed);
    for (std::size_t i : {0u, 1u}) {
        extreme.x[i] = 1e-3f * float(i);
        extreme.y[i] = extreme.z[i] = 0;
        extreme.mass[i] = 1e30f;
    }
    session.simulation.backend().load(extreme);
    const SessionCounts before = session.counts();
    const std::size_t samplesBefore = session.controller.energyHistory().size();

    const FrameAdvance advance = session.controller.advanceFrame();
    ASSERT_TRUE(advance.nonFiniteState.has_value()) << "the step should have overflowed";
    EXPECT_FALSE(advance.stepped);
    EXPECT_TRUE(session.controller.paused());
    const std::string& message = session.controller.lastError();
    EXPECT_NE(message.find(*advance.nonFiniteState), std::string::npos) << message;
    EXPECT_NE(message.find("non-finite"), std::string::npos) << message;
    EXPECT_NE(message.find("Paused"), std::string::npos) << message;
    EXPECT_EQ(session.simulation.stepCount(), 0u);
    EXPECT_EQ(session.simulation.time(), 0.0);
    const Bodies after = session.bodies();
    EXPECT_EQ(after.x, extreme.x) << "the last finite state is kept";
    EXPECT_EQ(after.vx, extreme.vx);
    EXPECT_EQ(session.controller.energyHistory().size(), samplesBefore);
    EXPECT_EQ(session.counts(), before) << "nothing changed, so nothing is refreshed";

    session.controller.advanceFrame();
    EXPECT_EQ(session.simulation.stepCount(), 0u) << "paused: no further attempt";
    session.controller.stepOnce();
    EXPECT_NE(session.controller.lastError().find("Lower dt, then step again."), std::string::npos);
    EXPECT_EQ(session.bodies().x, extreme.x);
}

} // namespace
} // namespace gravlab::test
