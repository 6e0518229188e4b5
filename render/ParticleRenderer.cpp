// The particle vertex buffer and its additive point-sprite draw.
#include <gravlab/EmbeddedShaders.hpp>
#include <gravlab/render/ParticleRenderer.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gravlab {

ParticleStyle particleStyleFor(std::size_t bodyCount, float sceneRadius) {
    const float count = static_cast<float>(std::max<std::size_t>(bodyCount, 1));
    ParticleStyle style;
    // Sprites a few times smaller than the mean spacing of N bodies in the sphere (radius / N^(1/3)): separate
    // stars at 1k, a continuous glow at 1M.
    style.spriteWorldSize = 0.35f * sceneRadius / std::cbrt(count);
    // Surface brightness is (bodies per area) x (sprite area) x brightness ~ N x N^(-2/3) x brightness, so
    // brightness ~ N^(-1/3) keeps the glow of a galaxy the same from 1k to 1M bodies; the constant puts a galactic
    // disk's mid-radius light around 1 before tone mapping.
    style.brightness = 4.0f / std::cbrt(count);
    return style;
}

float pixelsPerUnitAtUnitDepth(const ParticleView& view) {
    return 0.5f * view.viewportHeight / std::tan(0.5f * view.verticalFieldOfView);
}

ParticleRenderer::ParticleRenderer(std::size_t initialCapacity)
    : m_program("particles", {{"particles.vert", GL_VERTEX_SHADER, shaders::particles_vert},
                              {"particles.frag", GL_FRAGMENT_SHADER, shaders::particles_frag}}),
      m_viewLocation(m_program.uniformLocation("u_view")),
      m_projectionLocation(m_program.uniformLocation("u_projection")),
      m_pixelsPerUnitAtUnitDepthLocation(m_program.uniformLocation("u_pixelsPerUnitAtUnitDepth")),
      m_spriteWorldSizeLocation(m_program.uniformLocation("u_spriteWorldSize")),
      m_brightnessLocation(m_program.uniformLocation("u_brightness")),
      m_minPixelSizeLocation(m_program.uniformLocation("u_minPixelSize")),
      m_maxPixelSizeLocation(m_program.uniformLocation("u_maxPixelSize")),
      m_paletteLocation(m_program.uniformLocation("u_palette")), m_vertexArray(createVertexArray()) {
    // One vec4 attribute (x, y, z, colorScalar) at location 0, read from binding 0.
    glEnableVertexArrayAttrib(m_vertexArray.id(), 0);
    glVertexArrayAttribFormat(m_vertexArray.id(), 0, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(m_vertexArray.id(), 0, 0);
    reserve(std::max<std::size_t>(initialCapacity, 1));
}

void ParticleRenderer::reserve(std::size_t capacity) {
    if (capacity <= m_capacity)
        return;
    const std::size_t bytes = capacity * sizeof(RenderVertex);
    GlBuffer buffer = createBuffer();
    // Immutable storage the CPU path updates with glNamedBufferSubData and CUDA may write through interop.
    glNamedBufferStorage(buffer.id(), static_cast<GLsizeiptr>(bytes), nullptr, GL_DYNAMIC_STORAGE_BIT);
    const std::string operation = "allocating the vertex buffer for " + std::to_string(capacity) + " bodies (" +
                                  std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB)";
    throwOnGlError(operation.c_str());
    m_vertexBuffer = std::move(buffer);
    glVertexArrayVertexBuffer(m_vertexArray.id(), 0, m_vertexBuffer.id(), 0, sizeof(RenderVertex));
    m_capacity = capacity;
    m_vertexCount = 0;
    ++m_storageGeneration;
}

void ParticleRenderer::upload(std::span<const RenderVertex> vertices) {
    reserve(vertices.size());
    glNamedBufferSubData(m_vertexBuffer.id(), 0, static_cast<GLsizeiptr>(vertices.size_bytes()), vertices.data());
    m_vertexCount = vertices.size();
}

void ParticleRenderer::setVertexCount(std::size_t count) {
    if (count > m_capacity)
        throw std::out_of_range("cannot draw " + std::to_string(count) + " vertices from a buffer of " +
                                std::to_string(m_capacity));
    m_vertexCount = count;
}

void ParticleRenderer::draw(const ParticleView& view, const ParticleStyle& style, BodyPalette palette,
                            std::size_t stride) const {
    if (m_vertexCount == 0)
        return;
    stride = std::max<std::size_t>(stride, 1);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_ONE, GL_ONE);
    glEnable(GL_PROGRAM_POINT_SIZE);

    m_program.setUniform(m_viewLocation, view.view);
    m_program.setUniform(m_projectionLocation, view.projection);
    m_program.setUniform(m_pixelsPerUnitAtUnitDepthLocation, gravlab::pixelsPerUnitAtUnitDepth(view));
    m_program.setUniform(m_spriteWorldSizeLocation, style.spriteWorldSize);
    m_program.setUniform(m_brightnessLocation, style.brightness * static_cast<float>(stride));
    m_program.setUniform(m_minPixelSizeLocation, style.minPixelSize);
    m_program.setUniform(m_maxPixelSizeLocation, style.maxPixelSize);
    m_program.setUniform(m_paletteLocation, static_cast<int>(palette));
    m_program.use();
    glVertexArrayVertexBuffer(m_vertexArray.id(), 0, m_vertexBuffer.id(), 0,
                              static_cast<GLsizei>(stride * sizeof(RenderVertex)));
    glBindVertexArray(m_vertexArray.id());
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>((m_vertexCount + stride - 1) / stride));
    glBindVertexArray(0);
}

} // namespace gravlab
