// Wireframe boxes: the per-box buffer and the instanced line draw.
#include <gravlab/EmbeddedShaders.hpp>
#include <gravlab/render/WireBoxes.hpp>

#include <algorithm>
#include <cstddef>
#include <string>

namespace gravlab {

namespace {

constexpr GLsizei kVerticesPerBox = 24; ///< 12 edges, 2 ends each

} // namespace

WireBox cubeBox(const glm::vec3& centre, float halfSize, const glm::vec4& color) {
    return {{centre.x - halfSize, centre.y - halfSize, centre.z - halfSize},
            {centre.x + halfSize, centre.y + halfSize, centre.z + halfSize},
            {color.r, color.g, color.b, color.a}};
}

WireBoxList::WireBoxList(std::size_t initialCapacity) {
    reserve(std::max<std::size_t>(initialCapacity, 1));
}

void WireBoxList::reserve(std::size_t capacity) {
    if (capacity <= m_capacity)
        return;
    GlBuffer buffer = createBuffer();
    glNamedBufferStorage(buffer.id(), static_cast<GLsizeiptr>(capacity * sizeof(WireBox)), nullptr,
                         GL_DYNAMIC_STORAGE_BIT);
    const std::string operation = "allocating the wireframe box buffer for " + std::to_string(capacity) + " boxes";
    throwOnGlError(operation.c_str());
    m_buffer = std::move(buffer);
    m_capacity = capacity;
    m_size = 0;
}

void WireBoxList::upload(std::span<const WireBox> boxes) {
    m_size = 0;
    if (boxes.empty())
        return;
    // Grow geometrically so a depth range widened one level at a time does not reallocate at every level.
    if (boxes.size() > m_capacity)
        reserve(std::max(boxes.size(), 2 * m_capacity));
    glNamedBufferSubData(m_buffer.id(), 0, static_cast<GLsizeiptr>(boxes.size_bytes()), boxes.data());
    m_size = boxes.size();
}

WireBoxRenderer::WireBoxRenderer()
    : m_program("wire_boxes", {{"wire_boxes.vert", GL_VERTEX_SHADER, shaders::wire_boxes_vert},
                               {"wire_boxes.frag", GL_FRAGMENT_SHADER, shaders::wire_boxes_frag}}),
      m_viewProjectionLocation(m_program.uniformLocation("u_viewProjection")),
      m_opacityLocation(m_program.uniformLocation("u_opacity")),
      m_dashLengthLocation(m_program.uniformLocation("u_cutEdgeDashLength")), m_vertexArray(createVertexArray()) {
    // Per instance, from binding 0: location 0 = lower corner, 1 = upper corner, 2 = RGBA, 3 = cut-face mask.
    const GLuint vertexArray = m_vertexArray.id();
    const GLuint offsets[3] = {static_cast<GLuint>(offsetof(WireBox, lower)),
                               static_cast<GLuint>(offsetof(WireBox, upper)),
                               static_cast<GLuint>(offsetof(WireBox, color))};
    const GLint sizes[3] = {3, 3, 4};
    for (GLuint location = 0; location < 3; ++location) {
        glEnableVertexArrayAttrib(vertexArray, location);
        glVertexArrayAttribFormat(vertexArray, location, sizes[location], GL_FLOAT, GL_FALSE, offsets[location]);
        glVertexArrayAttribBinding(vertexArray, location, 0);
    }
    glEnableVertexArrayAttrib(vertexArray, 3);
    glVertexArrayAttribIFormat(vertexArray, 3, 1, GL_UNSIGNED_INT, static_cast<GLuint>(offsetof(WireBox, cutFaces)));
    glVertexArrayAttribBinding(vertexArray, 3, 0);
    glVertexArrayBindingDivisor(vertexArray, 0, 1);
}

void WireBoxRenderer::draw(const WireBoxList& list, const glm::mat4& viewProjection, float opacity,
                           float cutEdgeDashLength) const {
    if (list.size() == 0)
        return;
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    // Colour blends by alpha; the target's alpha stays as the tone mapper wrote it (opaque), so PNGs stay opaque.
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    m_program.setUniform(m_viewProjectionLocation, viewProjection);
    m_program.setUniform(m_opacityLocation, opacity);
    m_program.setUniform(m_dashLengthLocation, cutEdgeDashLength);
    m_program.use();
    glBindVertexArray(m_vertexArray.id());
    glVertexArrayVertexBuffer(m_vertexArray.id(), 0, list.buffer(), 0, sizeof(WireBox));
    glDrawArraysInstanced(GL_LINES, 0, kVerticesPerBox, static_cast<GLsizei>(list.size()));
    glBindVertexArray(0);
}

} // namespace gravlab
