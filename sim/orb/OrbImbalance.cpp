#include "orb/OrbImbalance.hpp"

#include <algorithm>
#include <stdexcept>

namespace gravlab {

OrbImbalance orbImbalance(std::span<const OrbCell> cells, std::span<const float> weights) {
    if (cells.empty() || cells.front().bodyCount() == 0)
        throw std::invalid_argument("ORB imbalance: there are no cells or no bodies");
    double largestCount = 0, largestWeight = 0, totalWeight = 0;
    for (const OrbCell& cell : cells) {
        if (!cell.isLeaf())
            continue;
        largestCount = std::max(largestCount, double(cell.bodyCount()));
        double weight = 0;
        for (std::uint32_t i = cell.begin; i < cell.end && !weights.empty(); ++i)
            weight += weights[i];
        largestWeight = std::max(largestWeight, weight);
        totalWeight += weight;
    }
    const double domains = cells.front().domainCount;
    OrbImbalance result;
    result.memory = largestCount * domains / double(cells.front().bodyCount());
    result.work = totalWeight > 0 ? largestWeight * domains / totalWeight : result.memory;
    return result;
}

} // namespace gravlab
