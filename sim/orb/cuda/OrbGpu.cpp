#include "orb/cuda/OrbGpu.hpp"

#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceAttributes.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gravlab {

void OrbGpu::layOutCells(std::uint32_t bodyCount, std::uint32_t domainCount) {
    if (m_layoutBodies == bodyCount && m_layoutDomains == domainCount)
        return;
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
    m_levelSplitBegin.assign(1, 0);
    m_levelBegin.assign(1, 0);
    m_widestMultiTileLevel = 0;
    m_widestChildLevel = 0;
    // Levels that split anything get one entry per cell: inner cells are split, leaves (at most one level above the
    // deepest, when np is not a power of two) are copied so that all final records end in the same buffer.
    while (m_levelBegin.back() < m_hostCells.size()) {
        const std::size_t levelStart = m_levelBegin.back(), levelEnd = m_hostCells.size();
        std::uint32_t splitCells = 0;
        for (std::size_t index = levelStart; index < levelEnd; ++index) {
            OrbCell& parent = m_hostCells[index];
            OrbSplit entry{};
            entry.cell = std::uint32_t(index);
            entry.copyOnly = parent.domainCount > 1 ? 0u : 1u;
            m_hostSplits.push_back(entry);
            if (parent.domainCount <= 1)
                continue;
            ++splitCells;
            const std::uint32_t leftDomains = leftDomainCount(parent.domainCount);
            parent.leftChild = std::int32_t(m_hostCells.size());
            OrbCell left = parent, right = parent;
            left.leftChild = right.leftChild = -1;
            left.domainCount = leftDomains;
            right.domainCount = parent.domainCount - leftDomains;
            right.firstDomain = parent.firstDomain + leftDomains;
            m_hostCells.push_back(left);
            m_hostCells.push_back(right);
        }
        if (splitCells == 0)
            m_hostSplits.resize(m_levelSplitBegin.back());
        else
            m_levelSplitBegin.push_back(std::uint32_t(m_hostSplits.size()));
        m_widestMultiTileLevel = std::max(m_widestMultiTileLevel, std::min(splitCells, bodyCount / kOrbTileBodies + 1));
        if (levelStart > 0 && splitCells > 0)
            m_widestChildLevel = std::max(m_widestChildLevel, std::uint32_t(levelEnd - levelStart));
        m_levelBegin.push_back(levelEnd);
    }
    m_cells.resize(m_hostCells.size());
    m_cells.upload(m_hostCells, nullptr);
    m_splits.resize(m_hostSplits.size());
    m_splits.upload(m_hostSplits, nullptr);
    CUDA_CHECK(cudaStreamSynchronize(nullptr)); // the host vectors may change before a later build's upload
    m_layoutBodies = bodyCount;
    m_layoutDomains = domainCount;
}

void OrbGpu::reserve(std::size_t bodyCount, bool weights) {
    for (int side = 0; side < 2; ++side) {
        m_recordBuffers[side].resize(bodyCount);
        m_weightBuffers[side].resize(weights ? bodyCount : 0);
    }
    std::size_t tiles = 0;
    for (std::size_t level = 0; level + 1 < m_levelSplitBegin.size(); ++level) {
        const std::size_t entries = m_levelSplitBegin[level + 1] - m_levelSplitBegin[level];
        tiles = std::max(tiles, (bodyCount + entries * (kOrbTileBodies - 1)) / kOrbTileBodies);
    }
    if (m_tileCounts.size() < tiles) {
        m_tileCounts.resize(tiles);
        m_tileOffsets.resize(tiles);
        m_tileExtremes.resize(tiles);
        m_tileMatches.resize(tiles * kOrbTileMatchSlots);
    }
    const std::size_t lookBackWords = (m_levelSplitBegin.size() - 1) * lookBackStride();
    if (m_lookBack.size() < lookBackWords)
        m_lookBack.resize(lookBackWords);
    if (weights && m_tileEqualWeight.size() < tiles)
        m_tileEqualWeight.resize(tiles);
    // Bin slots: a level's cells of more than one tile in its passes, then every split of a level below the root when
    // its parent's scatter takes its first pass (OrbLevel::childBins).
    const std::size_t bins = std::size_t(m_widestMultiTileLevel + m_widestChildLevel) * kOrbRadixBins;
    if (m_cutFinder == OrbCutFinder::RadixSelect && m_binCounts.size() < bins)
        m_binCounts.resize(bins);
    if (m_cutFinder == OrbCutFinder::RadixSelect && weights && m_binWeights.size() < bins)
        m_binWeights.resize(bins);
    if (m_cellWeightBefore.size() != m_hostCells.size())
        m_cellWeightBefore.resize(m_hostCells.size());
    m_state.resize(1);
}

