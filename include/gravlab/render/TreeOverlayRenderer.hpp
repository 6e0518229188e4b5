#pragma once
// Octree cells as wireframe cubes over the tone-mapped frame, plus an optional marker box around a picked body.
//
// Design note: the cells, exactly as backends return them (centre, half size, depth), become WireBoxes coloured by
// depth here, and are drawn through the shared WireBoxRenderer (see WireBoxes.hpp for why the edges are blended after
// tone mapping). Colour runs over the depths present (shallowest green, through yellow, deepest magenta), so a narrow
// depth range still uses the whole palette, and the deepest cells get 0.4 of the opacity so that the bodies inside
// them stay visible. The opacity is applied at draw time, so the panel's slider needs no re-upload. The marker is a
// second one-box list drawn in opaque white.
#include <gravlab/render/WireBoxes.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <cstddef>
#include <glm/glm.hpp>
#include <optional>
#include <span>
#include <vector>

namespace gravlab {

struct TreeOverlayStyle {
    float opacity = 0.55f; ///< alpha of the shallowest cells' edges, in [0, 1]; the deepest get 0.4 of it
};

/// Colour (alpha relative to the overlay's opacity) of a cell at depth, among drawn cells spanning depths
/// shallowest..deepest.
glm::vec4 treeCellColor(int depth, int shallowest, int deepest);

class TreeOverlayRenderer {
public:
    explicit TreeOverlayRenderer(std::size_t initialCapacity = 256);

    /// Replaces the drawn cells with these (growing the buffer when needed); an empty span draws no cells.
    void upload(std::span<const TreeCellBox> cells);
    /// The box drawn in the highlight colour around a picked body, or none.
    void setMarker(const std::optional<TreeCellBox>& marker);

    std::size_t cellCount() const { return m_cells.size(); }
    bool hasMarker() const { return m_marker.size() > 0; }

    /// Blends the cell edges, then the marker, over the bound framebuffer; viewProjection = projection * view.
    void draw(const WireBoxRenderer& boxes, const glm::mat4& viewProjection, const TreeOverlayStyle& style) const;

private:
    WireBoxList m_cells;
    WireBoxList m_marker;
    std::vector<WireBox> m_staging; ///< reused between uploads
};

} // namespace gravlab
