#pragma once
// A camera that orbits a target point: yaw and pitch around it, pan moves it, zoom changes the distance to it.
//
// Design note: the state is (target, distance, yaw, pitch, vertical field of view); the eye sits at
//   target + distance * (cos(pitch) cos(yaw), cos(pitch) sin(yaw), sin(pitch))
// with +z as world up, so disks that the scenarios lay in the xy plane are seen from above at positive pitch. Pitch
// stays inside +-89 degrees so the view never flips over the pole. Near and far planes scale with the distance,
// which keeps depth precision usable from a star cluster to a whole merger.
#include <gravlab/render/SceneBounds.hpp>

#include <glm/glm.hpp>

namespace gravlab {

class OrbitCamera {
public:
    /// Turns around the target; radians. Positive yaw turns the eye counter-clockwise seen from +z.
    void orbit(float deltaYaw, float deltaPitch);
    /// Moves the target in the view plane so the scene follows a cursor moved by (dx, dy) pixels (y down) in a
    /// viewport viewportHeight pixels tall.
    void panByPixels(float dx, float dy, float viewportHeight);
    /// Multiplies the distance by exp(-kZoomPerStep * steps): positive steps (wheel up) move closer.
    void zoom(float steps);
    /// Looks at bounds.centre from a distance at which a sphere of bounds.radius fills the viewport's narrower side
    /// with a small margin. aspect = width / height.
    void fit(const SceneBounds& bounds, float aspect);

    void setTarget(const glm::vec3& target) { m_target = target; }
    void setDistance(float distance);
    void setAngles(float yaw, float pitch);
    /// radians, kept within [kMinFieldOfViewDegrees, kMaxFieldOfViewDegrees].
    void setVerticalFieldOfView(float verticalFieldOfView);

    const glm::vec3& target() const { return m_target; }
    float distance() const { return m_distance; }
    float yaw() const { return m_yaw; }
    float pitch() const { return m_pitch; }
    float verticalFieldOfView() const { return m_verticalFieldOfView; }
    glm::vec3 eyePosition() const;

    glm::mat4 viewMatrix() const;
    glm::mat4 projectionMatrix(float aspect) const;
    float nearPlane() const { return m_distance * 1e-3f; }
    float farPlane() const { return m_distance * 1e3f; }

    static constexpr float kZoomPerStep = 0.1f;
    static constexpr float kMinDistance = 1e-4f;
    static constexpr float kMaxDistance = 1e6f;
    static constexpr float kMaxPitch = glm::radians(89.0f);
    static constexpr float kFitMargin = 1.1f;
    /// Field of view limits: from a narrow, telescope-like view to a wide one short of 180 degrees, where the
    /// projection degenerates.
    static constexpr float kMinFieldOfViewDegrees = 1.0f;
    static constexpr float kMaxFieldOfViewDegrees = 170.0f;

private:
    glm::vec3 m_target{0.0f};
    float m_distance = 10.0f;            ///< N-body length units
    float m_yaw = glm::radians(-90.0f);  ///< radians; -90 degrees puts the eye on the -y side
    float m_pitch = glm::radians(30.0f); ///< radians above the xy plane
    float m_verticalFieldOfView = glm::radians(45.0f);
};

} // namespace gravlab
