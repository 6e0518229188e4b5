// Octree cells and the pick marker as coloured wireframe boxes.
#include <gravlab/render/TreeOverlayRenderer.hpp>

#include <algorithm>

namespace gravlab {

namespace {

constexpr float kDeepestAlphaScale = 0.4f;

glm::vec3 depthColor(float t) {
    const glm::vec3 shallow(0.30f, 1.00f, 0.45f);
    const glm::vec3 middle(1.00f, 0.90f, 0.25f);
    const glm::vec3 deep(1.00f, 0.30f, 0.85f);
    t = std::clamp(t, 0.0f, 1.0f);
    return t < 0.5f ? glm::mix(shallow, middle, 2.0f * t) : glm::mix(middle, deep, 2.0f * t - 1.0f);
}

} // namespace

glm::vec4 treeCellColor(int depth, int shallowest, int deepest) {
    const float span = static_cast<float>(std::max(deepest - shallowest, 1));
    const float t = std::clamp(static_cast<float>(depth - shallowest) / span, 0.0f, 1.0f);
    return glm::vec4(depthColor(t), glm::mix(1.0f, kDeepestAlphaScale, t));
}

TreeOverlayRenderer::TreeOverlayRenderer(std::size_t initialCapacity) : m_cells(initialCapacity), m_marker(1) {}

void TreeOverlayRenderer::upload(std::span<const TreeCellBox> cells) {
    m_staging.clear();
    if (!cells.empty()) {
        const auto [shallowest, deepest] = std::minmax_element(
            cells.begin(), cells.end(), [](const TreeCellBox& a, const TreeCellBox& b) { return a.depth < b.depth; });
        for (const TreeCellBox& cell : cells)
            m_staging.push_back(cubeBox({cell.centerX, cell.centerY, cell.centerZ}, cell.halfSize,
                                        treeCellColor(cell.depth, shallowest->depth, deepest->depth)));
    }
    m_cells.upload(m_staging);
}

void TreeOverlayRenderer::setMarker(const std::optional<TreeCellBox>& marker) {
    if (!marker) {
        m_marker.upload({});
        return;
    }
    const WireBox box = cubeBox({marker->centerX, marker->centerY, marker->centerZ}, marker->halfSize, glm::vec4(1.0f));
    m_marker.upload(std::span(&box, 1));
}

void TreeOverlayRenderer::draw(const WireBoxRenderer& boxes, const glm::mat4& viewProjection,
                               const TreeOverlayStyle& style) const {
    boxes.draw(m_cells, viewProjection, style.opacity);
    boxes.draw(m_marker, viewProjection, 1.0f); // the marker is always opaque white
}

} // namespace gravlab