OrbScratchToClear OrbGpu::scratchToClear() {
    OrbScratchToClear scratch;
    int range = 0;
    const auto clear = [&](void* data, std::size_t bytes) {
        scratch.words[range] = static_cast<std::uint64_t*>(data);
        scratch.count[range] = bytes / sizeof(std::uint64_t);
        ++range;
    };
    // Bins are cleared by the tile that reads them; clearing them here too keeps one failed build from leaking.
    clear(m_binCounts.data(), m_binCounts.bytes());
    clear(m_binWeights.data(), m_binWeights.bytes());
    clear(m_cellWeightBefore.data(), sizeof(std::uint64_t));
    clear(m_lookBack.data(), (m_levelSplitBegin.size() - 1) * lookBackStride() * sizeof(std::uint64_t));
    return scratch;
}

OrbRecords OrbGpu::rootRecords(std::size_t bodyCount, std::uint32_t domainCount) {
    OrbRecords result = records(0, bodyCount);
    if (domainCount > 1)
        result.index = nullptr;
    return result;
}

OrbRecords OrbGpu::records(int side, std::size_t bodyCount) {
    float* base = reinterpret_cast<float*>(m_recordBuffers[side].data());
    OrbRecords result{};
    for (int axis = 0; axis < 3; ++axis)
        result.coordinate[axis] = base + std::size_t(axis) * bodyCount;
    result.index = reinterpret_cast<std::uint32_t*>(base + 3 * bodyCount);
    result.weight = m_weightBuffers[side].empty() ? nullptr : m_weightBuffers[side].data();
    return result;
}

int OrbGpu::partitionLevels(std::uint32_t bodyCount, std::uint32_t domainCount, bool workBalance,
                            bool keepFinalCoordinates, cudaStream_t stream) {
    OrbLevel level{};
    level.cells = m_cells.data();
    level.cellWeightBefore = m_cellWeightBefore.data();
    level.state = m_state.data();
    level.tileCounts = m_tileCounts.data();
    level.tileOffsets = m_tileOffsets.data();
    level.tileExtremes = m_tileExtremes.data();
    level.tileEqualWeight = m_tileEqualWeight.data();
    level.tileMatches = m_tileMatches.data();
    level.binCounts = m_binCounts.data();
    level.binWeights = m_binWeights.data();
    level.childBinSlot = m_widestMultiTileLevel;
    level.bodyCount = bodyCount;
    level.domainCount = domainCount;
    level.workBalance = workBalance;
    const bool countPass = launchesCountPass(workBalance, bodyCount);
    level.guessesTies = workBalance && !countPass;
    level.movesFoundSplitsEarly = m_cutFinder == OrbCutFinder::RadixSelect && !countPass;
    level.guessesFirstPasses = guessesFirstPasses(workBalance, bodyCount);
    const bool tally = tallyLastPass(bodyCount);
    int side = 0;
    if (m_levelSplitBegin.size() == 1) { // one domain: only the root box
        launchOrbLayoutLevel(level, true, m_cutFinder, stream);
        return side;
    }
    bool laidOut = false; // by the children's layout after the scatter above
    for (std::size_t depth = 0; depth + 1 < m_levelSplitBegin.size(); ++depth) {
        const std::uint32_t first = m_levelSplitBegin[depth];
        level.splits = m_splits.data() + first;
        level.splitCount = m_levelSplitBegin[depth + 1] - first;
        level.gridTiles = std::uint32_t(
            (std::uint64_t(bodyCount) + std::uint64_t(level.splitCount) * (kOrbTileBodies - 1)) / kOrbTileBodies);
        level.from = depth == 0 ? rootRecords(bodyCount, domainCount) : records(side, bodyCount);
        level.to = records(1 - side, bodyCount);
        level.tallyLastPass = tally;
        level.rootPassSumsWeights = depth == 0 && rootPassSumsWeights(workBalance);
        level.firstPassesTaken = depth > 0 && chunkedFirstPasses(workBalance);
        level.chunkedBlocks = m_chunkedBlocks;
        // The scatter takes the children's first radix pass when the next level splits (its entries are one per cell).
        const bool nextLevelSplits = depth + 2 < m_levelSplitBegin.size();
        level.nextSplits = m_cutFinder == OrbCutFinder::RadixSelect && nextLevelSplits
                               ? m_splits.data() + m_levelSplitBegin[depth + 1]
                               : nullptr;
        level.nextFirstCell = std::uint32_t(m_levelBegin[depth + 1]);
        level.nextSplitCount = nextLevelSplits ? m_levelSplitBegin[depth + 2] - m_levelSplitBegin[depth + 1] : 0;
        const bool levelAfterNextSplits = depth + 3 < m_levelSplitBegin.size();
        level.splitsAfterNext = levelAfterNextSplits ? m_splits.data() + m_levelSplitBegin[depth + 2] : nullptr;
        level.firstCellAfterNext = levelAfterNextSplits ? std::uint32_t(m_levelBegin[depth + 2]) : 0;
        // The ticket in the low half of the level's first word, then the tiles' look-back words.
        std::uint64_t* levelWords = m_lookBack.data() + depth * lookBackStride();
        level.tileTicket = reinterpret_cast<std::uint32_t*>(levelWords);
        level.tileLookBack = levelWords + 1;
        if (!laidOut)
            launchOrbLayoutLevel(level, depth == 0, m_cutFinder, stream);
        launchOrbFindPivots(level, m_cutFinder, stream);
        if (countPass)
            launchOrbCountAndCut(level, stream);
        launchOrbScatter(level, depth + 2 == m_levelSplitBegin.size(), keepFinalCoordinates, stream);
        laidOut = level.nextSplits != nullptr;
        if (laidOut)
            launchOrbLayoutChildren(level, stream);
        side = 1 - side;
    }
    return side;
}

