#pragma once
// ORB cells as wireframe boxes: each domain's box in the colour of its bodies, inner cells optionally as faint white.
//
// Design note: ORB cells (include/gravlab/sim/Orb.hpp) are axis-aligned boxes that tile their parent; the leaves, numbered left to
// right, are the domains. A leaf is drawn in paletteColor(DomainHues, orbDomainColorScalar(domain)), the colour the
// particle shader gives that domain's bodies, so box and bodies read as one. Inner cells share every face with their
// descendants, so they add only the hierarchy's outlines: they are optional, white and faint (kInnerCellAlpha), and
// drawn before the leaves so that a leaf's colour wins where edges coincide. Boxes go through the shared
// WireBoxRenderer (after tone mapping, alpha-blended; see WireBoxes.hpp); the opacity is applied at draw time.
// Given a region of interest (BoxClipping.hpp: a few robust radii around the bodies), every box is clipped to it on
// upload: boxes outside it are skipped, and the faces the region cut off are drawn dashed and fainter, dashes of
// kDashesPerRegion-th of the region's side, so the outer domains, which reach every escaped body, no longer cross the
// image as long lines. The clip costs one pass over at most 2 x 1024 - 1 cells, only when the cells are uploaded.
#include <gravlab/render/BoxClipping.hpp>
#include <gravlab/render/WireBoxes.hpp>
#include <gravlab/sim/Orb.hpp>

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <optional>
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

    /// Dashes (and as many gaps) along one side of the region of interest, on the edges of cut faces.
    static constexpr float kDashesPerRegion = 48.0f;

    explicit OrbOverlayRenderer(std::size_t initialCapacity = 64);

    /// Replaces the drawn boxes with cells' leaves and, when includeInnerCells, their inner cells, each clipped to
    /// region when there is one (none: drawn whole).
    void upload(std::span<const OrbCell> cells, bool includeInnerCells,
                const std::optional<AxisBox>& region = std::nullopt);

    /// Boxes drawn (skipped ones not counted).
    std::size_t boxCount() const { return m_boxes.size(); }
    /// Leaves among the cells uploaded, drawn or not.
    std::size_t domainCount() const { return m_domainCount; }
    /// Drawn boxes that the region cut.
    std::size_t clippedBoxCount() const { return m_clippedBoxCount; }
    /// Boxes left out because they lie outside the region.
    std::size_t skippedBoxCount() const { return m_skippedBoxCount; }

    void draw(const WireBoxRenderer& boxes, const glm::mat4& viewProjection, const OrbOverlayStyle& style) const;

private:
    WireBoxList m_boxes;
    std::vector<WireBox> m_staging; ///< reused between uploads
    std::size_t m_domainCount = 0;
    std::size_t m_clippedBoxCount = 0;
    std::size_t m_skippedBoxCount = 0;
    float m_dashLength = 0.0f; ///< N-body length units; 0 without a region
};

} // namespace gravlab
