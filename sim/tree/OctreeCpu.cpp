// CPU octree: bounding cube, Morton keys, sort, breadth-first build from the sorted keys, and the overlay queries.
//
// Design note: see OctreeCpu.hpp. The cube and the keys are computed in fp64 from the float positions, so a body's
// key places it in the cell whose (fp64) box contains it; keys are clamped to the 21-bit grid so that rounding at the
// outer faces cannot leave the cube. A cell's geometry is decoded from its key prefix rather than accumulated from its
// parent's, so deep cells carry one rounding (to float), not one per level. The build is serial per level: it does
// O(cells x 8 x log(bodies per cell)) work, a few milliseconds at N = 1M next to the sort and the force walk.
#include "tree/OctreeCpu.hpp"

#include "core/Parallel.hpp"
#include "tree/MortonKeys.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

/// Relative margin added to the largest half-extent, so no body lies on the root's outer faces.
constexpr double kMargin = 1e-3;
/// Smallest half size of the root, relative to the largest coordinate magnitude (or 1 when that is smaller): keeps a
/// point-like set (N = 1, all bodies coincident) in a cube of non-zero size.
constexpr double kPointSetHalfSize = 1e-6;

struct BoundingBox {
    double low[3];
    double high[3];
    std::int64_t nonFinite;
};

BoundingBox boundingBoxOf(const Bodies& bodies) {
    const auto count = std::int64_t(bodies.size());
    constexpr double kInfinity = std::numeric_limits<double>::infinity();
    double lowX = kInfinity, lowY = kInfinity, lowZ = kInfinity;
    double highX = -kInfinity, highY = -kInfinity, highZ = -kInfinity;
    std::int64_t nonFinite = 0;
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)                      \
    reduction(min : lowX, lowY, lowZ) reduction(max : highX, highY, highZ) reduction(+ : nonFinite)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        const float x = bodies.x[i], y = bodies.y[i], z = bodies.z[i];
        if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) {
            ++nonFinite;
            continue;
        }
        lowX = std::min(lowX, double(x));
        lowY = std::min(lowY, double(y));
        lowZ = std::min(lowZ, double(z));
        highX = std::max(highX, double(x));
        highY = std::max(highY, double(y));
        highZ = std::max(highZ, double(z));
    }
    return {{lowX, lowY, lowZ}, {highX, highY, highZ}, nonFinite};
}

void checkInput(const Bodies& bodies, int leafCapacity) {
    const std::size_t count = bodies.size();
    if (bodies.y.size() != count || bodies.z.size() != count || bodies.mass.size() != count)
        throw std::invalid_argument("octree: body arrays differ in length (x has " + std::to_string(count) +
                                    " entries)");
    if (count > std::size_t(std::numeric_limits<std::uint32_t>::max()))
        throw std::invalid_argument("octree: " + std::to_string(count) + " bodies is more than 2^32 - 1");
    if (leafCapacity < 1)
        throw std::invalid_argument("octree: leaf capacity " + std::to_string(leafCapacity) + " must be at least 1");
}

std::uint32_t gridCoordinate(float position, double low, double cellsPerLength) {
    constexpr double kLastCell = double((1u << kMortonBitsPerAxis) - 1);
    return std::uint32_t(std::clamp(std::floor((double(position) - low) * cellsPerLength), 0.0, kLastCell));
}

TreeCellBox boxOf(const OctreeCell& cell) {
    return {cell.centerX, cell.centerY, cell.centerZ, cell.halfSize, cell.depth};
}

} // namespace

