#pragma once
// Axis-aligned boxes drawn as wireframes with a colour per box: the one box-drawing path of the overlays (octree cells,
// the picked body's marker, ORB cells).
//
// Design note: a box is one instance of 24 line vertices (its 12 edges); the vertex shader builds each corner from
// gl_VertexID by choosing the lower or upper coordinate per axis, so the only buffer is the per-box WireBox array
// (lower corner, upper corner, straight RGBA: 40 bytes an instance). Colours are chosen on the CPU by whoever fills a
// list (TreeOverlayRenderer by depth, OrbOverlayRenderer by domain), which keeps the shader free of any one overlay's
// palette. Boxes are drawn after tone mapping, alpha-blended straight onto the target framebuffer: their colours stay
// what the palette says whatever the exposure, and they never add light to the HDR sum that the bodies' glow is judged
// by. A draw scales every box's alpha by one opacity, so a slider can fade a whole overlay without a re-upload.
// A box clipped to a region (BoxClipping.hpp) marks the faces the region supplied (cutFaces); an edge lying on such a
// face is not the box's own edge, so it is drawn dashed (dashes of the draw's cutEdgeDashLength, in world units along
// the edge) at kCutEdgeAlpha of the box's alpha. Boxes with no cut face, such as every octree cell, draw as before.
// WireBoxList owns the GPU storage of one set of boxes; WireBoxRenderer owns the program and draws any list.
#include <gravlab/render/GlObjects.hpp>
#include <gravlab/render/ShaderProgram.hpp>

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <span>

namespace gravlab {

/// One box, as the shader reads it.
struct WireBox {
    float lower[3]; ///< lower corner (x, y, z), N-body length units
    float upper[3]; ///< upper corner
    float color[4]; ///< straight (not premultiplied) RGBA in [0, 1]; alpha is scaled by the draw's opacity
    std::uint32_t cutFaces = 0; ///< faceBit mask (BoxClipping.hpp) of faces that a clip region supplied
};

/// Alpha of an edge on a cut face relative to the box's own edges (mirrors kCutEdgeAlpha in wire_boxes.vert).
inline constexpr float kCutEdgeAlpha = 0.5f;

/// A cube of side 2 halfSize around centre, in color.
WireBox cubeBox(const glm::vec3& centre, float halfSize, const glm::vec4& color);

/// The GPU copy of a set of boxes; grows geometrically, so a list refilled every frame reallocates rarely.
class WireBoxList {
public:
    explicit WireBoxList(std::size_t initialCapacity = 64);

    /// Replaces the boxes with these; an empty span leaves an empty list.
    void upload(std::span<const WireBox> boxes);
    std::size_t size() const { return m_size; }
    GLuint buffer() const { return m_buffer.id(); }

private:
    void reserve(std::size_t capacity);

    GlBuffer m_buffer;
    std::size_t m_capacity = 0;
    std::size_t m_size = 0;
};

class WireBoxRenderer {
public:
    WireBoxRenderer();

    /// Blends list's box edges over the bound framebuffer; viewProjection = projection * view; every alpha is
    /// multiplied by opacity. Edges on cut faces are dashed with dashes and gaps of cutEdgeDashLength (N-body length
    /// units; 0 draws them solid).
    void draw(const WireBoxList& list, const glm::mat4& viewProjection, float opacity,
              float cutEdgeDashLength = 0.0f) const;

private:
    ShaderProgram m_program;
    GLint m_viewProjectionLocation;
    GLint m_opacityLocation;
    GLint m_dashLengthLocation;
    GlVertexArray m_vertexArray;
};

} // namespace gravlab
