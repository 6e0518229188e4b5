#pragma once
// The record button of the simulation panel and the recording indicator drawn over the window.
//
// Design note: display only, like every panel: the button comes back as a request and the viewer toggles its
// WindowRecorder. The indicator goes on ImGui's foreground draw list, in the window's top right corner, so it stays
// visible when the panel is collapsed; ImGui draws after the recorder read the frame back, so it never shows in the
// movie.
#include <cstddef>
#include <string_view>

namespace gravlab {

struct RecordingView {
    bool recording = false;
    std::size_t frameCount = 0;   ///< frames in the movie being recorded
    std::string_view lastOutcome; ///< "recording ... to FILE", "saved N frames to FILE" or an error; may be empty
    bool lastOutcomeIsError = false;
};

/// The record / stop button (key M) and the recording's state; true when the button was pressed.
bool drawRecordingControls(const RecordingView& view);
/// While recording: a red dot with "REC" and the frame count in the window's top right corner, over everything.
void drawRecordingIndicator(const RecordingView& view);

} // namespace gravlab
