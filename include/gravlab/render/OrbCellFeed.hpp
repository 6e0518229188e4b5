#pragma once
// Moves ORB cells from the simulation's visual source into the ORB overlay, at most once per frame and only when they
// can have changed.
//
// Design note: the cells are those of the current ORB domains, which change only when the simulation stepped
// (a rebuild, or migration's effect on the imbalance that triggers one), was reset or re-initialised, or when the ORB
// settings changed; the caller says so with invalidate(). A change of what is drawn (inner cells on or off) is noticed
// here. Otherwise the boxes in the GL buffer stay valid and nothing is asked of the source, so a paused view costs
// nothing per frame. The host array is reused between queries. Cells are at most 2 x 1024 - 1, so a query is cheap.
// The caller also passes the region of interest the boxes are clipped to (BoxClipping.hpp); a new region re-uploads
// the cells already held without asking the source. stale() tells the caller when a collection is due, so that it
// can refresh the region (a robust estimate over a sample of the bodies) only then.
#include <gravlab/render/OrbOverlayRenderer.hpp>
#include <gravlab/sim/VisualSource.hpp>

#include <optional>
#include <vector>

namespace gravlab {

class OrbCellFeed {
public:
    /// The domains may have changed: the next update() asks the source again.
    void invalidate() { m_current = false; }
    /// Whether the next update() will ask the source (invalidated, cleared, or never collected).
    bool stale() const { return !m_current; }
    /// Collects the source's cells when invalidated or when includeInnerCells changed, and uploads them into
    /// renderer, clipped to region (none: whole). A changed region alone re-uploads the cells held. Returns whether it
    /// collected.
    bool update(const VisualSource& source, bool includeInnerCells, OrbOverlayRenderer& renderer,
                const std::optional<AxisBox>& region = std::nullopt);
    /// Removes every box from renderer (cells switched off); the next update() collects again.
    void clear(OrbOverlayRenderer& renderer);

    /// Cells (leaves and inner cells) the last collection returned.
    std::size_t cellCount() const { return m_cells.size(); }

private:
    std::vector<OrbCell> m_cells;
    std::optional<bool> m_includedInnerCells;
    std::optional<AxisBox> m_region;
    bool m_current = false;
};

} // namespace gravlab
