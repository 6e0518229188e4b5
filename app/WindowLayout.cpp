// Panel clamping and the default UI scale.
#include "WindowLayout.hpp"

#include <algorithm>
#include <cmath>

namespace gravlab {

glm::vec2 clampPanelPosition(const glm::vec2& position, const glm::vec2& size, const glm::vec2& displaySize) {
    glm::vec2 clamped = position;
    for (int axis = 0; axis < 2; ++axis) {
        const float room = displaySize[axis] - size[axis]; // the largest top-left coordinate that keeps it inside
        clamped[axis] = std::max(0.0f, std::min(position[axis], room));
    }
    return clamped;
}

float uiScaleForContentScale(float contentScaleX, float contentScaleY) {
    const float scale = std::max(contentScaleX, contentScaleY);
    if (!std::isfinite(scale) || scale <= 0.0f)
        return 1.0f;
    return std::clamp(scale, kMinUiScale, kMaxUiScale);
}

} // namespace gravlab
