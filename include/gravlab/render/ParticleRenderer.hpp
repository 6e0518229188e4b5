#pragma once
// Bodies drawn as additive, soft, round point sprites from a GL vertex buffer of RenderVertex.
//
// Design note: the vertex buffer holds RenderVertex (x, y, z, colorScalar; 16 bytes) exactly as the simulation
// writes it, so the CPU path uploads a host array and the CUDA path can write the same buffer in place through
// CUDA-GL interop (register vertexBuffer(); re-register whenever storageGeneration() changes, because growing the
// capacity replaces the buffer). A sprite's size is a world size projected with perspective, so bodies near the
// camera look larger; sprites below minPixelSize are drawn at that size and dimmed by the area ratio, which keeps a
// distant body's total light instead of letting it flicker between zero and one pixel. Light adds up (no depth
// test); ToneMapper maps the sum to colours. The palettes (BodyPalette: cool blue through white to warm orange, or the
// ORB domains' cyclic hues; ColorPalettes.hpp holds their C++ mirror) live in the vertex shader, chosen per draw by a
// uniform; brightness and sprite size per body follow the body count (particleStyleFor).
#include <gravlab/render/ColorPalettes.hpp>
#include <gravlab/render/GlObjects.hpp>
#include <gravlab/render/ShaderProgram.hpp>
#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <span>

namespace gravlab {

struct ParticleStyle {
    float spriteWorldSize = 0.05f; ///< sprite diameter, N-body length units
    float brightness = 1.0f;       ///< light a sprite adds at its centre, before tone mapping
    float minPixelSize = 1.5f;     ///< smaller sprites are drawn this large and dimmed to keep their total light
    float maxPixelSize = 64.0f;    ///< pixels; caps the fill cost of bodies right in front of the camera
};

/// A style that looks alike for 1k and 1M bodies spread over a sphere of sceneRadius (see the definition for why).
ParticleStyle particleStyleFor(std::size_t bodyCount, float sceneRadius);

/// What the particle shader needs to know about the camera and the viewport.
struct ParticleView {
    glm::mat4 view{1.0f};
    glm::mat4 projection{1.0f};
    float viewportHeight = 1.0f;      ///< pixels
    float verticalFieldOfView = 1.0f; ///< radians, the one in projection
};

/// Pixels one length unit spans at unit depth: the factor that turns a sprite's world size into pixels (the shader's
/// u_pixelsPerUnitAtUnitDepth; the CUDA splat sizes its sprites with the same number).
float pixelsPerUnitAtUnitDepth(const ParticleView& view);

class ParticleRenderer {
public:
    /// Bytes per body of the vertex buffer: one RenderVertex. It lives where the GL keeps buffers: host memory under
    /// a software GL (Mesa's llvmpipe), the GPU's under a hardware driver (where CUDA-GL interop writes it).
    static constexpr std::size_t kVertexBytesPerBody = sizeof(RenderVertex);

    explicit ParticleRenderer(std::size_t initialCapacity = 1024);

    /// Makes room for at least capacity vertices; growing replaces the buffer and discards its contents.
    void reserve(std::size_t capacity);
    /// Copies vertices into the buffer (growing it when needed) and draws exactly these from now on.
    void upload(std::span<const RenderVertex> vertices);
    /// For writers that fill vertexBuffer() themselves (CUDA-GL interop): draw the first count vertices.
    void setVertexCount(std::size_t count);

    GLuint vertexBuffer() const { return m_vertexBuffer.id(); }
    std::size_t capacity() const { return m_capacity; }
    std::size_t vertexCount() const { return m_vertexCount; }
    /// Increments whenever reserve() replaced the buffer; interop registrations of an older generation are stale.
    std::uint64_t storageGeneration() const { return m_storageGeneration; }

    /// Adds the particles' light, coloured through palette, to the bound framebuffer (blending state is set here).
    /// With stride k > 1 only every k-th vertex is drawn, k times as bright, so the picture keeps its light at a k-th
    /// of the cost (the view of a huge run while a step holds the GPU; see FramePipeline).
    void draw(const ParticleView& view, const ParticleStyle& style, BodyPalette palette = BodyPalette::CoolWarm,
              std::size_t stride = 1) const;

private:
    ShaderProgram m_program;
    GLint m_viewLocation;
    GLint m_projectionLocation;
    GLint m_pixelsPerUnitAtUnitDepthLocation;
    GLint m_spriteWorldSizeLocation;
    GLint m_brightnessLocation;
    GLint m_minPixelSizeLocation;
    GLint m_maxPixelSizeLocation;
    GLint m_paletteLocation;
    GlVertexArray m_vertexArray;
    GlBuffer m_vertexBuffer;
    std::size_t m_capacity = 0;
    std::size_t m_vertexCount = 0;
    std::uint64_t m_storageGeneration = 0;
};

} // namespace gravlab
