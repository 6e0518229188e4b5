#pragma once
// The layout of one ORB level, run by one block (device code shared by OrbGpu.cu's layout kernel and the cooperative
// level kernel): each split's cut axis, key range and target, and the level's tiles. The design note is in OrbGpu.hpp.
#include "orb/cuda/OrbGpuDevice.cuh"

#include <cub/block/block_scan.cuh>

namespace gravlab::orbdevice {

/// Prepares one split: its cut axis, the key range of its box (radix select skips the digits the range fixes;
/// bisection starts from it) and its target. Returns false for a cell with no body, which it finishes at once.
__device__ inline bool prepareSplit(const OrbLevel& level, OrbSplit& split, OrbCutFinder finder) {
    OrbCell& cell = level.cells[split.cell];
    int axis = 0;
    for (int candidate = 1; candidate < 3; ++candidate) // longestAxis() of Orb.hpp, which is host-only
        if (cell.upper[candidate] - cell.lower[candidate] > cell.upper[axis] - cell.lower[axis])
            axis = candidate;
    cell.cutAxis = axis;
    split.axis = axis;
    const std::uint32_t low = orderedKey(cell.lower[axis]), high = orderedKey(cell.upper[axis]);
    const int fixedBits = __clz(low ^ high); // 32 when every key of the cell is the same
    // Passes whose digits lie entirely in the fixed bits; the last pass's digit ends at bit 0.
    split.firstPass = fixedBits == 32 ? kOrbRadixPasses : std::uint32_t(fixedBits / kOrbRadixDigitBits);
    if (finder == OrbCutFinder::RadixSelect) {
        const int fixedPassBits = int(split.firstPass) * kOrbRadixDigitBits;
        split.pivot = fixedPassBits >= 32 ? low : split.firstPass == 0 ? 0u : low & ~(0xffffffffu >> fixedPassBits);
        split.done = split.firstPass == kOrbRadixPasses ? 1u : 0u;
    } else {
        split.pivot = low;
        split.high = high;
        split.done = low == high ? 1u : 0u;
    }
    // leftDomainCount() of Orb.hpp, host-only: ceil(d / 2).
    const std::uint32_t leftDomainsEnd = cell.firstDomain + cell.domainCount - cell.domainCount / 2;
    const std::uint32_t countSplit = std::uint32_t(std::uint64_t(level.bodyCount) * leftDomainsEnd / level.domainCount);
    split.countRank = countSplit - cell.begin;
    split.rank = split.countRank;
    split.lessWeight = 0;
    split.target = 0;
    if (weighted(level)) {
        const double total = double(level.state->totalWeight);
        const std::uint64_t target = std::uint64_t(total * double(leftDomainsEnd) / double(level.domainCount));
        const std::uint64_t before = level.cellWeightBefore[split.cell];
        split.target = target > before ? target - before : 0;
    }
    split.maxLessKey = 0;
    split.minGreaterKey = ~0u;
    split.tiesLeft = 0;
    split.split = cell.begin;
    split.roundCount = 0;
    split.roundWeight = 0;
    if (cell.end > cell.begin)
        return true;
    writeChildren(level, split, cell.lower[axis], cell.begin, 0);
    return false;
}

// One block per level: per split 1 cell read, about 100 bytes written; a block scan per 256 splits lays out the tiles;
// 4 bytes written per tile of the level when the one-pass partition follows.
__device__ inline void layOutLevel(const OrbLevel& level, bool rootLevel, OrbCutFinder finder) {
    using Scan = cub::BlockScan<std::uint64_t, kOrbTileThreads>;
    __shared__ typename Scan::TempStorage scanStorage;
    if (rootLevel && threadIdx.x == 0) {
        OrbCell& root = level.cells[0];
        for (int axis = 0; axis < 3; ++axis) {
            root.lower[axis] = keyToFloat(~level.state->lowInverted[axis]);
            root.upper[axis] = keyToFloat(level.state->high[axis]);
        }
    }
    __syncthreads();
    std::uint64_t carry = 0; // (tiles << 32) | bin slots of the splits before this chunk
    for (std::uint32_t chunk = 0; chunk < level.splitCount; chunk += kOrbTileThreads) {
        const std::uint32_t j = chunk + threadIdx.x;
        std::uint64_t packed = 0;
        if (j < level.splitCount) {
            OrbSplit& split = level.splits[j];
            const OrbCell& cell = level.cells[split.cell];
            split.begin = cell.begin;
            split.end = cell.end;
            split.tilesDone = 0;
            const std::uint32_t tiles =
                std::uint32_t((std::uint64_t(cell.end - cell.begin) + kOrbTileBodies - 1) / kOrbTileBodies);
            split.tileCount = tiles;
            const bool active = split.copyOnly == 0 && prepareSplit(level, split, finder);
            packed = (std::uint64_t(tiles) << 32) | (active && tiles > 1 ? 1u : 0u);
        }
        std::uint64_t before, aggregate;
        Scan(scanStorage).ExclusiveSum(packed, before, aggregate);
        if (j < level.splitCount) {
            level.splits[j].tileBegin = std::uint32_t((carry + before) >> 32);
            level.splits[j].binSlot = std::uint32_t(carry + before);
        }
        carry += aggregate;
        __syncthreads();
    }
    // The one-pass partition's look-back starts from cleared tile statuses (the previous level left its own there).
    if (level.tileStatus != nullptr)
        for (std::uint32_t tile = threadIdx.x; tile < level.gridTiles; tile += kOrbTileThreads)
            level.tileStatus[tile] = 0;
}

} // namespace gravlab::orbdevice
