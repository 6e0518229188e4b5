// Collecting ORB cells only after the domains or the drawing choice changed.
#include "OrbCellFeed.hpp"

namespace gravlab {

bool OrbCellFeed::update(const SimulationBackend& backend, bool includeInnerCells, OrbOverlayRenderer& renderer) {
    if (m_current && m_includedInnerCells == includeInnerCells)
        return false;
    backend.collectOrbCells(m_cells);
    renderer.upload(m_cells, includeInnerCells);
    m_includedInnerCells = includeInnerCells;
    m_current = true;
    return true;
}

void OrbCellFeed::clear(OrbOverlayRenderer& renderer) {
    m_cells.clear();
    renderer.upload(m_cells, false);
    m_includedInnerCells.reset();
    m_current = false;
}

} // namespace gravlab
