#include "orb/OrbCpu.hpp"

#include "core/Parallel.hpp"
#include "orb/OrbImbalance.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace gravlab {
namespace {

const std::vector<float>& coordinates(const Bodies& bodies, int axis) {
    return axis == 0 ? bodies.x : axis == 1 ? bodies.y : bodies.z;
}

void checkInputs(const Bodies& bodies, std::uint32_t domainCount, std::span<const float> weights) {
    const std::size_t count = bodies.size();
    if (!bodies.consistent())
        throw std::invalid_argument("ORB: the body arrays differ in length");
    requireOrbSizes(count, domainCount);
    for (std::size_t i = 0; i < count; ++i)
        if (!std::isfinite(bodies.x[i]) || !std::isfinite(bodies.y[i]) || !std::isfinite(bodies.z[i]))
            throw std::invalid_argument("ORB: body " + std::to_string(i) + " has a position that is not finite");
    if (weights.empty())
        return;
    if (weights.size() != count)
        throw std::invalid_argument("ORB: " + std::to_string(weights.size()) + " weights for " + std::to_string(count) +
                                    " bodies");
    double total = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (!std::isfinite(weights[i]) || weights[i] < 0)
            throw std::invalid_argument("ORB: the weight of body " + std::to_string(i) + " is " +
                                        std::to_string(weights[i]) + ", allowed a finite value >= 0");
        total += weights[i];
    }
    if (!(total > 0))
        throw std::invalid_argument("ORB: every weight is zero; work balance needs a positive total weight");
}

OrbCell rootCell(const Bodies& bodies, std::uint32_t domainCount) {
    OrbCell root{};
    for (int axis = 0; axis < 3; ++axis) {
        const auto [low, high] =
            std::minmax_element(coordinates(bodies, axis).begin(), coordinates(bodies, axis).end());
        root.lower[axis] = *low;
        root.upper[axis] = *high;
    }
    root.begin = 0;
    root.end = std::uint32_t(bodies.size());
    root.leftChild = -1;
    root.cutAxis = -1;
    root.firstDomain = 0;
    root.domainCount = domainCount;
    return root;
}

/// Moves body order[j] to index begin + j in every per-body array, weights included, one array at a time.
void permuteBodies(Bodies& bodies, std::span<float> weights, std::uint32_t begin,
                   const std::vector<std::uint32_t>& order) {
    const auto permute = [&]<typename Value>(Value* array) {
        std::vector<Value> moved(order.size());
        for (std::size_t j = 0; j < order.size(); ++j)
            moved[j] = array[order[j]];
        std::copy(moved.begin(), moved.end(), array + begin);
    };
    forEachBodyArray(bodies, [&](auto& array) { permute(array.data()); });
    if (!weights.empty())
        permute(weights.data());
}

} // namespace

void OrbCpu::build(Bodies& bodies, std::uint32_t domainCount, std::span<float> weights) {
    checkInputs(bodies, domainCount, weights);
    m_bodyCount = bodies.size();
    m_cells.assign(1, rootCell(bodies, domainCount));
    m_cells.reserve(2 * std::size_t(domainCount) - 1);
    m_levelBegin.assign(1, 0);
    m_keys.resize(bodies.size());
    m_totalWeight = 0;
    for (float weight : weights)
        m_totalWeight += weight;
    m_weightBefore.assign(weights.empty() ? 0 : 2 * std::size_t(domainCount) - 1, 0.0);

    while (m_levelBegin.back() < m_cells.size()) {
        const std::size_t levelStart = m_levelBegin.back();
        const std::size_t levelEnd = m_cells.size();
        for (std::size_t cell = levelStart; cell < levelEnd; ++cell)
            if (m_cells[cell].domainCount > 1) {
                m_cells[cell].leftChild = std::int32_t(m_cells.size());
                m_cells.resize(m_cells.size() + 2);
            }
        m_levelBegin.push_back(levelEnd);
        splitLevel(bodies, weights, levelStart, levelEnd);
    }
}

void OrbCpu::splitLevel(Bodies& bodies, std::span<float> weights, std::size_t levelStart, std::size_t levelEnd) {
    const std::int64_t first = std::int64_t(levelStart), last = std::int64_t(levelEnd);
    // Cells of a level own disjoint body ranges and disjoint child slots, so they split independently.
#pragma omp parallel for schedule(dynamic, 1) if (last - first > 1 &&                                                  \
                                                  std::int64_t(m_bodyCount) >= kMinBodiesForParallelSampling)
    for (std::int64_t cell = first; cell < last; ++cell)
        if (!m_cells[std::size_t(cell)].isLeaf())
            splitCell(bodies, weights, std::size_t(cell));
}

