#pragma once
// The window panel: screenshot, UI scale and fullscreen, with the name of the last screenshot written.
//
// Design note: display and edit only, like the other panels; the viewer takes the screenshot after the frame's UI is
// drawn (so the PNG shows the panels), applies the scale from the next frame and switches fullscreen between frames.
// The panel sits collapsed at the bottom centre of the window at first: it is wanted rarely, and a projector user needs
// the scale slider, so it must be findable without covering the bodies.
#include <filesystem>
#include <optional>
#include <string>

namespace gravlab {

struct WindowPanelView {
    float uiScale = 1.0f;
    bool fullscreen = false;
    std::filesystem::path screenshotFolder;
    std::string screenshotMessage; ///< the last screenshot's file, or why it failed
    bool screenshotFailed = false;
};

struct WindowPanelRequests {
    bool screenshot = false;
    std::optional<float> uiScale;
    std::optional<bool> fullscreen;
};

WindowPanelRequests drawWindowPanel(const WindowPanelView& view);

} // namespace gravlab
