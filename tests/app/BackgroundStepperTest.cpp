// Stepping on the worker thread, without GL, on the CPU backend: the main thread never waits for a slow step, edits
// queued while it runs apply after it in order, a failure on the worker pauses with its message, destruction joins
// mid-step, and frame after frame the states equal the synchronous controller's (advanceFrame) exactly.
#include "SessionTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <TestSupport.hpp>
#include <chrono>
#include <condition_variable>
#include <gtest/gtest.h>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <session/BackgroundStepper.hpp>
#include <stdexcept>
#include <thread>

namespace gravlab::test {
namespace {

using Clock = std::chrono::steady_clock;

/// A step that waits until the test opens the gate, and tells the test it has begun.
class StepGate {
public:
    void enter() {
        std::unique_lock lock(m_mutex);
        m_entered = true;
        m_changed.notify_all();
        m_changed.wait(lock, [this] { return m_open; });
    }
    void waitUntilEntered() {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return m_entered; });
    }
    void open() {
        const std::lock_guard lock(m_mutex);
        m_open = true;
        m_changed.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_entered = false;
    bool m_open = false;
};

SessionSettings quietSettings(int stepsPerFrame = 1) {
    SessionSettings settings;
    settings.stepsPerFrame = stepsPerFrame;
    settings.autoRefreshEnergy = false;
    return settings;
}

/// Polls until the step in flight has been completed (the worker is given the time it needs; the polls do not wait).
StepPoll pollUntilCompleted(BackgroundStepper& stepper) {
    stepper.waitForStep();
    return stepper.poll();
}

TEST(BackgroundStepper, MainThreadNeverWaitsWhileASlowStepRuns) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CountedSession session(smallPlummer(seed, 128), quietSettings());
    StepGate gate;
    session.calls.onStep = [&gate] { gate.enter(); };
    BackgroundStepper stepper(session.controller);
    ASSERT_TRUE(stepper.poll().idle);
    stepper.startNextStep();
    gate.waitUntilEntered(); // the worker is inside the step, which lasts until the gate opens
    // Were a poll to wait for the step, it would wait for this: the test then fails on the poll's time, not by hanging.
    std::thread watchdog([&gate] {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        gate.open();
    });

    // A display frame at 60 Hz is 16.7 ms; a poll takes microseconds, so 5 ms leaves room for a loaded machine while
    // any wait for the step (which never ends here) would show.
    constexpr double kMaxPollSeconds = 0.005;
    bool queuedActionRan = false;
    for (int frame = 0; frame < 50; ++frame) {
        const auto start = Clock::now();
        const StepPoll poll = stepper.poll();
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        EXPECT_LT(seconds, kMaxPollSeconds) << "frame " << frame;
        EXPECT_FALSE(poll.idle);
        EXPECT_FALSE(poll.completed);
        stepper.whenIdle([&queuedActionRan] { queuedActionRan = true; });
        stepper.startNextStep(); // what the window does each idle frame; must not start a second step
        EXPECT_EQ(stepper.status().stepCount, 0u) << "the panels show the state the drawn bodies came from";
    }
    EXPECT_FALSE(queuedActionRan) << "queued while the step runs: applied after it";
    EXPECT_TRUE(stepper.stepInFlight());
    gate.open();
    watchdog.join();
    const StepPoll completed = pollUntilCompleted(stepper);
    EXPECT_TRUE(completed.idle);
    ASSERT_TRUE(completed.completed.has_value());
    EXPECT_TRUE(completed.completed->stepped);
    EXPECT_TRUE(queuedActionRan);
    EXPECT_EQ(stepper.status().stepCount, 1u);
    EXPECT_EQ(session.simulation.stepCount(), 1u);
}

