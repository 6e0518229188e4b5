// The window's recording, driven through an offscreen target in a headless EGL context (the window reads its default
// framebuffer the same way): toggled on and off it saves the frames drawn in between, at the padded size; a size change
// ends the movie with what was recorded; without ffmpeg the viewer keeps running and the panel's message says how to
// install it. Skips, saying why, without EGL or without ffmpeg.
#include "OutputTestSupport.hpp"

#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/render/OffscreenTarget.hpp>

#include <OutputFolder.hpp>
#include <TestSupport.hpp>
#include <WindowRecorder.hpp>
#include <ctime>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <output/ChildProcess.hpp>
#include <sstream>

namespace gravlab::test {
namespace {

class WindowRecorderTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!findOnPath("ffmpeg") || !findOnPath("ffprobe"))
            GTEST_SKIP() << "ffmpeg or ffprobe is not on PATH (apt-get install ffmpeg), so movies cannot be checked";
        try {
            m_context = std::make_unique<HeadlessContext>();
        } catch (const std::exception& error) {
            GTEST_SKIP() << "no headless EGL context: " << error.what();
        }
    }

    /// Fills target with one colour, as a drawn frame.
    static void drawFrame(const OffscreenTarget& target, float red) {
        const float colour[4] = {red, 0.3f, 0.6f, 1.0f};
        glClearNamedFramebufferfv(target.framebuffer(), GL_COLOR, 0, colour);
    }

    static RenderTarget source(const OffscreenTarget& target) {
        return {target.framebuffer(), target.width(), target.height()};
    }

    std::unique_ptr<HeadlessContext> m_context;
    TemporaryFolder m_folder;
    std::ostringstream m_log;
};

TEST_F(WindowRecorderTest, SavesTheFramesDrawnWhileRecordingAtThePaddedSize) {
    const std::filesystem::path movies = m_folder.path() / "recordings";
    WindowRecorder recorder({movies, 25, std::string("libx264")}, m_log);
    const OffscreenTarget target(65, 47);

    drawFrame(target, 0.1f);
    recorder.captureFrame(source(target)); // not recording yet: no frame
    recorder.toggle(target.width(), target.height());
    ASSERT_TRUE(recorder.view().recording) << recorder.view().lastOutcome;
    constexpr int kFrames = 6;
    for (int i = 0; i < kFrames; ++i) {
        drawFrame(target, 0.1f + 0.1f * static_cast<float>(i));
        recorder.captureFrame(source(target));
    }
    EXPECT_EQ(recorder.view().frameCount, static_cast<std::size_t>(kFrames));
    recorder.toggle(target.width(), target.height());
    recorder.captureFrame(source(target)); // stopped: no frame

    const RecordingView view = recorder.view();
    EXPECT_FALSE(view.recording);
    EXPECT_FALSE(view.lastOutcomeIsError) << view.lastOutcome;
    const std::vector<std::string> files = folderEntries(movies);
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0].rfind("gravlab_", 0), 0u) << files[0];
    EXPECT_NE(std::string(view.lastOutcome).find("saved 6 frames to " + (movies / files[0]).string()),
              std::string::npos)
        << view.lastOutcome;
    EXPECT_EQ(probeMovie(movies / files[0]), std::optional<std::string>("66,48,6"));
}

TEST_F(WindowRecorderTest, AWindowThatChangesSizeEndsTheMovieWithTheFramesBefore) {
    WindowRecorder recorder({m_folder.path(), 30, std::string("libx264")}, m_log);
    const OffscreenTarget before(64, 48), after(80, 48);
    recorder.toggle(before.width(), before.height());
    for (int i = 0; i < 3; ++i) {
        drawFrame(before, 0.5f);
        recorder.captureFrame(source(before));
    }
    drawFrame(after, 0.5f);
    recorder.captureFrame(source(after));

    const RecordingView view = recorder.view();
    EXPECT_FALSE(view.recording);
    EXPECT_NE(std::string(view.lastOutcome).find("changed size from 64x48 to 80x48"), std::string::npos)
        << view.lastOutcome;
    const std::vector<std::string> files = folderEntries(m_folder.path());
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(probeMovie(m_folder.path() / files[0]), std::optional<std::string>("64,48,3"));
}

TEST_F(WindowRecorderTest, WithoutFfmpegTheRecordingDoesNotStartAndSaysHowToInstallIt) {
    const std::filesystem::path emptyBin = m_folder.path() / "bin";
    std::filesystem::create_directories(emptyBin);
    const ScopedPath path(emptyBin.string());
    WindowRecorder recorder({m_folder.path() / "recordings", 30, std::nullopt}, m_log);
    recorder.toggle(64, 48);
    const RecordingView view = recorder.view();
    EXPECT_FALSE(view.recording);
    EXPECT_TRUE(view.lastOutcomeIsError);
    EXPECT_NE(std::string(view.lastOutcome).find("apt-get install ffmpeg"), std::string::npos) << view.lastOutcome;
    EXPECT_NE(m_log.str().find("apt-get install ffmpeg"), std::string::npos) << m_log.str();
}

TEST(RecordingFileName, IsDatedAndNeverReusesAName) {
    const TemporaryFolder folder;
    std::tm moment{};
    moment.tm_year = 2025 - 1900;
    moment.tm_mon = 2;
    moment.tm_mday = 14;
    moment.tm_hour = 9;
    moment.tm_min = 30;
    moment.tm_sec = 5;
    moment.tm_isdst = -1;
    const std::time_t time = std::mktime(&moment); // local time, as the name shows it
    const std::filesystem::path first = recordingFileName(folder.path(), time);
    EXPECT_EQ(first, folder.path() / "gravlab_20250314_093005.mp4");
    std::ofstream(first) << "taken";
    EXPECT_EQ(recordingFileName(folder.path(), time), folder.path() / "gravlab_20250314_093005_2.mp4");
}

} // namespace
} // namespace gravlab::test
