// Median centre and quantile radius of a body cloud.
#include <gravlab/render/SceneBounds.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace gravlab {

namespace {

float quantileOf(std::vector<float>& values, float quantile) {
    const auto rank = static_cast<std::size_t>(std::ceil(quantile * static_cast<float>(values.size()))) - 1;
    const auto nth = values.begin() + static_cast<std::ptrdiff_t>(std::min(rank, values.size() - 1));
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

} // namespace

SceneBounds robustBounds(std::span<const RenderVertex> vertices, float radiusQuantile) {
    const std::size_t stride = std::max<std::size_t>(1, vertices.size() / kBoundsSampleCount);
    std::vector<glm::vec3> sample;
    sample.reserve(vertices.size() / stride + 1);
    for (std::size_t i = 0; i < vertices.size(); i += stride) {
        const RenderVertex& v = vertices[i];
        if (std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z))
            sample.emplace_back(v.x, v.y, v.z);
    }
    if (sample.empty())
        return SceneBounds{};

    SceneBounds bounds;
    std::vector<float> values(sample.size());
    for (int axis = 0; axis < 3; ++axis) {
        std::transform(sample.begin(), sample.end(), values.begin(), [axis](const glm::vec3& p) { return p[axis]; });
        bounds.centre[axis] = quantileOf(values, 0.5f);
    }
    std::transform(sample.begin(), sample.end(), values.begin(),
                   [&bounds](const glm::vec3& p) { return glm::length(p - bounds.centre); });
    // A single body, or all bodies at one point, still gets a viewable sphere.
    bounds.radius = std::max(quantileOf(values, std::clamp(radiusQuantile, 1e-3f, 1.0f)), 1e-3f);
    return bounds;
}

} // namespace gravlab
