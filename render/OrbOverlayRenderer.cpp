// ORB cells coloured by domain, as wireframe boxes.
#include <gravlab/render/ColorPalettes.hpp>
#include <gravlab/render/OrbOverlayRenderer.hpp>

namespace gravlab {

namespace {

WireBox wireBoxOf(const ClippedBox& clipped, const glm::vec4& color) {
    const AxisBox& box = clipped.box;
    return {{box.lower.x, box.lower.y, box.lower.z},
            {box.upper.x, box.upper.y, box.upper.z},
            {color.r, color.g, color.b, color.a},
            clipped.cutFaces};
}

} // namespace

glm::vec4 orbDomainBoxColor(std::uint32_t domain) {
    return glm::vec4(paletteColor(BodyPalette::DomainHues, orbDomainColorScalar(domain)), 1.0f);
}

OrbOverlayRenderer::OrbOverlayRenderer(std::size_t initialCapacity) : m_boxes(initialCapacity) {}

void OrbOverlayRenderer::upload(std::span<const OrbCell> cells, bool includeInnerCells,
                                const std::optional<AxisBox>& region) {
    m_staging.clear();
    m_domainCount = 0;
    m_clippedBoxCount = 0;
    m_skippedBoxCount = 0;
    m_dashLength = region ? (region->upper.x - region->lower.x) / (2.0f * kDashesPerRegion) : 0.0f;
    const auto add = [&](const OrbCell& cell, const glm::vec4& color) {
        const AxisBox box{{cell.lower[0], cell.lower[1], cell.lower[2]}, {cell.upper[0], cell.upper[1], cell.upper[2]}};
        const std::optional<ClippedBox> clipped = region ? clipBoxToRegion(box, *region) : ClippedBox{box, 0};
        if (!clipped) {
            ++m_skippedBoxCount;
            return;
        }
        m_clippedBoxCount += clipped->cutFaces != 0 ? 1 : 0;
        m_staging.push_back(wireBoxOf(*clipped, color));
    };
    if (includeInnerCells)
        for (const OrbCell& cell : cells)
            if (!cell.isLeaf())
                add(cell, glm::vec4(1.0f, 1.0f, 1.0f, kInnerCellAlpha));
    for (const OrbCell& cell : cells) {
        if (cell.isLeaf()) {
            add(cell, orbDomainBoxColor(cell.firstDomain));
            ++m_domainCount;
        }
    }
    m_boxes.upload(m_staging);
}

void OrbOverlayRenderer::draw(const WireBoxRenderer& boxes, const glm::mat4& viewProjection,
                              const OrbOverlayStyle& style) const {
    boxes.draw(m_boxes, viewProjection, style.opacity, m_dashLength);
}

} // namespace gravlab
