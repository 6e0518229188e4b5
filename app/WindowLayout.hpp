#pragma once
// The arithmetic of window ergonomics, GL-free and tested: keeping a panel inside the display, and the UI scale.
//
// Design note: after the window shrinks (a resize, leaving fullscreen, a projector of lower resolution) panels placed
// for the larger size would sit partly or wholly outside it, out of reach of the mouse. Each frame every panel is
// moved back just far enough to lie inside the display; a panel larger than the display keeps its title bar (top
// left corner) on screen, since that is where it is dragged and collapsed. The UI scale multiplies ImGui's font size
// and style metrics; its default is the monitor's content scale (GLFW's DPI ratio: 2 on most high-DPI laptop screens),
// kept within the slider's range.
#include <glm/glm.hpp>

namespace gravlab {

inline constexpr float kMinUiScale = 0.5f;
inline constexpr float kMaxUiScale = 4.0f;

/// Top-left corner for a panel of size at position in a display of displaySize (all in pixels, y down) so that it lies
/// inside the display; when it is larger than the display along an axis, its top-left corner goes to 0 there.
glm::vec2 clampPanelPosition(const glm::vec2& position, const glm::vec2& size, const glm::vec2& displaySize);

/// The UI scale for a monitor of this content scale (the larger axis), within [kMinUiScale, kMaxUiScale]; 1 when the
/// scale is not a positive number (no monitor reported).
float uiScaleForContentScale(float contentScaleX, float contentScaleY);

} // namespace gravlab
