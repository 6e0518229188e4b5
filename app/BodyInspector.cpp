// Reads the tracked body when due: the backend's inspection by id and the octree leaf at its position.
#include "BodyInspector.hpp"

#include <exception>
#include <vector>

namespace gravlab {

namespace {

/// Deeper than any octree the solvers build (their depth is bounded by the 21 bits per axis of a 63-bit Morton key).
constexpr int kDeepestLeafQueried = 64;

} // namespace

void BodyInspector::track(std::optional<std::uint64_t> id) {
    m_id = id;
    m_reading = {};
    m_stale = true;
}

void BodyInspector::update(const Simulation& simulation) {
    ++m_framesSinceReading;
    const bool stateMovedOn = simulation.stepCount() != m_reading.step;
    // A reversal changes the state without a step: the velocity shown would keep its old sign until the next one.
    const bool reversed = simulation.timeDirection() != m_reading.timeDirection;
    if (m_stale || reversed || (stateMovedOn && m_framesSinceReading >= kFramesBetweenReadings))
        read(simulation);
}

void BodyInspector::read(const Simulation& simulation) {
    m_stale = false;
    m_framesSinceReading = 0;
    m_reading = {};
    m_reading.step = simulation.stepCount();
    m_reading.timeDirection = simulation.timeDirection();
    if (!m_id)
        return;
    try {
        m_reading.body = simulation.backend().inspectBody(simulation.params(), *m_id);
        m_reading.solverBuildsTree = simulation.visuals().drawsTreeCells();
        if (m_reading.body)
            m_reading.leaf = leafCellContaining(simulation.visuals(), m_reading.body->position);
    } catch (const std::exception& error) {
        m_reading.body.reset();
        m_reading.error = error.what();
    }
}

std::optional<TreeCellBox> leafCellContaining(const VisualSource& visuals, const std::array<float, 3>& point) {
    if (!visuals.drawsTreeCells())
        return std::nullopt;
    TreeCellQuery query;
    query.minDepth = 0;
    query.maxDepth = kDeepestLeafQueried;
    query.containingPoint = point;
    std::vector<TreeCellBox> path;
    visuals.collectTreeCells(query, path);
    std::optional<TreeCellBox> deepest;
    for (const TreeCellBox& cell : path)
        if (!deepest || cell.depth > deepest->depth)
            deepest = cell;
    return deepest;
}

} // namespace gravlab
