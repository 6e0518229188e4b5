#pragma once
// What the engine offers to be drawn: body vertices with colour scalars, octree cells and ORB domains.
//
// Design note: the seam between simulation and drawing, after Box2D's b2DebugDraw turned around: the engine does not
// draw, it answers what is there to draw, and render/ decides how and when. A backend hands out its VisualSource
// (SimulationBackend::visuals()); the physics interface knows nothing of colours, overlays or vertex buffers, and the
// renderer never needs to know which backend it talks to. Vertices reach GL by one of three paths: a host array
// (writeVertices), where the state lives on a CUDA device a write straight into a device pointer such as a mapped GL
// buffer (writeVerticesOnDevice), or where it lives in GL buffers a compute dispatch into the vertex buffer, named by
// its GL name (writeVerticesToGlBuffer). The device path names no CUDA type: the stream travels as an opaque
// StreamHandle, so render/ includes no CUDA backend header and casts to no CUDA type. Colour mode is a drawing choice
// and lives here, not in the physics state. The per-body quantities of the colour modes (speed, density, ...) are
// computed on the backend's own device and only when the mode or the state changed; colorScale() says what the colours
// of the last vertex write mean, for the viewer's colour bar.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/ColorScale.hpp>
#include <gravlab/sim/Orb.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace gravlab {

/// A GL buffer object's name passed through interfaces that include no GL header (GLuint is an unsigned int).
struct GlBufferName {
    unsigned int value = 0;
};

/// A device stream passed through interfaces that name no CUDA type: on the CUDA backend a cudaStream_t held as
/// void* (nullptr is the default stream). Only code that is built with CUDA turns it back into a stream.
struct StreamHandle {
    void* value = nullptr;
};

class VisualSource {
public:
    virtual ~VisualSource() = default;

    /// Vertices the write functions produce: one per body.
    virtual std::size_t vertexCount() const = 0;
    /// Positions and colour scalars (as the colour mode says) of all bodies into out, for the host upload path.
    /// Throws std::invalid_argument when out cannot hold vertexCount() vertices (the CPU backend wants exactly that).
    virtual void writeVertices(std::span<RenderVertex> out) const = 0;

    /// Whether writeVerticesOnDevice works: true where the bodies live on a device (the CUDA backend).
    virtual bool canWriteVerticesOnDevice() const { return false; }
    /// The stream this source's device work is queued on: a device write queued there needs no wait between streams.
    /// The default handle where there is no device.
    virtual StreamHandle deviceStream() const { return {}; }
    /// Device path: writes vertexCount() vertices into vertices, a device pointer (e.g. a mapped GL buffer) with room
    /// for capacity vertices, queued on stream after all work queued so far on deviceStream(). Throws
    /// std::invalid_argument when capacity is too small, std::logic_error unless canWriteVerticesOnDevice().
    virtual void writeVerticesOnDevice(RenderVertex* vertices, std::size_t capacity, StreamHandle stream) const;
    /// Whether writeVerticesToGlBuffer works: true where the bodies live in GL buffers (the GL compute backend).
    virtual bool canWriteVerticesToGlBuffer() const { return false; }
    /// GL path: writes vertexCount() vertices into buffer, a GL buffer of the current context (the one the source's
    /// state lives in) with room for capacity vertices, by a compute dispatch ordered before any later draw that reads
    /// it as vertices. Throws std::invalid_argument when capacity is too small, std::logic_error unless
    /// canWriteVerticesToGlBuffer().
    virtual void writeVerticesToGlBuffer(GlBufferName buffer, std::size_t capacity) const;

    /// What the write functions put in colorScalar from now on. LeafDepth falls back to component colours while no
    /// tree is drawn (drawsTreeCells()), OrbDomain while ORB is off.
    virtual void setColorMode(ColorMode mode) = 0;
    virtual ColorMode colorMode() const = 0;
    /// Linear, log or the mode's default for the per-body quantities; sources without them ignore it.
    virtual void setColorScaleChoice(ColorScaleChoice choice) { (void)choice; }
    virtual ColorScaleChoice colorScaleChoice() const { return ColorScaleChoice::Auto; }
    /// What the colours of the last vertex write mean (quantity, unit named in units, range, log or linear, or the
    /// component colours with the reason a mode fell back to them).
    virtual ColorScale colorScale(const UnitSystem& units) const {
        (void)units;
        return {};
    }
    /// The colour mode's per-body values of the last vertex write, in body order (NaN where a body has none: the
    /// force error outside its sample), into out; empty unless that write showed a per-body quantity.
    virtual void readColorValues(std::vector<float>& out) const { out.clear(); }

    /// Whether the solver of the last force evaluation built an octree, so collectTreeCells can return cells and leaf
    /// depths can colour the bodies. False for solvers that build no tree, and before the first force evaluation.
    virtual bool drawsTreeCells() const { return false; }
    /// Octree cells of the last force evaluation that match query, into out (cleared first); empty unless
    /// drawsTreeCells().
    virtual void collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const {
        (void)query;
        out.clear();
    }

    /// Cells of the current ORB domains, breadth first as OrbCpu::cells(), into out (cleared first); empty when ORB is
    /// off or no domains were built since it was switched on.
    virtual void collectOrbCells(std::vector<OrbCell>& out) const { out.clear(); }
    /// Domain count, imbalance and migration of the current ORB domains (domainCount 0 when ORB is off).
    virtual OrbStatus orbStatus() const { return {}; }
};

} // namespace gravlab
