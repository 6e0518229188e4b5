#pragma once
// ORB cells as wireframe boxes: each domain's box in the colour of its bodies, inner cells optionally as faint white.
//
// Design note: ORB cells (sim/Orb.hpp) are axis-aligned boxes that tile their parent; the leaves, numbered left to
// right, are the domains. A leaf is drawn in paletteColor(DomainHues, orbDomainColorScalar(domain)), the colour the
// particle shader gives that domain's bodies, so box and bodies read as one. Inner cells share every face with their
// descendants, so they add only the hierarchy's outlines: they are optional, white and faint (kInnerCellAlpha), and
// drawn before the leaves so that a leaf's colour wins where edges coincide. Boxes go through the shared
// WireBoxRenderer (after tone mapping, alpha-blended; see WireBoxes.hpp); the opacity is applied at draw time.
#include "WireBoxes.hpp"

#include <Orb.hpp>
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace gravlab {

struct OrbOverlayStyle {
    float opacity = 0.85f; ///< alpha of the domains' edges, in [0, 1]; inner cells get kInnerCellAlpha of it
};

/// The colour of domain domain's box: its bodies' palette colour, alpha 1 (scaled by the overlay's opacity).
glm::vec4 orbDomainBoxColor(std::uint32_t domain);

class OrbOverlayRenderer {
public:
    /// Inner cells' alpha relative to the overlay's opacity: visible where no leaf edge lies, never louder.
    static constexpr float kInnerCellAlpha = 0.3f;

    explicit OrbOverlayRenderer(std::size_t initialCapacity = 64);

    /// Replaces the drawn boxes with cells' leaves and, when includeInnerCells, their inner cells.
    void upload(std::span<const OrbCell> cells, bool includeInnerCells);

    std::size_t boxCount() const { return m_boxes.size(); }
    std::size_t domainCount() const { return m_domainCount; }

    void draw(const WireBoxRenderer& boxes, const glm::mat4& viewProjection, const OrbOverlayStyle& style) const;

private:
    WireBoxList m_boxes;
    std::vector<WireBox> m_staging; ///< reused between uploads
    std::size_t m_domainCount = 0;
};

} // namespace gravlab
