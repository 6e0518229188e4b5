// Orbit camera state changes and its view/projection matrices.
#include <gravlab/render/OrbitCamera.hpp>

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace gravlab {

namespace {

constexpr glm::vec3 kWorldUp{0.0f, 0.0f, 1.0f};

} // namespace

void OrbitCamera::orbit(float deltaYaw, float deltaPitch) {
    setAngles(m_yaw + deltaYaw, m_pitch + deltaPitch);
}

void OrbitCamera::setAngles(float yaw, float pitch) {
    m_yaw = std::remainder(yaw, glm::two_pi<float>());
    m_pitch = std::clamp(pitch, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::setDistance(float distance) {
    m_distance = std::clamp(distance, kMinDistance, kMaxDistance);
}

void OrbitCamera::setVerticalFieldOfView(float verticalFieldOfView) {
    m_verticalFieldOfView =
        std::clamp(verticalFieldOfView, glm::radians(kMinFieldOfViewDegrees), glm::radians(kMaxFieldOfViewDegrees));
}

void OrbitCamera::panByPixels(float dx, float dy, float viewportHeight) {
    const glm::vec3 forward = glm::normalize(m_target - eyePosition());
    const glm::vec3 right = glm::normalize(glm::cross(forward, kWorldUp));
    const glm::vec3 up = glm::cross(right, forward);
    // World length of one pixel at the target's depth.
    const float worldPerPixel = 2.0f * m_distance * std::tan(0.5f * m_verticalFieldOfView) / viewportHeight;
    m_target += (-dx * right + dy * up) * worldPerPixel;
}

void OrbitCamera::zoom(float steps) {
    setDistance(m_distance * std::exp(-kZoomPerStep * steps));
}

void OrbitCamera::fit(const SceneBounds& bounds, float aspect) {
    const float halfVertical = 0.5f * m_verticalFieldOfView;
    const float halfHorizontal = std::atan(std::tan(halfVertical) * aspect);
    const float halfNarrowest = std::min(halfVertical, halfHorizontal);
    m_target = bounds.centre;
    setDistance(kFitMargin * bounds.radius / std::sin(halfNarrowest));
}

glm::vec3 OrbitCamera::eyePosition() const {
    const float cosPitch = std::cos(m_pitch);
    return m_target + m_distance * glm::vec3(cosPitch * std::cos(m_yaw), cosPitch * std::sin(m_yaw), std::sin(m_pitch));
}

glm::mat4 OrbitCamera::viewMatrix() const {
    return glm::lookAt(eyePosition(), m_target, kWorldUp);
}

glm::mat4 OrbitCamera::projectionMatrix(float aspect) const {
    return glm::perspective(m_verticalFieldOfView, aspect, nearPlane(), farPlane());
}

} // namespace gravlab
