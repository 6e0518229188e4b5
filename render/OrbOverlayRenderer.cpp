// ORB cells coloured by domain, as wireframe boxes.
#include "OrbOverlayRenderer.hpp"

#include "ColorPalettes.hpp"

namespace gravlab {

namespace {

WireBox boxOf(const OrbCell& cell, const glm::vec4& color) {
    return {{cell.lower[0], cell.lower[1], cell.lower[2]},
            {cell.upper[0], cell.upper[1], cell.upper[2]},
            {color.r, color.g, color.b, color.a}};
}

} // namespace

glm::vec4 orbDomainBoxColor(std::uint32_t domain) {
    return glm::vec4(paletteColor(BodyPalette::DomainHues, orbDomainColorScalar(domain)), 1.0f);
}

OrbOverlayRenderer::OrbOverlayRenderer(std::size_t initialCapacity) : m_boxes(initialCapacity) {}

void OrbOverlayRenderer::upload(std::span<const OrbCell> cells, bool includeInnerCells) {
    m_staging.clear();
    m_domainCount = 0;
    if (includeInnerCells)
        for (const OrbCell& cell : cells)
            if (!cell.isLeaf())
                m_staging.push_back(boxOf(cell, glm::vec4(1.0f, 1.0f, 1.0f, kInnerCellAlpha)));
    for (const OrbCell& cell : cells) {
        if (cell.isLeaf()) {
            m_staging.push_back(boxOf(cell, orbDomainBoxColor(cell.firstDomain)));
            ++m_domainCount;
        }
    }
    m_boxes.upload(m_staging);
}

void OrbOverlayRenderer::draw(const WireBoxRenderer& boxes, const glm::mat4& viewProjection,
                              const OrbOverlayStyle& style) const {
    boxes.draw(m_boxes, viewProjection, style.opacity);
}

} // namespace gravlab
