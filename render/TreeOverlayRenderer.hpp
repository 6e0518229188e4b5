#pragma once
// Octree cells drawn as wireframe cubes over the tone-mapped frame, plus an optional marker box around a picked body.
//
// Design note: a cell is one instance of 24 line vertices (the cube's 12 edges); the vertex shader builds the corners
// from gl_VertexID, so the only buffer is the per-cell TreeCellBox array exactly as backends return it (centre, half
// size, depth: 20 bytes an instance). The edges are drawn after tone mapping, alpha-blended straight onto the target
// framebuffer: their colours stay what the palette says whatever the exposure, and they never add light to the HDR
// sum that the bodies' glow is judged by. Colour runs over the depths present (shallowest green, deepest magenta), so
// a narrow depth range still uses the whole palette, and the deepest cells are drawn at 0.4 of the opacity so that
// the bodies inside them stay visible. The marker is a second one-instance buffer drawn in opaque white.
#include "GlObjects.hpp"
#include "ShaderProgram.hpp"

#include <TreeView.hpp>
#include <cstddef>
#include <glm/glm.hpp>
#include <optional>
#include <span>

namespace gravlab {

struct TreeOverlayStyle {
    float opacity = 0.55f; ///< alpha of the shallowest cells' edges, in [0, 1]; the deepest get 0.4 of it
};

class TreeOverlayRenderer {
public:
    explicit TreeOverlayRenderer(std::size_t initialCapacity = 256);

    /// Replaces the drawn cells with these (growing the buffer when needed); an empty span draws no cells.
    void upload(std::span<const TreeCellBox> cells);
    /// The box drawn in the highlight colour around a picked body, or none.
    void setMarker(const std::optional<TreeCellBox>& marker);

    std::size_t cellCount() const { return m_cellCount; }
    bool hasMarker() const { return m_hasMarker; }

    /// Blends the cell edges and the marker over the bound framebuffer; viewProjection = projection * view.
    void draw(const glm::mat4& viewProjection, const TreeOverlayStyle& style) const;

private:
    void reserve(std::size_t capacity);

    ShaderProgram m_program;
    GLint m_viewProjectionLocation;
    GLint m_depthSpanLocation;
    GLint m_opacityLocation;
    GLint m_highlightLocation;
    GlVertexArray m_vertexArray;
    GlBuffer m_cellBuffer;
    GlBuffer m_markerBuffer;
    std::size_t m_capacity = 0;
    std::size_t m_cellCount = 0;
    bool m_hasMarker = false;
    int m_shallowestDepth = 0;
    int m_deepestDepth = 0;
};

} // namespace gravlab
