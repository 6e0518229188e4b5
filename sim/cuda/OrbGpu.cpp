#include "OrbGpu.hpp"

#include "CudaCheck.hpp"

#include <SimParams.hpp>
#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>
#include <string>

namespace gravlab {

void OrbGpu::layOutCells(std::uint32_t bodyCount, std::uint32_t domainCount) {
    OrbCell root{};
    root.begin = 0;
    root.end = bodyCount;
    root.leftChild = -1;
    root.cutAxis = -1;
    root.firstDomain = 0;
    root.domainCount = domainCount;
    m_hostCells.assign(1, root);
    m_hostCells.reserve(2 * std::size_t(domainCount) - 1);
    m_hostSplits.clear();
    m_levelSplitBegin.clear();
    m_levelBegin.assign(1, 0);
    while (m_levelBegin.back() < m_hostCells.size()) {
        const std::size_t levelStart = m_levelBegin.back(), levelEnd = m_hostCells.size();
        m_levelSplitBegin.push_back(std::uint32_t(m_hostSplits.size()));
        for (std::size_t index = levelStart; index < levelEnd; ++index) {
            OrbCell parent = m_hostCells[index];
            if (parent.domainCount <= 1)
                continue;
            const std::uint32_t leftDomains = leftDomainCount(parent.domainCount);
            const std::uint32_t split =
                countBalancedDomainBegin(bodyCount, parent.firstDomain + leftDomains, domainCount);
            parent.leftChild = std::int32_t(m_hostCells.size());
            m_hostCells[index].leftChild = parent.leftChild;
            OrbCell left = parent, right = parent;
            left.leftChild = right.leftChild = -1;
            left.cutAxis = right.cutAxis = -1;
            left.end = right.begin = split;
            left.domainCount = leftDomains;
            right.domainCount = parent.domainCount - leftDomains;
            right.firstDomain = parent.firstDomain + leftDomains;
            m_hostCells.push_back(left);
            m_hostCells.push_back(right);
            OrbSplit work{};
            work.cell = std::uint32_t(index);
            work.begin = parent.begin;
            work.end = parent.end;
            work.split = split;
            m_hostSplits.push_back(work);
        }
        m_levelBegin.push_back(levelEnd);
    }
    m_levelSplitBegin.push_back(std::uint32_t(m_hostSplits.size()));
}

void OrbGpu::reserveScratch(std::size_t bodyCount) {
    if (m_keys.size() == bodyCount)
        return;
    m_keys.resize(bodyCount);
    m_bodySplit.resize(bodyCount);
    m_flags.resize(bodyCount);
    m_prefix.resize(bodyCount);
    m_scratch.resize(bodyCount);
}

void OrbGpu::build(DeviceBodies& bodies, std::uint32_t domainCount, cudaStream_t stream) {
    const std::size_t count = bodies.size();
    if (count == 0 || count > std::numeric_limits<std::uint32_t>::max())
        throw std::invalid_argument("ORB: the number of bodies is " + std::to_string(count) +
                                    ", allowed 1 to 4294967295");
    if (domainCount < 1 || domainCount > count)
        throw InvalidParameterError("orb-domains", "orb-domains = " + std::to_string(domainCount) +
                                                       " is out of range: allowed 1 to " + std::to_string(count) +
                                                       " (the number of bodies; every domain needs a body)");
    const std::uint32_t bodyCount = std::uint32_t(count);

    m_bounds.resize(7);
    launchOrbBounds(bodies.positionMass.data(), bodyCount, m_bounds.data(), stream);
    std::array<std::uint32_t, 7> bounds{};
    m_bounds.download(bounds, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (bounds[6] != 0)
        throw std::invalid_argument("ORB: " + std::to_string(bounds[6]) +
                                    " position components are not finite; every position must be finite");

    layOutCells(bodyCount, domainCount);
    for (int axis = 0; axis < 3; ++axis) {
        m_hostCells[0].lower[axis] = orbKeyToFloat(bounds[axis]);
        m_hostCells[0].upper[axis] = orbKeyToFloat(bounds[3 + axis]);
    }
    m_cells.resize(m_hostCells.size());
    m_cells.upload(m_hostCells, stream);
    m_splits.resize(m_hostSplits.size());
    m_splits.upload(m_hostSplits, stream);
    reserveScratch(count);

    float4* arrays[3] = {bodies.positionMass.data(), bodies.velocityColor.data(), bodies.acceleration.data()};
    std::uint32_t widestLevel = 0;
    for (std::size_t level = 0; level + 1 < m_levelSplitBegin.size(); ++level)
        widestLevel = std::max(widestLevel, m_levelSplitBegin[level + 1] - m_levelSplitBegin[level]);
    if (m_cutFinder == OrbCutFinder::RadixSelect && m_radixBins.size() < std::size_t(widestLevel) * kOrbRadixBins)
        m_radixBins.resize(std::size_t(widestLevel) * kOrbRadixBins);
    const OrbLevelBuffers buffers{m_cells.data(), m_splits.data(), m_keys.data(),    m_bodySplit.data(),
                                  m_flags.data(), m_prefix.data(), m_scratch.data(), m_radixBins.data()};
    for (std::size_t level = 0; level + 1 < m_levelSplitBegin.size(); ++level) {
        const std::uint32_t first = m_levelSplitBegin[level];
        const std::uint32_t splitCount = m_levelSplitBegin[level + 1] - first;
        if (splitCount > 0)
            launchOrbSplitLevel(arrays, bodyCount, buffers, first, splitCount, m_cutFinder, m_scanScratch, stream);
    }
}

std::vector<OrbCell> OrbGpu::downloadCells(cudaStream_t stream) const {
    std::vector<OrbCell> cells(m_cells.size());
    m_cells.download(cells, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return cells;
}

} // namespace gravlab
