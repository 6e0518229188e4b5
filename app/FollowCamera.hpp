#pragma once
// Follow mode: the camera's target rides on one body while the user keeps orbiting, zooming and panning around it.
//
// Design note: following moves only the orbit camera's target, once per frame, to the body's current position; the
// distance, yaw, pitch and field of view stay the user's, so orbiting and zooming work as usual and the view does not
// jump when following starts. The body's position is looked up by id (SimulationBackend::bodyPositions), not by index:
// ORB reorders the bodies. Following stops by itself when the body is gone (new bodies) or nothing is picked, so a
// stale target never drags the camera. GL-free apart from OrbitCamera's maths, and tested as such.
#include <gravlab/render/OrbitCamera.hpp>
#include <gravlab/sim/BodyInspection.hpp>

#include <optional>

namespace gravlab {

class FollowCamera {
public:
    bool enabled() const { return m_enabled; }
    void setEnabled(bool enabled) { m_enabled = enabled; }
    void toggle() { m_enabled = !m_enabled; }
    /// While enabled, puts camera's target on bodyPosition; an empty position (no body) switches following off.
    void update(OrbitCamera& camera, const std::optional<BodyPosition>& bodyPosition);

private:
    bool m_enabled = false;
};

} // namespace gravlab
