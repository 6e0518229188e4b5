// Snapshots while running: due at every multiple of K steps (step 0 included) however many steps a frame takes, each
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
    SessionSettings settings;
    settings.stepsPerFrame = 3; // does not divide the interval: frames must be split at steps 5 and 10
    settings.autoRefreshEnergy = false;
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

TEST(SnapshotSaver, AFailedWritePausesAndNamesTheFile) {
    test::TemporaryFolder folder;
    const std::filesystem::path notAFolder = folder.path() / "taken";
    std::ofstream(notAFolder) << "a file where the snapshot folder should be";
    SessionSettings settings;
    settings.autoRefreshEnergy = false;
    settings.saving = {.everySteps = 2, .folder = notAFolder, .format = SnapshotFormat::Hdf5};
    test::CountedSession session(smallDirectRun(), settings);
    const FrameAdvance advance = session.controller.advanceFrame();
    ASSERT_TRUE(advance.saveFailure.has_value());
    EXPECT_NE(advance.saveFailure->find("taken"), std::string::npos) << *advance.saveFailure;
    EXPECT_TRUE(session.controller.paused());
    EXPECT_FALSE(advance.stepped);
    EXPECT_EQ(session.simulation.stepCount(), 0u);
}

} // namespace
} // namespace gravlab
