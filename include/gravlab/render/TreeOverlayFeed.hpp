#pragma once
// Moves octree cells from the simulation's visual source into the tree overlay, only when they can have changed.
//
// Design note: the cells describe the tree of the last force evaluation, so they change only when the
// simulation stepped, was reset or switched solver (the caller says so with invalidate()) or when the query itself
// changed (depth range, picked point, cap). Between those events the cells in the GL buffer stay valid and no query is
// made, so a paused 1M-body view costs nothing per frame; while the simulation runs the cost is one capped query per
// drawn frame. The host array is reused between queries.
#include <gravlab/render/TreeOverlayRenderer.hpp>
#include <gravlab/sim/VisualSource.hpp>

#include <optional>
#include <vector>

namespace gravlab {

class TreeOverlayFeed {
public:
    /// The tree behind the cells has changed: the next update() queries the source again.
    void invalidate() { m_current = false; }
    /// Queries source when invalidated or when query differs from the last one, and uploads the cells into
    /// renderer. Returns whether it queried.
    bool update(const VisualSource& source, const TreeCellQuery& query, TreeOverlayRenderer& renderer);
    /// Removes every cell from renderer (overlay switched off); the next update() queries again.
    void clear(TreeOverlayRenderer& renderer);

    /// Cells the last query returned.
    std::size_t cellCount() const { return m_cells.size(); }
    /// Whether the last query hit its maxCells cap, so deeper cells of the range are missing.
    bool capped() const { return m_lastQuery && m_cells.size() >= m_lastQuery->maxCells; }

private:
    std::vector<TreeCellBox> m_cells;
    std::optional<TreeCellQuery> m_lastQuery;
    bool m_current = false;
};

} // namespace gravlab