TEST(BackgroundStepper, EditsQueuedDuringAStepApplyAfterItInOrder) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const SimParams params = smallPlummer(seed, 96);
    CountedSession session(params, quietSettings());
    StepGate gate;
    session.calls.onStep = [&gate] { gate.enter(); };
    BackgroundStepper stepper(session.controller);
    stepper.poll();
    stepper.startNextStep();
    gate.waitUntilEntered();

    std::vector<double> appliedTimeSteps; // the order the edits ran in, and what each saw
    for (const double timeStep : {0.002, 0.003, 0.004}) {
        stepper.whenIdle([&, timeStep] {
            SimParams edited = session.simulation.params();
            edited.timeStep = timeStep;
            session.controller.applyParams(edited);
            appliedTimeSteps.push_back(session.simulation.params().timeStep);
        });
    }
    EXPECT_TRUE(appliedTimeSteps.empty());
    EXPECT_EQ(stepper.status().params.timeStep, params.timeStep);
    gate.open();
    ASSERT_TRUE(pollUntilCompleted(stepper).completed.has_value());
    EXPECT_EQ(appliedTimeSteps, (std::vector<double>{0.002, 0.003, 0.004}));
    EXPECT_EQ(stepper.status().params.timeStep, 0.004) << "the status is captured after the edits";

    // The step in flight finished with the dt it started with: one step of the old dt, as an independent simulation
    // stepped once with it has it, and the clock advanced by that dt.
    Simulation reference(params);
    reference.step(1);
    Bodies expected;
    reference.backend().readBodies(expected);
    EXPECT_EQ(session.bodies().x, expected.x);
    EXPECT_EQ(session.bodies().vz, expected.vz);
    EXPECT_DOUBLE_EQ(session.simulation.time(), params.timeStep);
}

TEST(BackgroundStepper, ExceptionOnTheWorkerPausesWithItsMessage) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CountedSession session(smallPlummer(seed, 64), quietSettings());
    session.calls.onStep = [] { throw std::runtime_error("the device fell off the bus"); };
    BackgroundStepper stepper(session.controller);
    stepper.poll();
    stepper.startNextStep();
    const StepPoll poll = pollUntilCompleted(stepper);
    EXPECT_TRUE(poll.idle);
    EXPECT_TRUE(session.controller.paused());
    EXPECT_NE(session.controller.lastError().find("the device fell off the bus"), std::string::npos)
        << session.controller.lastError();
    stepper.startNextStep();
    EXPECT_FALSE(stepper.stepInFlight()) << "paused: no further step is started";
    EXPECT_EQ(session.simulation.stepCount(), 0u);
}

TEST(BackgroundStepper, NonFiniteStepOnTheWorkerPausesAndKeepsTheState) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    SimParams params = smallPlummer(seed, 64);
    params.timeStep = 1.0;
    params.softeningLength = 1e-5;
    CountedSession session(params, quietSettings());
    // Two 1e30 masses 1e-3 apart overflow a float in the first step (as in SessionControllerTest).
    Bodies extreme = generateScenario("plummer", params.bodyCount, seed);
    for (std::size_t i : {0u, 1u}) {
        extreme.x[i] = 1e-3f * float(i);
        extreme.y[i] = extreme.z[i] = 0;
        extreme.mass[i] = 1e30f;
    }
    session.simulation.backend().load(extreme);
    BackgroundStepper stepper(session.controller);
    stepper.poll();
    stepper.startNextStep();
    const StepPoll poll = pollUntilCompleted(stepper);
    ASSERT_TRUE(poll.completed && poll.completed->nonFiniteState);
    EXPECT_TRUE(session.controller.paused());
    EXPECT_NE(session.controller.lastError().find("non-finite"), std::string::npos) << session.controller.lastError();
    EXPECT_EQ(session.bodies().x, extreme.x) << "the last finite state is kept";
}

TEST(BackgroundStepper, DestructionMidStepLetsTheStepFinishAndJoins) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CountedSession session(smallPlummer(seed, 64), quietSettings());
    StepGate gate;
    session.calls.onStep = [&gate] { gate.enter(); };
    auto stepper = std::make_unique<BackgroundStepper>(session.controller);
    stepper->poll();
    stepper->startNextStep();
    gate.waitUntilEntered();
    std::thread opener([&gate] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        gate.open();
    });
    stepper.reset(); // must wait for the step (the gate opens 50 ms later), not abandon or cut it
    opener.join();
    EXPECT_EQ(session.simulation.stepCount(), 1u) << "the step in flight finished before the worker was joined";
}