bool OrbGpu::tallyLastPass(std::uint32_t bodyCount) const {
    if (m_cutFinder != OrbCutFinder::RadixSelect || m_offsetSource == OrbTileOffsets::LookBack)
        return false;
    if (m_offsetSource == OrbTileOffsets::FromLastPass)
        return true;
    // Every level holds at least N / kOrbTileBodies tiles. While they are all resident in the scatter at once, its
    // look-back waits on tiles that are already running and costs about what the last pass's tally and scan cost
    // (H200, 2^20 bodies / 64 domains, 256 tiles on 264 slots: 0.360 ms either way under count balance, and 0.606
    // against 0.634 ms under work balance); beyond one wave a tile waits for tiles of an earlier wave, and the tally
    // pays (2^21 / 128: 0.718 -> 0.695 ms, 2^24 / 1024: 5.98 -> 5.69 ms, 2^27 / 4096: 52.0 -> 48.9 ms).
    const std::uint64_t tiles = (std::uint64_t(bodyCount) + kOrbTileBodies - 1) / kOrbTileBodies;
    return tiles > std::uint64_t(multiprocessorCount()) * kOrbScatterTilesPerMultiprocessor;
}

bool OrbGpu::checkState(cudaStream_t stream, bool workBalance, bool rerun) {
    OrbBuildState& state = m_lastState;
    CUDA_CHECK(cudaMemcpyAsync(&state, m_state.data(), sizeof(state), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    m_lastBuildWeighted = workBalance && state.weighted != 0;
    if (workBalance) {
        m_expectNarrowWeights = !m_lastBuildWeighted || state.narrowShift >= 0;
        m_expectTiesToOrder = (rerun && m_expectTiesToOrder) || state.tiesToOrder != 0;
    }
    m_expectOwnFirstPasses = (rerun && m_expectOwnFirstPasses) || state.ownFirstPasses != 0;
    if (state.nonFinite != 0)
        throw std::invalid_argument("ORB: " + std::to_string(state.nonFinite) +
                                    " position components are not finite; every position must be finite");
    if (workBalance && state.invalidWeights != 0)
        throw std::invalid_argument("ORB work balance: " + std::to_string(state.invalidWeights) +
                                    " body weights (acceleration.w) are negative or not finite; every weight must "
                                    "be finite and >= 0");
    return state.guessFailed == 0;
}

OrbGpu::GraphKey OrbGpu::graphKey(bool positionsOnly, bool workBalance, std::uint32_t bodyCount,
                                  std::uint32_t domainCount, std::array<const void*, 7> arrays) const {
    GraphKey key;
    key.positionsOnly = positionsOnly;
    key.workBalance = workBalance;
    key.bodyCount = bodyCount;
    key.domainCount = domainCount;
    key.chunkedFirstPasses = chunkedFirstPasses(workBalance);
    key.countPass = launchesCountPass(workBalance, bodyCount);
    key.guessesFirstPasses = guessesFirstPasses(workBalance, bodyCount);
    std::size_t slot = 0;
    const auto add = [&](const void* data, std::size_t size) {
        key.buffers[slot] = data;
        key.sizes[slot] = size;
        ++slot;
    };
    for (const void* array : arrays)
        add(array, 0);
    for (int side = 0; side < 2; ++side) {
        add(m_recordBuffers[side].data(), m_recordBuffers[side].size());
        add(m_weightBuffers[side].data(), m_weightBuffers[side].size());
    }
    add(m_cells.data(), m_cells.size());
    add(m_splits.data(), m_splits.size());
    add(m_cellWeightBefore.data(), m_cellWeightBefore.size());
    add(m_state.data(), m_state.size());
    add(m_tileCounts.data(), m_tileCounts.size());
    add(m_tileOffsets.data(), m_tileOffsets.size());
    add(m_tileExtremes.data(), m_tileExtremes.size());
    add(m_lookBack.data(), m_lookBack.size());
    add(m_tileEqualWeight.data(), m_tileEqualWeight.size());
    add(m_tileMatches.data(), m_tileMatches.size());
    add(m_binCounts.data(), m_binCounts.size());
    add(m_binWeights.data(), m_binWeights.size());
    add(m_loadOrderScratch.data(), m_loadOrderScratch.size());
    return key;
}

void OrbGpu::launchSequence(const GraphKey& key, const std::function<void(cudaStream_t)>& enqueue, cudaStream_t stream,
                            bool again) {
#if defined(GRAVLAB_CUDA_SYNC_CHECKS)
    (void)key;
    if (!again)
        m_buildStart.record(stream);
    enqueue(stream); // synchronising checks cannot be captured
#else
    auto cached = std::find_if(m_graphs.begin(), m_graphs.end(), [&](const auto& entry) { return entry.first == key; });
    if (cached == m_graphs.end()) {
        if (m_graphs.size() == kCachedGraphs)
            m_graphs.pop_back(); // the least recently used
        if (!m_captureStream)
            m_captureStream.emplace();
        CudaGraph graph;
        graph.capture(m_captureStream->get(), enqueue);
        m_graphs.emplace(m_graphs.begin(), key, std::move(graph));
    } else if (cached != m_graphs.begin()) {
        std::rotate(m_graphs.begin(), cached, cached + 1);
    }
    if (!again)
        m_buildStart.record(stream); // after any capture: the build's device time leaves the host's capture out
    m_graphs.front().second.launch(stream);
#endif
    m_buildStop.record(stream);
}

void OrbGpu::build(DeviceBodies& bodies, std::uint32_t domainCount, OrbBalance balance, cudaStream_t stream) {
    const std::size_t count = bodies.size();
    requireOrbSizes(count, domainCount);
    const std::uint32_t bodyCount = std::uint32_t(count);
    const bool workBalance = balance == OrbBalance::Work;
    layOutCells(bodyCount, domainCount);
    reserve(count, workBalance);
    m_loadOrderScratch.resize(domainCount > 1 ? count : 0);
    // The low parts (double precision) are part of the key: a graph captured without them would not move them.
    const int side = finalSide();
    m_finalOrder = records(side, count).index;
    const auto key = [&] {
        return graphKey(false, workBalance, bodyCount, domainCount,
                        {bodies.positionMass.data(), bodies.velocityColor.data(), bodies.acceleration.data(),
                         bodies.loadOrder.data(), bodies.positionLow.data(), bodies.velocityLow.data(),
                         bodies.accelerationLow.data()});
    };
    const auto enqueue = [&](cudaStream_t captured) {
        launchOrbExtractBodies(bodies.positionMass.data(), bodies.acceleration.data(), bodyCount,
                               rootRecords(count, domainCount), m_state.data(), scratchToClear(), captured);
        if (workBalance && !rootPassSumsWeights(workBalance))
            launchOrbTotalWeight(records(0, count), bodyCount, m_state.data(), captured);
        if (partitionLevels(bodyCount, domainCount, workBalance, false, captured) != side)
            throw std::logic_error("ORB: the final records are not in the buffer the layout predicts");
        if (domainCount > 1) {
            // The other record buffer is free now (16 bytes per body): each body array is gathered into the buffer
            // freed before it, and the buffers change owners after the replay (below), with no copy back. The load
            // order rides along with the first array, into a buffer of its own that changes owners too.
            float4* free = m_recordBuffers[1 - side].data();
            const std::vector<DeviceBuffer<float4>*> arrays = bodies.reorderedArrays();
            for (std::size_t a = 0; a < arrays.size(); ++a) {
                OrbLoadOrderStep loadOrder;
                if (a == 0) {
                    loadOrder.gatherSource = bodies.loadOrder.data();
                    loadOrder.gatherTarget = m_loadOrderScratch.data();
                }
                launchOrbGather(arrays[a]->data(), m_finalOrder, free, loadOrder, bodyCount, m_state.data(), captured);
                free = arrays[a]->data();
            }
        }
    };
    runChecked(key, enqueue, stream, workBalance); // throws before the rotation: the device left the bodies untouched
    if (domainCount > 1) {
        for (DeviceBuffer<float4>* array : bodies.reorderedArrays())
            std::swap(*array, m_recordBuffers[1 - side]);
        std::swap(bodies.loadOrder, m_loadOrderScratch);
    }
}

void OrbGpu::buildPositions(float* x, float* y, float* z, std::size_t count, std::uint32_t domainCount,
                            cudaStream_t stream) {
    requireOrbSizes(count, domainCount);
    const std::uint32_t bodyCount = std::uint32_t(count);
    layOutCells(bodyCount, domainCount);
    reserve(count, false);
    const int side = finalSide();
    m_finalOrder = records(side, count).index;
    const auto key = [&] {
        return graphKey(true, false, bodyCount, domainCount, {x, y, z, nullptr, nullptr, nullptr, nullptr});
    };
    const auto enqueue = [&](cudaStream_t captured) {
        launchOrbExtractPositions(x, y, z, bodyCount, rootRecords(count, domainCount), m_state.data(), scratchToClear(),
                                  captured);
        if (partitionLevels(bodyCount, domainCount, false, true, captured) != side)
            throw std::logic_error("ORB: the final records are not in the buffer the layout predicts");
        if (domainCount > 1)
            launchOrbCopyPositions(records(side, count), x, y, z, bodyCount, m_state.data(), captured);
    };
    runChecked(key, enqueue, stream, false);
}

void OrbGpu::runChecked(const std::function<GraphKey()>& key, const std::function<void(cudaStream_t)>& enqueue,
                        cudaStream_t stream, bool workBalance) {
    // A void run left the bodies untouched; its state says which guess failed, and the next run does without it. The
    // expectations only grow within a build (checkState), so each void run turns off one more of the two guesses (ties,
    // first passes): the third run guesses nothing.
    m_lastBuildRanAgain = false;
    for (int run = 0; run < 3; ++run) {
        launchSequence(key(), enqueue, stream, run > 0);
        if (checkState(stream, workBalance, run > 0))
            return;
        m_lastBuildRanAgain = true;
    }
    throw std::logic_error("ORB: a build that guessed nothing is void");
}

double OrbGpu::lastBuildMilliseconds() const {
    return elapsedMilliseconds(m_buildStart, m_buildStop);
}

std::vector<OrbCell> OrbGpu::downloadCells(cudaStream_t stream) const {
    std::vector<OrbCell> cells(m_cells.size());
    m_cells.download(cells, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return cells;
}

OrbImbalance OrbGpu::imbalance(const DeviceBodies& bodies, OrbBalance balance, cudaStream_t stream) const {
    if (m_cells.empty())
        throw std::logic_error("ORB imbalance: no domains have been built");
    const std::size_t cells = m_cells.size();
    m_leafLoads.resize(2 * cells + 5);
    const float4* weights = balance == OrbBalance::Work ? bodies.acceleration.data() : nullptr;
    launchOrbLeafLoads(m_cells.data(), std::uint32_t(cells), weights, m_leafLoads.data(),
                       m_leafLoads.data() + 2 * cells, stream);
    double loads[5] = {};
    CUDA_CHECK(cudaMemcpyAsync(loads, m_leafLoads.data() + 2 * cells, sizeof(loads), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const double largestCount = loads[0], largestWeight = loads[1], totalCount = loads[2], totalWeight = loads[3];
    const double leaves = loads[4];
    OrbImbalance result;
    result.memory = totalCount > 0 ? largestCount * leaves / totalCount : 1.0;
    if (!(totalWeight > 0))
        throw std::invalid_argument("ORB imbalance: the weights sum to zero");
    result.work = largestWeight * leaves / totalWeight;
    return result;
}

OrbGpu::DomainLoads OrbGpu::domainLoads(cudaStream_t stream) const {
    DomainLoads loads;
    loads.cells = downloadCells(stream);
    const std::vector<OrbCell>& cells = loads.cells;
    std::vector<std::uint64_t> weightBefore(cells.size(), 0);
    if (m_lastBuildWeighted) {
        m_cellWeightBefore.download(weightBefore, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    // Leaves in domain order: a domain's weight is the prefix of the next domain (or the total) minus its own.
    std::vector<const OrbCell*> leaves(cells.empty() ? 0 : cells.front().domainCount);
    std::vector<std::uint64_t> before(leaves.size() + 1, m_lastState.totalWeight);
    for (std::size_t c = 0; c < cells.size(); ++c)
        if (cells[c].isLeaf()) {
            leaves.at(cells[c].firstDomain) = &cells[c];
            before[cells[c].firstDomain] = weightBefore[c];
        }
    loads.weighted = m_lastBuildWeighted;
    const double unit = std::ldexp(1.0, -m_lastState.weightExponent); // one fixed-point step
    for (std::size_t d = 0; d < leaves.size(); ++d) {
        const double count = double(leaves[d]->bodyCount());
        loads.bodies.push_back(count);
        loads.weights.push_back(loads.weighted ? double(before[d + 1] - before[d]) * unit : count);
    }
    return loads;
}

OrbImbalance OrbGpu::imbalance(cudaStream_t stream) const {
    return imbalance(DeviceBodies{}, OrbBalance::Count, stream);
}

std::size_t OrbGpu::scatteredFirstPasses() const {
    const std::size_t splitLevels = m_levelSplitBegin.empty() ? 0 : m_levelSplitBegin.size() - 1;
    if (splitLevels < 2 || m_cutFinder != OrbCutFinder::RadixSelect)
        return 0;
    return splitLevels - 1;
}

double OrbGpu::modelledBytesPerBody(std::size_t splitLevels, OrbCutFinder finder, OrbBalance balance,
                                    bool positionsOnly, std::size_t scatteredFirstPasses) {
    const bool work = balance == OrbBalance::Work;
    const double keyPasses = finder == OrbCutFinder::RadixSelect ? double(kOrbRadixPasses) : 32;
    // Work balance: the weight read and written, and read again for the total (4 bytes) unless the root's first pass
    // sums it.
    const double sumWeights = work && !rootPassSumsWeights(work, finder, splitLevels > 0) ? 4 : 0;
    const double extract = (positionsOnly ? 12 : 16) + 16 + (work ? 16 + 4 : 0) + sumWeights;
    // The count pass runs under bisection; radix select resolves its splits without it (work balance: nearly all).
    const double countPass = finder == OrbCutFinder::Bisection ? 4 + (work ? 4 : 0) : 0;
    const double level = keyPasses * (4 + (work ? 4 : 0)) + countPass + 32 + (work ? 8 : 0);
    // Each float4 array gathered (index, random read, write); the load order gathered with the first (random read,
    // write).
    const double finish = positionsOnly ? 12 + 12 : 3 * (4 + 16 + 16) + (4 + 4);
    // The last level leaves the weights behind, and a build of the bodies moves the index alone there: the coordinate
    // along the cut and the index read, the index written (8 + 4 of 32 bytes).
    const double lastScatterSaved = splitLevels == 0 ? 0 : (work ? 8 : 0) + (positionsOnly ? 0 : 32 - 12);
    const double firstPassesSaved = double(scatteredFirstPasses) * (4 + (work ? 4 : 0));
    // Where the root splits, the extraction writes no index and the root's scatter reads none (rootRecords).
    const double rootIndexSaved = splitLevels == 0 ? 0 : 4 + 4;
    return extract + double(splitLevels) * level - lastScatterSaved - firstPassesSaved - rootIndexSaved + finish;
}

} // namespace gravlab