void OctreeCpu::build(const Bodies& bodies, int leafCapacity) {
    checkInput(bodies, leafCapacity);
    m_cells.clear();
    m_levelBegin.clear();
    m_multipoles.clear();
    m_openingRadiusSquared.clear();
    m_relativeErrorScale.clear();
    m_sortedKeys.clear();
    m_order.clear();
    m_ordered = {};
    const BoundingBox box = boundingBoxOf(bodies);
    if (box.nonFinite > 0)
        throw std::invalid_argument("octree: " + std::to_string(box.nonFinite) + " of " +
                                    std::to_string(bodies.size()) + " bodies have non-finite positions");
    if (bodies.size() == 0)
        return;
    double halfExtent = 0, scale = 0;
    for (int axis = 0; axis < 3; ++axis) {
        halfExtent = std::max(halfExtent, 0.5 * (box.high[axis] - box.low[axis]));
        scale = std::max({scale, std::abs(box.low[axis]), std::abs(box.high[axis])});
    }
    const double halfSize = std::max(halfExtent * (1 + kMargin), kPointSetHalfSize * std::max(scale, 1.0));
    m_rootSide = 2 * halfSize;
    m_rootLowX = 0.5 * (box.low[0] + box.high[0]) - halfSize;
    m_rootLowY = 0.5 * (box.low[1] + box.high[1]) - halfSize;
    m_rootLowZ = 0.5 * (box.low[2] + box.high[2]) - halfSize;
    sortBodiesByKey(bodies);
    buildLevels(leafCapacity);
}

void OctreeCpu::sortBodiesByKey(const Bodies& bodies) {
    const std::size_t count = bodies.size();
    std::vector<KeyedBody> keyed(count);
    const auto signedCount = std::int64_t(count);
#pragma omp parallel for schedule(static) if (parallel : signedCount >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < signedCount; ++k) {
        const auto i = std::size_t(k);
        keyed[i] = {keyOf(bodies.x[i], bodies.y[i], bodies.z[i]), std::uint32_t(i)};
    }
    sortKeyedBodies(keyed);

    m_sortedKeys.resize(count);
    m_order.resize(count);
    for (std::vector<float>* component : {&m_ordered.x, &m_ordered.y, &m_ordered.z, &m_ordered.mass})
        component->resize(count);
#pragma omp parallel for schedule(static) if (parallel : signedCount >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < signedCount; ++k) {
        const auto slot = std::size_t(k);
        const std::uint32_t body = keyed[slot].index;
        m_sortedKeys[slot] = keyed[slot].key;
        m_order[slot] = body;
        m_ordered.x[slot] = bodies.x[body];
        m_ordered.y[slot] = bodies.y[body];
        m_ordered.z[slot] = bodies.z[body];
        m_ordered.mass[slot] = bodies.mass[body];
    }
}

void OctreeCpu::buildLevels(int leafCapacity) {
    const double rootHalf = 0.5 * m_rootSide;
    m_cells.push_back({float(m_rootLowX + rootHalf), float(m_rootLowY + rootHalf), float(m_rootLowZ + rootHalf),
                       float(rootHalf), 0, -1, 0, 0, std::uint32_t(m_order.size())});
    std::size_t levelStart = 0;
    for (int depth = 0; levelStart < m_cells.size(); ++depth) {
        m_levelBegin.push_back(levelStart);
        const std::size_t levelEnd = m_cells.size();
        if (depth < kOctreeMaxDepth)
            for (std::size_t cell = levelStart; cell < levelEnd; ++cell)
                if (m_cells[cell].bodyCount > std::uint32_t(leafCapacity))
                    splitCell(cell);
        levelStart = levelEnd;
    }
    m_levelBegin.push_back(m_cells.size());
}

void OctreeCpu::splitCell(std::size_t cellIndex) {
    if (m_cells.size() + 8 > std::size_t(std::numeric_limits<std::int32_t>::max()))
        throw std::length_error("octree: more than 2^31 cells");
    const OctreeCell parent = m_cells[cellIndex];
    const int childDepth = parent.depth + 1;
    const int shift = 3 * (kOctreeMaxDepth - childDepth);
    const double childSide = m_rootSide / double(std::uint64_t{1} << childDepth);
    const auto keysBegin = m_sortedKeys.begin();
    const auto end = keysBegin + std::ptrdiff_t(parent.firstBody + parent.bodyCount);
    m_cells[cellIndex].firstChild = std::int32_t(m_cells.size());
    std::int32_t childCount = 0;
    for (auto childBegin = keysBegin + std::ptrdiff_t(parent.firstBody); childBegin != end; ++childCount) {
        const std::uint64_t prefix = *childBegin >> shift;
        const auto childEnd =
            std::partition_point(childBegin, end, [&](std::uint64_t key) { return (key >> shift) == prefix; });
        const auto centerOf = [&](double low, std::uint64_t bits) {
            return float(low + (double(compactMortonBits(bits)) + 0.5) * childSide);
        };
        m_cells.push_back({centerOf(m_rootLowX, prefix >> 2), centerOf(m_rootLowY, prefix >> 1),
                           centerOf(m_rootLowZ, prefix), float(0.5 * childSide), childDepth, -1, 0,
                           std::uint32_t(childBegin - keysBegin), std::uint32_t(childEnd - childBegin)});
        childBegin = childEnd;
    }
    m_cells[cellIndex].childCount = childCount;
}

