// Re-querying octree cells only after the tree or the query changed.
#include <gravlab/render/TreeOverlayFeed.hpp>

namespace gravlab {

namespace {

bool sameQuery(const TreeCellQuery& a, const TreeCellQuery& b) {
    return a.minDepth == b.minDepth && a.maxDepth == b.maxDepth && a.containingPoint == b.containingPoint &&
           a.maxCells == b.maxCells;
}

} // namespace

bool TreeOverlayFeed::update(const VisualSource& source, const TreeCellQuery& query, TreeOverlayRenderer& renderer) {
    if (m_current && m_lastQuery && sameQuery(*m_lastQuery, query))
        return false;
    source.collectTreeCells(query, m_cells);
    renderer.upload(m_cells);
    m_lastQuery = query;
    m_current = true;
    return true;
}

void TreeOverlayFeed::clear(TreeOverlayRenderer& renderer) {
    m_cells.clear();
    renderer.upload(m_cells);
    m_lastQuery.reset();
    m_current = false;
}

} // namespace gravlab
