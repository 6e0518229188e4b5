// Instanced wireframe cubes of octree cells, blended over the frame.
#include "TreeOverlayRenderer.hpp"

#include <algorithm>
#include <cstddef>
#include <gravlab/EmbeddedShaders.hpp>
#include <string>

namespace gravlab {

namespace {

constexpr GLsizei kVerticesPerCell = 24; ///< 12 edges, 2 ends each

} // namespace

TreeOverlayRenderer::TreeOverlayRenderer(std::size_t initialCapacity)
    : m_program("tree_cells", {{"tree_cells.vert", GL_VERTEX_SHADER, shaders::tree_cells_vert},
                               {"tree_cells.frag", GL_FRAGMENT_SHADER, shaders::tree_cells_frag}}),
      m_viewProjectionLocation(m_program.uniformLocation("u_viewProjection")),
      m_depthSpanLocation(m_program.uniformLocation("u_depthSpan")),
      m_opacityLocation(m_program.uniformLocation("u_opacity")),
      m_highlightLocation(m_program.uniformLocation("u_highlight")), m_vertexArray(createVertexArray()),
      m_markerBuffer(createBuffer()) {
    // Per instance, from binding 0: location 0 = (centre, halfSize) as vec4, location 1 = depth as int.
    const GLuint vertexArray = m_vertexArray.id();
    glEnableVertexArrayAttrib(vertexArray, 0);
    glVertexArrayAttribFormat(vertexArray, 0, 4, GL_FLOAT, GL_FALSE,
                              static_cast<GLuint>(offsetof(TreeCellBox, centerX)));
    glVertexArrayAttribBinding(vertexArray, 0, 0);
    glEnableVertexArrayAttrib(vertexArray, 1);
    glVertexArrayAttribIFormat(vertexArray, 1, 1, GL_INT, static_cast<GLuint>(offsetof(TreeCellBox, depth)));
    glVertexArrayAttribBinding(vertexArray, 1, 0);
    glVertexArrayBindingDivisor(vertexArray, 0, 1);
    glNamedBufferStorage(m_markerBuffer.id(), sizeof(TreeCellBox), nullptr, GL_DYNAMIC_STORAGE_BIT);
    reserve(std::max<std::size_t>(initialCapacity, 1));
}

void TreeOverlayRenderer::reserve(std::size_t capacity) {
    if (capacity <= m_capacity)
        return;
    GlBuffer buffer = createBuffer();
    glNamedBufferStorage(buffer.id(), static_cast<GLsizeiptr>(capacity * sizeof(TreeCellBox)), nullptr,
                         GL_DYNAMIC_STORAGE_BIT);
    const std::string operation = "allocating the tree overlay buffer for " + std::to_string(capacity) + " cells";
    throwOnGlError(operation.c_str());
    m_cellBuffer = std::move(buffer);
    m_capacity = capacity;
    m_cellCount = 0;
}

void TreeOverlayRenderer::upload(std::span<const TreeCellBox> cells) {
    m_cellCount = 0;
    if (cells.empty())
        return;
    // Grow geometrically so a depth range widened one level at a time does not reallocate at every level.
    if (cells.size() > m_capacity)
        reserve(std::max(cells.size(), 2 * m_capacity));
    glNamedBufferSubData(m_cellBuffer.id(), 0, static_cast<GLsizeiptr>(cells.size_bytes()), cells.data());
    m_cellCount = cells.size();
    const auto [shallowest, deepest] = std::minmax_element(
        cells.begin(), cells.end(), [](const TreeCellBox& a, const TreeCellBox& b) { return a.depth < b.depth; });
    m_shallowestDepth = shallowest->depth;
    m_deepestDepth = deepest->depth;
}

void TreeOverlayRenderer::setMarker(const std::optional<TreeCellBox>& marker) {
    m_hasMarker = marker.has_value();
    if (marker)
        glNamedBufferSubData(m_markerBuffer.id(), 0, sizeof(TreeCellBox), &*marker);
}

void TreeOverlayRenderer::draw(const glm::mat4& viewProjection, const TreeOverlayStyle& style) const {
    if (m_cellCount == 0 && !m_hasMarker)
        return;
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    // Colour blends by alpha; the target's alpha stays as the tone mapper wrote it (opaque), so PNGs stay opaque.
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    m_program.setUniform(m_viewProjectionLocation, viewProjection);
    m_program.setUniform(m_depthSpanLocation,
                         glm::vec2(static_cast<float>(m_shallowestDepth), static_cast<float>(m_deepestDepth)));
    m_program.setUniform(m_opacityLocation, style.opacity);
    m_program.use();
    glBindVertexArray(m_vertexArray.id());
    if (m_cellCount > 0) {
        m_program.setUniform(m_highlightLocation, 0);
        glVertexArrayVertexBuffer(m_vertexArray.id(), 0, m_cellBuffer.id(), 0, sizeof(TreeCellBox));
        glDrawArraysInstanced(GL_LINES, 0, kVerticesPerCell, static_cast<GLsizei>(m_cellCount));
    }
    if (m_hasMarker) {
        m_program.setUniform(m_highlightLocation, 1);
        glVertexArrayVertexBuffer(m_vertexArray.id(), 0, m_markerBuffer.id(), 0, sizeof(TreeCellBox));
        glDrawArraysInstanced(GL_LINES, 0, kVerticesPerCell, 1);
    }
    glBindVertexArray(0);
}

} // namespace gravlab
