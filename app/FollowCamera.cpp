// Keeps the orbit camera's target on the followed body; everything else about the camera stays the user's.
#include "FollowCamera.hpp"

namespace gravlab {

void FollowCamera::update(OrbitCamera& camera, const std::optional<BodyPosition>& bodyPosition) {
    if (!m_enabled)
        return;
    if (!bodyPosition) {
        m_enabled = false;
        return;
    }
    camera.setTarget({(*bodyPosition)[0], (*bodyPosition)[1], (*bodyPosition)[2]});
}

} // namespace gravlab