void OctreeCpu::leafDepthOfBodies(std::vector<std::uint8_t>& out) const {
    out.assign(m_order.size(), 0);
    const auto cellCount = std::int64_t(m_cells.size());
#pragma omp parallel for schedule(static) if (parallel : cellCount >= kMinBodiesForParallelSampling)
    for (std::int64_t c = 0; c < cellCount; ++c) {
        const OctreeCell& cell = m_cells[std::size_t(c)];
        if (cell.isLeaf())
            for (std::uint32_t slot = cell.firstBody; slot < cell.firstBody + cell.bodyCount; ++slot)
                out[m_order[slot]] = std::uint8_t(cell.depth);
    }
}

std::uint64_t OctreeCpu::keyOf(float x, float y, float z) const {
    const double cellsPerLength = double(1u << kMortonBitsPerAxis) / m_rootSide;
    return mortonKey(gridCoordinate(x, m_rootLowX, cellsPerLength), gridCoordinate(y, m_rootLowY, cellsPerLength),
                     gridCoordinate(z, m_rootLowZ, cellsPerLength));
}

void OctreeCpu::collectCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const {
    out.clear();
    if (m_cells.empty() || query.maxCells == 0 || query.minDepth > query.maxDepth || query.maxDepth < 0)
        return;
    if (query.containingPoint)
        collectPath(query, out);
    else
        collectLevels(query, out);
}

void OctreeCpu::collectLevels(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const {
    const std::size_t levelCount = m_levelBegin.size() - 1;
    const std::size_t firstLevel = std::size_t(std::max(query.minDepth, 0));
    const std::size_t endLevel = std::min(levelCount, std::size_t(query.maxDepth) + 1);
    if (firstLevel >= endLevel)
        return;
    const std::size_t first = m_levelBegin[firstLevel];
    const std::size_t count = std::min(m_levelBegin[endLevel] - first, query.maxCells);
    for (std::size_t cell = first; cell < first + count; ++cell)
        out.push_back(boxOf(m_cells[cell]));
}

void OctreeCpu::collectPath(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const {
    const auto [px, py, pz] = *query.containingPoint;
    const bool insideRoot = px >= m_rootLowX && px <= m_rootLowX + m_rootSide && py >= m_rootLowY &&
                            py <= m_rootLowY + m_rootSide && pz >= m_rootLowZ && pz <= m_rootLowZ + m_rootSide;
    if (!insideRoot)
        return;
    // Follow the point's own Morton key, so the path ends in exactly the leaf build() put a body at this point in.
    const std::uint64_t key = keyOf(px, py, pz);
    std::int32_t cell = 0;
    while (cell >= 0 && m_cells[std::size_t(cell)].depth <= query.maxDepth && out.size() < query.maxCells) {
        const OctreeCell& current = m_cells[std::size_t(cell)];
        if (current.depth >= query.minDepth)
            out.push_back(boxOf(current));
        cell = -1;
        const int childShift = 3 * (kOctreeMaxDepth - current.depth - 1); // used only below depth 21 (not a leaf)
        for (std::int32_t child = current.firstChild;
             !current.isLeaf() && child < current.firstChild + current.childCount; ++child)
            if (m_sortedKeys[m_cells[std::size_t(child)].firstBody] >> childShift == key >> childShift)
                cell = child;
    }
}

} // namespace gravlab
