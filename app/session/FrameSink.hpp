#pragma once
// What the session controller tells the frame pipeline: which drawn things must be brought up to date.
//
// Design note: the controller decides (from Simulation's ParamsChange and from its own steps and resets) what went
// stale; the pipeline that owns the GL buffers (FramePipeline, shared by the window and headless modes) does the
// refreshing, and the tests implement this interface to count what was asked. Vertices are pushed when asked, since
// their upload can fail (a body count the GPU cannot draw) and the controller must be able to undo the edit that asked
// for them. Overlays are only marked stale: what they show also depends on view settings the controller does not own
// (depth range, picked point, inner cells), so the pipeline fetches their cells lazily, at most once per frame.
namespace gravlab {

class Simulation;

class FrameSink {
public:
    virtual ~FrameSink() = default;
    /// Copy the bodies' positions and colour scalars into the vertex buffer now. May throw (the buffer cannot grow
    /// to the body count).
    virtual void refreshVertices(const Simulation& simulation) = 0;
    /// The octree the overlay's cells came from may be gone or different: query it again before the next draw.
    virtual void invalidateTreeOverlay() = 0;
    /// The ORB domains may have changed: collect their cells again before the next draw.
    virtual void invalidateOrbOverlay() = 0;
};

} // namespace gravlab
