// Trails: the fading vertex colours, the growing vertex buffer and one line-strip draw per trail.
#include <gravlab/EmbeddedShaders.hpp>
#include <gravlab/render/TrailRenderer.hpp>

#include <algorithm>
#include <cstddef>
#include <string>

namespace gravlab {

namespace {

/// Vertices the buffer starts with: eight trails of a thousand samples, the viewer's usual load.
constexpr std::size_t kInitialVertexCapacity = 8192;

} // namespace

float trailVertexAlpha(std::size_t k, std::size_t count, float headAlpha) {
    return count == 0 ? 0.0f : headAlpha * float(k + 1) / float(count);
}

TrailRenderer::TrailRenderer()
    : m_program("trails", {{"trails.vert", GL_VERTEX_SHADER, shaders::trails_vert},
                           {"trails.frag", GL_FRAGMENT_SHADER, shaders::trails_frag}}),
      m_viewProjectionLocation(m_program.uniformLocation("u_viewProjection")), m_vertexArray(createVertexArray()) {
    // From binding 0: location 0 = position, 1 = straight RGBA.
    const GLuint vertexArray = m_vertexArray.id();
    glEnableVertexArrayAttrib(vertexArray, 0);
    glVertexArrayAttribFormat(vertexArray, 0, 3, GL_FLOAT, GL_FALSE, offsetof(TrailVertex, position));
    glVertexArrayAttribBinding(vertexArray, 0, 0);
    glEnableVertexArrayAttrib(vertexArray, 1);
    glVertexArrayAttribFormat(vertexArray, 1, 4, GL_FLOAT, GL_FALSE, offsetof(TrailVertex, color));
    glVertexArrayAttribBinding(vertexArray, 1, 0);
}

void TrailRenderer::upload(std::span<const TrailVertex> vertices) {
    if (vertices.size() > m_capacity) {
        const std::size_t capacity = std::max({vertices.size(), 2 * m_capacity, kInitialVertexCapacity});
        GlBuffer buffer = createBuffer();
        glNamedBufferStorage(buffer.id(), static_cast<GLsizeiptr>(capacity * sizeof(TrailVertex)), nullptr,
                             GL_DYNAMIC_STORAGE_BIT);
        const std::string operation = "allocating the trail buffer for " + std::to_string(capacity) + " vertices";
        throwOnGlError(operation.c_str());
        m_buffer = std::move(buffer);
        m_capacity = capacity;
    }
    glNamedBufferSubData(m_buffer.id(), 0, static_cast<GLsizeiptr>(vertices.size_bytes()), vertices.data());
}

void TrailRenderer::draw(std::span<const TrailStrip> strips, const glm::mat4& viewProjection) {
    m_vertices.clear();
    for (const TrailStrip& strip : strips) {
        const std::size_t count = strip.points.size() < 2 ? 0 : strip.points.size();
        for (std::size_t k = 0; k < count; ++k) {
            const BodyPosition& p = strip.points[k];
            m_vertices.push_back(
                {{p[0], p[1], p[2]},
                 {strip.color.r, strip.color.g, strip.color.b, trailVertexAlpha(k, count, strip.color.a)}});
        }
    }
    if (m_vertices.empty())
        return;
    upload(m_vertices);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
    m_program.setUniform(m_viewProjectionLocation, viewProjection);
    m_program.use();
    glBindVertexArray(m_vertexArray.id());
    glVertexArrayVertexBuffer(m_vertexArray.id(), 0, m_buffer.id(), 0, sizeof(TrailVertex));
    GLint first = 0;
    for (const TrailStrip& strip : strips) {
        if (strip.points.size() < 2)
            continue;
        glDrawArrays(GL_LINE_STRIP, first, static_cast<GLsizei>(strip.points.size()));
        first += static_cast<GLint>(strip.points.size());
    }
    glBindVertexArray(0);
}

} // namespace gravlab
