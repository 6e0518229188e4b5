// Collecting ORB cells only after the domains or the drawing choice changed.
#include <gravlab/render/OrbCellFeed.hpp>

namespace gravlab {

bool OrbCellFeed::update(const VisualSource& source, bool includeInnerCells, OrbOverlayRenderer& renderer,
                         const std::optional<AxisBox>& region) {
    const bool collect = !m_current || m_includedInnerCells != includeInnerCells;
    if (!collect && m_region == region)
        return false;
    if (collect)
        source.collectOrbCells(m_cells);
    renderer.upload(m_cells, includeInnerCells, region);
    m_includedInnerCells = includeInnerCells;
    m_region = region;
    m_current = true;
    return collect;
}

void OrbCellFeed::clear(OrbOverlayRenderer& renderer) {
    m_cells.clear();
    renderer.upload(m_cells, false);
    m_includedInnerCells.reset();
    m_region.reset();
    m_current = false;
}

} // namespace gravlab
