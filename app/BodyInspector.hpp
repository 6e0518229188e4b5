#pragma once
// The inspector's reading of the picked body: what the backend says of it (BodyInspection.hpp) and the octree leaf
// holding it, refreshed while the simulation runs.
//
// Design note: GL-free, so it is tested without a window. The body is tracked by its 64-bit id, never by index:
// ORB re-partitions and migrations reorder the body arrays between steps, and the backend finds the id again each
// time. A reading costs O(N) (the fp64 potential and, on the GPU, the search for the body), so it is taken when the
// state moved on and at least kFramesBetweenReadings frames passed since the last one, at once when the tracked body
// changes or the caller marks the reading stale (edited parameters). The leaf is the deepest cell of the octree path
// to the body's position (TreeCellQuery::containingPoint); a solver that builds no tree has none. A body that is no
// longer there (its id vanished with a reload) leaves an empty reading; a failing read leaves its message.
#include <gravlab/sim/BodyInspection.hpp>
#include <gravlab/sim/Simulation.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace gravlab {

struct InspectorReading {
    std::optional<BodyInspection> body; ///< empty: nothing tracked, or the tracked id is gone
    std::optional<TreeCellBox> leaf;    ///< the deepest octree cell holding the body, when the solver built a tree
    bool solverBuildsTree = false;      ///< whether the last force evaluation built an octree
    std::uint64_t step = 0;             ///< simulation step the reading describes
    int timeDirection = 1;              ///< and the clock's direction then (a reversal negates every velocity)
    std::string error;                  ///< why the last reading failed; empty when it worked
};

class BodyInspector {
public:
    /// Readings are taken at most this often while the simulation runs: a reading is O(N).
    static constexpr int kFramesBetweenReadings = 3;

    /// Starts tracking id (empty: stop); the next update() reads at once.
    void track(std::optional<std::uint64_t> id);
    std::optional<std::uint64_t> trackedId() const { return m_id; }
    /// The next update() reads again (parameters that change accelerations or the potential were edited).
    void markStale() { m_stale = true; }
    /// Once per frame: reads the tracked body when due (see the design note).
    void update(const Simulation& simulation);
    const InspectorReading& reading() const { return m_reading; }

private:
    void read(const Simulation& simulation);

    std::optional<std::uint64_t> m_id;
    InspectorReading m_reading;
    bool m_stale = true;
    int m_framesSinceReading = 0;
};

/// The deepest cell of visuals' octree that contains point; empty when no tree is drawn.
std::optional<TreeCellBox> leafCellContaining(const VisualSource& visuals, const std::array<float, 3>& point);

} // namespace gravlab
