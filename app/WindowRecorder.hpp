#pragma once
// The window's movie recording: the record button or key M starts and stops it; while it runs, every frame the window
// draws becomes one frame of an MP4 in the output folder.
//
// Design note: the recording uses the headless movie path (MovieCodec's encoder choice, MovieEncoder's ffmpeg child
// and atomic file). A frame is read back from the default framebuffer right after the scene is drawn and before ImGui
// draws on top, so the movie shows the simulation without the panels or the recording indicator. The movie's size
// is the framebuffer's when the recording starts (odd sides padded by ffmpeg); an MP4 stream has one size, so a
// window resized while recording ends the movie at that frame, saying so; a minimised window (zero size) adds no
// frames. Each drawn frame is one movie frame played at --fps, so the movie runs at the simulation's pace, not the
// wall clock's. Writing is synchronous: when ffmpeg falls behind, the window slows to its pace rather than dropping
// frames or piling them up in memory. Nothing here ends the viewer: a missing ffmpeg, an unusable folder, an encoder
// that does not work or an ffmpeg that dies ends the recording with a message for the panel and the log. stop()
// completes a recording when the window closes; destroying the recorder unfinished (a throw on the way) kills
// ffmpeg and leaves no file. It owns a GL object (the read-back buffer), so the GL context must outlive it.
#include "output/MovieEncoder.hpp"
#include "panels/RecordingControls.hpp"

#include <gravlab/render/FramebufferReadback.hpp>
#include <gravlab/render/SceneRenderer.hpp>

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

namespace gravlab {

struct RecordingSettings {
    std::filesystem::path folder = "gravlab_frames"; ///< where the movies go (--out), created when missing
    double framesPerSecond = 30;                     ///< playback rate (--fps)
    std::optional<std::string> encoder;              ///< ffmpeg's encoder (--movie-encoder); none: chosen
};

class WindowRecorder {
public:
    /// Outcomes (a recording started, saved or failed) are also written to log, one line each.
    WindowRecorder(RecordingSettings settings, std::ostream& log);

    /// Starts recording frames of width x height pixels, or stops and completes the movie when recording.
    void toggle(int width, int height);
    /// While recording: reads source (the window's default framebuffer, 0, at its size in pixels) into the movie.
    /// Call after the scene is drawn and before the UI.
    void captureFrame(const RenderTarget& source);
    /// Completes a recording in progress (the window is closing).
    void stop();

    /// What the panel shows: the file and frames of the recording, or the last outcome.
    RecordingView view() const;

private:
    void start(int width, int height);
    /// Completes the movie; why, when not empty, is appended to the outcome (" (the window changed size ...)").
    void complete(const std::string& why);
    /// Ends the recording with an error for the panel; the movie is discarded.
    void fail(const std::string& message);
    void report(std::string message, bool isError);

    RecordingSettings m_settings;
    std::ostream& m_log;
    FramebufferReadback m_readback;
    std::optional<MovieEncoder> m_movie;
    std::string m_lastOutcome;
    bool m_lastOutcomeIsError = false;
};

} // namespace gravlab
