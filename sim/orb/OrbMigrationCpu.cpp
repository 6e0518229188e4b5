#include "orb/OrbMigrationCpu.hpp"

#include "orb/OrbLocate.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

/// leafOfDomain[d]: index into cells of the leaf that is domain d.
std::vector<std::uint32_t> leavesByDomain(const std::vector<OrbCell>& cells) {
    std::vector<std::uint32_t> leafOfDomain(cells.front().domainCount);
    for (std::uint32_t index = 0; index < cells.size(); ++index)
        if (cells[index].isLeaf())
            leafOfDomain.at(cells[index].firstDomain) = index;
    return leafOfDomain;
}

/// values[slot] becomes values[order[slot]], through a scratch array of the same type.
template <typename Value> void gather(std::vector<Value>& values, const std::vector<std::uint32_t>& order) {
    std::vector<Value> scratch(order.size());
    for (std::size_t slot = 0; slot < order.size(); ++slot)
        scratch[slot] = values[order[slot]];
    values.swap(scratch);
}

void growRootToCover(std::vector<OrbCell>& cells, const Bodies& bodies) {
    const OrbCell oldRoot = cells.front();
    float lower[3], upper[3];
    const std::vector<float>* coordinates[3] = {&bodies.x, &bodies.y, &bodies.z};
    for (int axis = 0; axis < 3; ++axis) {
        const auto [low, high] = std::minmax_element(coordinates[axis]->begin(), coordinates[axis]->end());
        lower[axis] = std::min(*low, oldRoot.lower[axis]);
        upper[axis] = std::max(*high, oldRoot.upper[axis]);
    }
    for (OrbCell& cell : cells)
        orbGrowOuterFaces(cell, oldRoot, lower, upper);
}

} // namespace

std::uint64_t migrateOrbCpu(std::vector<OrbCell>& cells, Bodies& bodies, std::vector<float>& work) {
    const std::size_t count = bodies.size();
    if (cells.empty() || cells.front().begin != 0 || cells.front().end != count)
        throw std::invalid_argument("ORB migration: the cells do not describe these " + std::to_string(count) +
                                    " bodies");
    if (!work.empty() && work.size() != count)
        throw std::invalid_argument("ORB migration: " + std::to_string(work.size()) + " work weights for " +
                                    std::to_string(count) + " bodies");
    const std::vector<std::uint32_t> leafOfDomain = leavesByDomain(cells);
    const std::uint32_t domainCount = cells.front().domainCount;
    const OrbCell& root = cells.front();

    // 1 and 2: detect leavers and append them to their destination's buffer.
    std::vector<std::vector<std::uint32_t>> arrivals(domainCount);
    std::vector<std::uint32_t> stayers(domainCount, 0);
    std::vector<bool> leaves(count, false);
    std::uint64_t migrated = 0;
    for (std::uint32_t domain = 0; domain < domainCount; ++domain) {
        const OrbCell& leaf = cells[leafOfDomain[domain]];
        for (std::uint32_t i = leaf.begin; i < leaf.end; ++i) {
            const float x = bodies.x[i], y = bodies.y[i], z = bodies.z[i];
            const std::uint32_t destination =
                orbLeafHolds(leaf, root, x, y, z) ? leafOfDomain[domain] : orbDescend(cells.data(), x, y, z);
            if (destination == leafOfDomain[domain]) {
                ++stayers[domain];
                continue;
            }
            arrivals[cells[destination].firstDomain].push_back(i);
            leaves[i] = true;
            ++migrated;
        }
    }
    if (migrated == 0) {
        growRootToCover(cells, bodies);
        return 0;
    }

    // 3: new ranges, then the permutation order[newSlot] = old index, applied to one array at a time.
    std::vector<std::uint32_t> newBegin(domainCount + 1, 0);
    for (std::uint32_t domain = 0; domain < domainCount; ++domain)
        newBegin[domain + 1] = newBegin[domain] + stayers[domain] + std::uint32_t(arrivals[domain].size());
    std::vector<std::uint32_t> order;
    order.reserve(count);
    for (std::uint32_t domain = 0; domain < domainCount; ++domain) {
        const OrbCell& leaf = cells[leafOfDomain[domain]];
        for (std::uint32_t i = leaf.begin; i < leaf.end; ++i)
            if (!leaves[i])
                order.push_back(i);
        order.insert(order.end(), arrivals[domain].begin(), arrivals[domain].end());
    }
    forEachBodyArray(bodies, [&](auto& array) { gather(array, order); });
    if (!work.empty())
        gather(work, order);

    // 4: ranges of all cells from their leaves, and the outer faces.
    for (OrbCell& cell : cells) {
        cell.begin = newBegin[cell.firstDomain];
        cell.end = newBegin[cell.firstDomain + cell.domainCount];
    }
    growRootToCover(cells, bodies);
    return migrated;
}

} // namespace gravlab
