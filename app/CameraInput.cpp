// Mouse drags and wheel steps applied to the orbit camera.
#include "CameraInput.hpp"

namespace gravlab {

void CameraInput::onPointer(const PointerState& pointer, bool uiWantsMouse, float windowHeight, OrbitCamera& camera) {
    const bool dragging = pointer.rotateHeld || pointer.panHeld;
    const bool wasDragging = m_previous && (m_previous->rotateHeld || m_previous->panHeld);
    if (dragging && !wasDragging)
        m_dragOwnedByUi = uiWantsMouse;
    if (dragging && wasDragging && !m_dragOwnedByUi && windowHeight > 0) {
        const auto dx = static_cast<float>(pointer.x - m_previous->x);
        const auto dy = static_cast<float>(pointer.y - m_previous->y);
        if (pointer.rotateHeld) {
            const float radiansPerPixel = kRadiansPerWindowHeight / windowHeight;
            // Dragging right turns the scene right (the eye left); dragging down tips the scene towards the viewer.
            camera.orbit(-dx * radiansPerPixel, dy * radiansPerPixel);
        } else {
            camera.panByPixels(dx, dy, windowHeight);
        }
    }
    m_previous = pointer;
}

void CameraInput::onScroll(double steps, bool uiWantsMouse, OrbitCamera& camera) {
    if (!uiWantsMouse)
        camera.zoom(static_cast<float>(steps));
}

} // namespace gravlab
