// Whether the bodies are still in the headless camera's view, and whether a frame shows anything (see CameraWatch.hpp).
#include "CameraWatch.hpp"

#include <algorithm>
#include <cmath>

namespace gravlab {

float framedRadius(const OrbitCamera& camera, float aspect) {
    const float halfVertical = 0.5f * camera.verticalFieldOfView();
    const float halfNarrowest = std::min(halfVertical, std::atan(std::tan(halfVertical) * aspect));
    return camera.distance() * std::sin(halfNarrowest) / OrbitCamera::kFitMargin;
}

bool bulkLeftView(const OrbitCamera& camera, float aspect, const SceneBounds& bulk) {
    const glm::vec4 clip = camera.projectionMatrix(aspect) * camera.viewMatrix() * glm::vec4(bulk.centre, 1.0f);
    if (!(clip.w > 0.0f) || std::abs(clip.x) > clip.w || std::abs(clip.y) > clip.w)
        return true;
    const float framed = framedRadius(camera, aspect);
    return bulk.radius > kGrowthLimit * framed || bulk.radius * kShrinkLimit < framed;
}

bool hasLitPixel(const ImageRgba8& image) {
    const auto& pixels = image.pixels;
    for (std::size_t i = 0; i + 3 < pixels.size(); i += 4)
        if (std::max({pixels[i], pixels[i + 1], pixels[i + 2]}) > kLitThreshold)
            return true;
    return false;
}

} // namespace gravlab
