#pragma once
// Trails of a few bodies drawn as fading line strips over the tone-mapped frame.
//
// Design note: each trail is a line strip of its positions, oldest first; the alpha of a vertex grows linearly from
// nearly zero at the oldest sample to the trail's alpha at the newest, so a trail reads as a comet tail whose head is
// the body. The fade and the colour are computed on the CPU into one vertex array of all trails (position and straight
// RGBA, 28 bytes a vertex; at most a few thousand vertices a frame), uploaded into one buffer that grows
// geometrically, and drawn with one glDrawArrays per trail. Like the wire boxes (WireBoxes.hpp) trails are drawn after
// tone mapping and alpha-blended straight onto the target, so their colours do not depend on the exposure and they
// add no light to the bodies' HDR sum; the target's alpha stays opaque.
#include <gravlab/render/GlObjects.hpp>
#include <gravlab/render/ShaderProgram.hpp>
#include <gravlab/sim/BodyInspection.hpp>

#include <cstddef>
#include <glm/glm.hpp>
#include <span>
#include <vector>

namespace gravlab {

/// One trail to draw: its positions oldest first and the colour of its newest end (straight RGBA in [0, 1]).
struct TrailStrip {
    std::span<const BodyPosition> points;
    glm::vec4 color{1.0f};
};

/// Alpha of vertex k of a strip of count points whose newest end has alpha headAlpha: headAlpha (k + 1) / count.
float trailVertexAlpha(std::size_t k, std::size_t count, float headAlpha);

class TrailRenderer {
public:
    TrailRenderer();

    /// Blends the strips over the bound framebuffer; viewProjection = projection * view. Strips of fewer than two
    /// points draw nothing.
    void draw(std::span<const TrailStrip> strips, const glm::mat4& viewProjection);

private:
    struct TrailVertex {
        float position[3];
        float color[4];
    };
    void upload(std::span<const TrailVertex> vertices);

    ShaderProgram m_program;
    GLint m_viewProjectionLocation;
    GlVertexArray m_vertexArray;
    GlBuffer m_buffer;
    std::size_t m_capacity = 0; ///< vertices m_buffer holds
    std::vector<TrailVertex> m_vertices;
};

} // namespace gravlab
