#pragma once
// Mouse gestures to orbit-camera motion: left drag rotates, right or middle drag pans, the wheel zooms.
//
// Design note: this knows nothing of GLFW or ImGui; the viewer passes in the pointer state it polled and whether the
// UI wants the mouse this frame. A drag that starts over the UI never moves the camera, even when it leaves the
// panel, so dragging a slider past the panel's edge does not also spin the scene.
#include <gravlab/render/OrbitCamera.hpp>

#include <optional>

namespace gravlab {

struct PointerState {
    double x = 0; ///< cursor position in window coordinates (pixels, y down)
    double y = 0;
    bool rotateHeld = false; ///< left button
    bool panHeld = false;    ///< right or middle button
};

class CameraInput {
public:
    /// Applies the motion since the previous call; windowHeight converts pixels to view angles and pan distances.
    void onPointer(const PointerState& pointer, bool uiWantsMouse, float windowHeight, OrbitCamera& camera);
    /// steps: wheel clicks, positive away from the user (zoom in).
    void onScroll(double steps, bool uiWantsMouse, OrbitCamera& camera);

    /// A drag across the full window height turns the view by this angle.
    static constexpr float kRadiansPerWindowHeight = 3.0f;

private:
    std::optional<PointerState> m_previous;
    bool m_dragOwnedByUi = false;
};

} // namespace gravlab
