// Snapshots in a session: loading a file through the controller (a bad one leaves the run as it was), and snapshots
// while running: due at every multiple of K steps (step 0 included) however many steps a frame takes, each
// file holding the state of exactly that step, and a failed write pausing the session with the file named.
#include "SessionTestSupport.hpp"

#include <gravlab/sim/Snapshot.hpp>

#include <TestSupport.hpp>
#include <fstream>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

SimParams smallDirectRun() {
    SimParams params;
    params.scenario = "plummer";
    params.bodyCount = 200;
    params.backend = BackendKind::Cpu;
    params.solver = "direct";
    params.timeStep = 0.01;
    return params;
}

/// Headless-like settings: no energy measurements on a timer, so the tests count only what they cause.
SessionSettings withoutAutomaticEnergy() {
    SessionSettings settings;
    settings.autoRefreshEnergy = false;
    return settings;
}

TEST(SnapshotSaver, DueAtEveryMultipleOfTheIntervalOnce) {
    const SnapshotSaver saver(SnapshotSaving{.everySteps = 5});
    EXPECT_EQ(saver.stepsUntilDue(0), 0u);
    EXPECT_EQ(saver.stepsUntilDue(3), 2u);
    EXPECT_EQ(saver.stepsUntilDue(5), 0u);
    EXPECT_EQ(saver.stepsUntilDue(6), 4u);
    EXPECT_EQ(saver.fileFor(10).filename(), "snapshot_00000010.hdf5");
    EXPECT_FALSE(SnapshotSaver().enabled());
}

TEST(SnapshotSaver, FramesStopAtEachDueStepAndTheFileHoldsThatStep) {
    test::TemporaryFolder folder;
    SessionSettings settings = withoutAutomaticEnergy();
    settings.stepsPerFrame = 3; // does not divide the interval: frames must be split at steps 5 and 10
    settings.saving = {.everySteps = 5, .folder = folder.path() / "snaps", .format = SnapshotFormat::Csv};
    test::CountedSession session(smallDirectRun(), settings);
    for (int frame = 0; frame < 4; ++frame) {
        const FrameAdvance advance = session.controller.advanceFrame();
        ASSERT_FALSE(advance.saveFailure) << *advance.saveFailure;
    }
    EXPECT_EQ(session.simulation.stepCount(), 12u);
    EXPECT_EQ(session.controller.snapshotSaver().savedCount(), 3u);

    // The reference: an independent simulation stepped straight to each due step.
    Simulation reference(smallDirectRun());
    for (std::uint64_t step : {0u, 5u, 10u}) {
        SCOPED_TRACE("step " + std::to_string(step));
        reference.step(int(step - reference.stepCount()));
        const Snapshot expected = reference.snapshot();
        const Snapshot saved = readSnapshot(session.controller.snapshotSaver().fileFor(step));
        EXPECT_EQ(saved.bodies.x, expected.bodies.x);
        EXPECT_EQ(saved.bodies.vz, expected.bodies.vz);
        EXPECT_EQ(saved.bodies.id, expected.bodies.id);
    }
}

TEST(SnapshotSaver, ARankThatFollowsStopsAtTheSameStepsAndWritesNothing) {
    // The MPI ranks other than 0 read every due state with rank 0 (a collective read) and leave the file to it: the
    // same frames split at the same steps, counted, and no folder made.
    test::TemporaryFolder folder;
    SessionSettings settings = withoutAutomaticEnergy();
    settings.stepsPerFrame = 3;
    settings.saving = {
        .everySteps = 5, .folder = folder.path() / "snaps", .format = SnapshotFormat::Csv, .writeFiles = false};
    test::CountedSession session(smallDirectRun(), settings);
    for (int frame = 0; frame < 4; ++frame) {
        const FrameAdvance advance = session.controller.advanceFrame();
        EXPECT_FALSE(advance.savedSnapshot);
    }
    EXPECT_EQ(session.simulation.stepCount(), 12u);
    EXPECT_EQ(session.controller.snapshotSaver().savedCount(), 3u);
    EXPECT_FALSE(std::filesystem::exists(folder.path() / "snaps"));
}

TEST(SnapshotSaver, AFailedWritePausesAndNamesTheFile) {
    test::TemporaryFolder folder;
    const std::filesystem::path notAFolder = folder.path() / "taken";
    std::ofstream(notAFolder) << "a file where the snapshot folder should be";
    SessionSettings settings = withoutAutomaticEnergy();
    settings.saving = {.everySteps = 2, .folder = notAFolder, .format = SnapshotFormat::Hdf5};
    test::CountedSession session(smallDirectRun(), settings);
    const FrameAdvance advance = session.controller.advanceFrame();
    ASSERT_TRUE(advance.saveFailure.has_value());
    EXPECT_NE(advance.saveFailure->find("taken"), std::string::npos) << *advance.saveFailure;
    EXPECT_TRUE(session.controller.paused());
    EXPECT_FALSE(advance.stepped);
    EXPECT_EQ(session.simulation.stepCount(), 0u);
}

TEST(SnapshotLoading, ABadFileLeavesTheRunningSimulationAndNamesTheFile) {
    test::TemporaryFolder folder;
    const std::filesystem::path bad = folder.path() / "broken.csv";
    std::ofstream(bad) << "x,y,z,vx,vy,vz,m\n1,2,3,4,5,6\n"; // six fields under a seven-column header
    SessionSettings settings = withoutAutomaticEnergy();
    test::CountedSession session(smallDirectRun(), settings);
    session.controller.advanceFrame();
    const Bodies before = session.bodies();
    SimParams load = session.simulation.params();
    load.initialFile = bad.string();
    const ParamsChange change = session.controller.applyParams(load);
    EXPECT_FALSE(change.reinitialised);
    EXPECT_NE(session.controller.lastError().find("broken.csv"), std::string::npos) << session.controller.lastError();
    EXPECT_NE(session.controller.lastError().find("line 2"), std::string::npos) << session.controller.lastError();
    EXPECT_EQ(session.simulation.params().initialFile, "");
    EXPECT_EQ(session.bodies().x, before.x);
    EXPECT_FALSE(session.controller.advanceFrame().nonFiniteState); // and it runs on
    EXPECT_GT(session.simulation.stepCount(), 1u);
}

TEST(SnapshotLoading, AGoodFileBecomesTheStateAndResetReturnsToIt) {
    test::TemporaryFolder folder;
    const std::filesystem::path good = folder.path() / "three.csv";
    std::ofstream(good) << "x,y,z,vx,vy,vz,m,id\n0,0,0,0,0,0,1,7\n1,0,0,0,1,0,0.001,8\n-2,0,0,0,-0.7,0,0.001,9\n";
    SessionSettings settings = withoutAutomaticEnergy();
    test::CountedSession session(smallDirectRun(), settings);
    SimParams load = session.simulation.params();
    load.initialFile = good.string();
    EXPECT_TRUE(session.controller.applyParams(load).reinitialised) << session.controller.lastError();
    EXPECT_EQ(session.simulation.bodyCount(), 3u);
    session.controller.advanceFrame();
    session.controller.advanceFrame();
    session.controller.reset();
    const Bodies state = session.bodies();
    EXPECT_EQ(state.id, (std::vector<std::uint64_t>{7, 8, 9}));
    EXPECT_EQ(state.x, (std::vector<float>{0.0f, 1.0f, -2.0f}));
    EXPECT_EQ(state.vy, (std::vector<float>{0.0f, 1.0f, -0.7f}));
}

} // namespace
} // namespace gravlab