std::uint32_t OrbCpu::selectSplitRank(const OrbCell& cell, std::span<const float> weights, std::size_t cellIndex) {
    AxisKey* keys = m_keys.data() + cell.begin;
    const std::uint32_t count = cell.bodyCount();
    const auto byKey = [](const AxisKey& a, const AxisKey& b) {
        return a.coordinate < b.coordinate || (a.coordinate == b.coordinate && a.index < b.index);
    };
    const std::uint32_t leftDomainsEnd = cell.firstDomain + leftDomainCount(cell.domainCount);
    if (weights.empty()) {
        // np <= N makes 0 < rank < count, so both children get bodies.
        const std::uint32_t rank =
            countBalancedDomainBegin(m_bodyCount, leftDomainsEnd, m_cells[0].domainCount) - cell.begin;
        std::nth_element(keys, keys + rank, keys + count, byKey);
        return rank;
    }
    // Body j (in key order) goes left when the middle of its weight lies below the target: the boundary then misses
    // the target by at most half a body's weight. That test is monotone in j, so a quickselect on it is exact.
    double target = m_totalWeight * leftDomainsEnd / m_cells[0].domainCount - m_weightBefore[cellIndex];
    std::uint32_t low = 0, high = count;
    while (low < high) {
        const std::uint32_t middle = low + (high - low) / 2;
        std::nth_element(keys + low, keys + middle, keys + high, byKey);
        double weightBelow = 0;
        for (std::uint32_t j = low; j < middle; ++j)
            weightBelow += weights[keys[j].index];
        const double middleWeight = weights[keys[middle].index];
        if (weightBelow + 0.5 * middleWeight < target) {
            target -= weightBelow + middleWeight;
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    // Keys [0, low) now all precede keys [low, count); bring the smallest of the right part to position low.
    if (low < count)
        std::nth_element(keys + low, keys + low, keys + count, byKey);
    return low;
}

void OrbCpu::splitCell(Bodies& bodies, std::span<float> weights, std::size_t cellIndex) {
    const OrbCell parent = m_cells[cellIndex];
    const int axis = longestAxis(parent);
    const std::vector<float>& along = coordinates(bodies, axis);
    AxisKey* keys = m_keys.data() + parent.begin;
    const std::uint32_t count = parent.bodyCount();
    for (std::uint32_t j = 0; j < count; ++j)
        keys[j] = {along[parent.begin + j], parent.begin + j};
    const std::uint32_t rank = selectSplitRank(parent, weights, cellIndex);

    float cut = rank == 0 ? parent.lower[axis] : parent.upper[axis];
    if (rank > 0 && rank < count) {
        float largestLeft = keys[0].coordinate;
        for (std::uint32_t j = 1; j < rank; ++j)
            largestLeft = std::max(largestLeft, keys[j].coordinate);
        // The midpoint of two floats, rounded once, lies between them.
        cut = float(0.5 * (double(largestLeft) + double(keys[rank].coordinate)));
        // A stable partition: the index tie-break of the next level then sees the same order as the GPU build's.
        const AxisKey pivot = keys[rank];
        std::vector<std::uint32_t> order;
        order.reserve(count);
        for (int side = 0; side < 2; ++side)
            for (std::uint32_t i = parent.begin; i < parent.end; ++i) {
                const float coordinate = along[i];
                const bool left = coordinate < pivot.coordinate || (coordinate == pivot.coordinate && i < pivot.index);
                if (left == (side == 0))
                    order.push_back(i);
            }
        permuteBodies(bodies, weights, parent.begin, order);
    }

    const std::uint32_t split = parent.begin + rank;
    const std::uint32_t leftDomains = leftDomainCount(parent.domainCount);
    OrbCell& left = m_cells[std::size_t(parent.leftChild)];
    OrbCell& right = m_cells[std::size_t(parent.leftChild) + 1];
    left = parent;
    right = parent;
    left.upper[axis] = cut;
    right.lower[axis] = cut;
    left.end = split;
    right.begin = split;
    left.leftChild = right.leftChild = -1;
    left.cutAxis = right.cutAxis = -1;
    left.domainCount = leftDomains;
    right.domainCount = parent.domainCount - leftDomains;
    right.firstDomain = parent.firstDomain + leftDomains;
    m_cells[cellIndex].cutAxis = axis;
    if (!weights.empty()) {
        double leftWeight = 0;
        for (std::uint32_t i = parent.begin; i < split; ++i)
            leftWeight += weights[i];
        m_weightBefore[std::size_t(parent.leftChild)] = m_weightBefore[cellIndex];
        m_weightBefore[std::size_t(parent.leftChild) + 1] = m_weightBefore[cellIndex] + leftWeight;
    }
}

void OrbCpu::domainOfBodies(std::vector<std::uint32_t>& out) const {
    out.resize(m_bodyCount);
    for (const OrbCell& cell : m_cells)
        if (cell.isLeaf())
            std::fill(out.begin() + cell.begin, out.begin() + cell.end, cell.firstDomain);
}

OrbImbalance OrbCpu::imbalance(std::span<const float> weights) const {
    if (!weights.empty() && weights.size() != m_bodyCount)
        throw std::invalid_argument("ORB imbalance: " + std::to_string(weights.size()) + " weights for " +
                                    std::to_string(m_bodyCount) + " bodies");
    if (!weights.empty() && !(std::accumulate(weights.begin(), weights.end(), 0.0) > 0))
        throw std::invalid_argument("ORB imbalance: the weights sum to zero");
    return orbImbalance(m_cells, weights);
}

} // namespace gravlab