TEST(BackgroundStepper, ShortStepsGiveTheSynchronousStatesFrameAfterFrame) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const int stepsPerFrame = std::uniform_int_distribution<int>(1, 3)(random);
    const SimParams params = smallPlummer(seed, std::uniform_int_distribution<std::uint64_t>(64, 256)(random));
    CountedSession synchronous(params, quietSettings(stepsPerFrame));
    CountedSession background(params, quietSettings(stepsPerFrame));
    BackgroundStepper stepper(background.controller);
    constexpr int kFrames = 6;
    for (int frame = 0; frame < kFrames; ++frame) {
        synchronous.controller.advanceFrame();
        // A step shorter than a frame: each poll finds the previous one finished.
        stepper.waitForStep();
        ASSERT_TRUE(stepper.poll().idle);
        stepper.startNextStep();
    }
    ASSERT_TRUE(pollUntilCompleted(stepper).idle);
    EXPECT_EQ(background.simulation.stepCount(), std::uint64_t(kFrames * stepsPerFrame)) << "no frame skipped";
    EXPECT_EQ(background.simulation.stepCount(), synchronous.simulation.stepCount());
    EXPECT_EQ(background.simulation.time(), synchronous.simulation.time());
    const Bodies expected = synchronous.bodies();
    const Bodies actual = background.bodies();
    EXPECT_EQ(actual.x, expected.x);
    EXPECT_EQ(actual.y, expected.y);
    EXPECT_EQ(actual.z, expected.z);
    EXPECT_EQ(actual.vx, expected.vx);
    EXPECT_EQ(actual.vy, expected.vy);
    EXPECT_EQ(actual.vz, expected.vz);
    EXPECT_EQ(background.sink.vertices.size(), expected.size());
    EXPECT_EQ(background.sink.vertices.front().x, expected.x.front()) << "the last step's vertices were pushed";
    EXPECT_EQ(background.counts().vertexRefreshes, synchronous.counts().vertexRefreshes);
}

TEST(BackgroundStepper, SingleStepAndEnergyOnRequestRunOnTheWorker) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CountedSession session(smallPlummer(seed, 80), quietSettings());
    std::thread::id steppingThread;
    session.calls.onStep = [&steppingThread] { steppingThread = std::this_thread::get_id(); };
    std::thread::id measuringThread;
    session.calls.onDiagnostics = [&measuringThread] { measuringThread = std::this_thread::get_id(); };
    BackgroundStepper stepper(session.controller);
    stepper.poll();
    stepper.stepOnce();
    stepper.measureEnergySoon();
    const std::size_t samples = session.controller.energyHistory().size();
    stepper.startNextStep();
    ASSERT_TRUE(pollUntilCompleted(stepper).completed.has_value());
    EXPECT_TRUE(session.controller.paused());
    EXPECT_EQ(session.simulation.stepCount(), 1u);
    EXPECT_NE(steppingThread, std::this_thread::get_id());
    EXPECT_NE(measuringThread, std::this_thread::get_id());
    ASSERT_EQ(session.controller.energyHistory().size(), samples + 1);
    EXPECT_EQ(session.controller.energyHistory().latest().simulationTime, session.simulation.time());
    stepper.startNextStep();
    EXPECT_FALSE(stepper.stepInFlight()) << "paused after the single step";
}

} // namespace
} // namespace gravlab::test

namespace gravlab::test {
namespace {

// What a GL backend's step goes through (its context is current on the main thread only): the job runs on the
// caller's thread before runHere returns, and its completion, or what it threw, is taken once like a worker's.
TEST(StepWorker, RunHereRunsOnTheCallingThreadAndReportsLikeTheWorker) {
    StepWorker worker;
    std::thread::id ranOn;
    worker.runHere([&ranOn] { ranOn = std::this_thread::get_id(); });
    EXPECT_EQ(ranOn, std::this_thread::get_id());
    EXPECT_FALSE(worker.busy());
    std::optional<FinishedJob> finished = worker.takeFinished();
    ASSERT_TRUE(finished.has_value());
    EXPECT_FALSE(finished->failure);
    EXPECT_FALSE(worker.takeFinished().has_value());

    worker.runHere([] { throw std::runtime_error("step failed"); });
    EXPECT_THROW(worker.runHere([] {}), std::logic_error); // the failure was not taken yet
    finished = worker.takeFinished();
    ASSERT_TRUE(finished.has_value() && finished->failure);
    EXPECT_THROW(std::rethrow_exception(finished->failure), std::runtime_error);
    // The thread still takes jobs afterwards.
    std::thread::id workerThread;
    worker.start([&workerThread] { workerThread = std::this_thread::get_id(); });
    worker.waitUntilIdle();
    EXPECT_NE(workerThread, std::this_thread::get_id());
}

} // namespace
} // namespace gravlab::test
