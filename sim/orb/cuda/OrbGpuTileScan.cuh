#pragma once
// The scan over a split cell's tiles that its last tile runs once the pivot is known: each tile's offsets for the
// scatter, the extreme keys on either side, then the cut and the children. Shared by the count pass
// (OrbGpuPartition.cu) and by the last radix pass (OrbGpuSelect.cu), which counts the tiles on its way and so spares
// the scatter its look-back. See OrbGpu.hpp for the design.
#include "orb/cuda/OrbGpuDevice.cuh"

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/functional>

namespace gravlab::orbdevice {

inline constexpr int kTilesPerThread = 4; // tile counts scanned per thread and round by a cell's last tile

using TileScan = cub::BlockScan<std::uint64_t, kOrbTileThreads>;
using TileReduce = cub::BlockReduce<std::uint64_t, kOrbTileThreads>;

/// The block's scratch for scanning and reducing the tile counts of a split cell.
union TileScanStorage {
    typename TileScan::TempStorage scan;
    typename TileReduce::TempStorage reduce;
};

/// The totals of a scan over a cell's tiles: references to its shared memory, which thread 0 writes.
struct SplitTotals {
    std::uint64_t& tilesBelow;    ///< tiles whose ties all go left under work balance
    std::uint64_t& weightBelow;   ///< the weight of the ties in those tiles
    std::uint32_t& maxLessKey;    ///< the largest key below the pivot
    std::uint32_t& minGreaterKey; ///< the smallest key above the pivot
};

/// A tile's bodies against its cell's pivot as the count pass left them: (below, equal) and (largest key below,
/// smallest key above).
struct CountedTiles {
    const OrbLevel& level;
    __device__ __forceinline__ void read(std::uint32_t tile, uint2& counts, uint2& extremes) const {
        counts = __ldcg(&level.tileCounts[tile]);
        extremes = __ldcg(&level.tileExtremes[tile]);
    }
};

/// The same for a split whose last radix pass just fixed the final digit: each tile of that pass left its bodies below
/// the digits fixed before it and their largest key, the smallest key above them, and the final digits of the bodies
/// matching them (at most kOrbTileMatchSlots; those are few, see OrbGpu.hpp), so the counts need no further pass.
struct SelectedTiles {
    const OrbLevel& level;
    std::uint32_t lowestMatch; ///< the lowest key with the digits the passes before the last one fixed
    std::uint32_t pivot;       ///< ~0u when no bin held the target: every body goes left
    __device__ __forceinline__ void read(std::uint32_t tile, uint2& counts, uint2& extremes) const {
        const uint2 tally = __ldcg(&level.tileCounts[tile]); // (below the fixed digits, matching them)
        extremes = __ldcg(&level.tileExtremes[tile]);
        counts = make_uint2(tally.x, 0);
        const std::uint16_t* matches = level.tileMatches + std::size_t(tile) * kOrbTileMatchSlots;
        for (std::uint32_t m = 0; m < tally.y; ++m) {
            // From the digits the tally compared with, not from the pivot, which is ~0u when no bin was found.
            const std::uint32_t key = lowestMatch + __ldcg(&matches[m]);
            if (key < pivot) {
                ++counts.x;
                extremes.x = max(extremes.x, key);
            } else if (key == pivot) {
                ++counts.y;
            } else {
                extremes.y = min(extremes.y, key);
            }
        }
    }
};

/// One chunk of a split cell's tiles (kTilesPerThread per thread), block-wide: writes each tile's scatter offset (the
/// exclusive scan of the counts, (below, equal), continuing from countCarry), adds the chunk's tiles whose ties all go
/// left and the extreme keys to totals, and advances the carries of counts and tie weights (tileEqualWeight, read
/// only when useWeights).
template <typename TileSource>
__device__ __forceinline__ void scanTileChunk(const OrbLevel& level, const OrbSplit& split, const TileSource& tiles,
                                              std::uint32_t chunk, bool useWeights, TileScanStorage& storage,
                                              const SplitTotals& totals, std::uint64_t& countCarry,
                                              std::uint64_t& weightCarry) {
    std::uint64_t counts[kTilesPerThread], countsBefore[kTilesPerThread];
    std::uint64_t weights[kTilesPerThread], weightsBefore[kTilesPerThread];
    uint2 extremes[kTilesPerThread];
    for (int k = 0; k < kTilesPerThread; ++k) {
        const std::uint32_t t = chunk + threadIdx.x * kTilesPerThread + k;
        const bool valid = t < split.tileCount;
        uint2 tileCount = make_uint2(0, 0);
        extremes[k] = make_uint2(0, ~0u);
        if (valid)
            tiles.read(split.tileBegin + t, tileCount, extremes[k]);
        counts[k] = (std::uint64_t(tileCount.x) << 32) | tileCount.y;
        weights[k] = valid && useWeights ? __ldcg(&level.tileEqualWeight[split.tileBegin + t]) : 0ull;
    }
    std::uint64_t countTotal, weightTotal;
    TileScan(storage.scan).ExclusiveSum(counts, countsBefore, countTotal);
    __syncthreads();
    TileScan(storage.scan).ExclusiveSum(weights, weightsBefore, weightTotal);
    __syncthreads();
    std::uint64_t below = 0, belowWeight = 0, largestLess = 0, smallestGreater = ~0u;
    for (int k = 0; k < kTilesPerThread; ++k) {
        const std::uint32_t t = chunk + threadIdx.x * kTilesPerThread + k;
        if (t >= split.tileCount)
            continue;
        largestLess = max(largestLess, std::uint64_t(extremes[k].x));
        smallestGreater = min(smallestGreater, std::uint64_t(extremes[k].y));
        const std::uint64_t before = countCarry + countsBefore[k];
        level.tileOffsets[split.tileBegin + t] = make_uint2(std::uint32_t(before >> 32), std::uint32_t(before));
        // Tiles whose ties all go left: even their last tie's weight ends below the target.
        if (useWeights && weightCarry + weightsBefore[k] + weights[k] < split.target) {
            ++below;
            belowWeight += weights[k];
        }
    }
    below = TileReduce(storage.reduce).Sum(below);
    __syncthreads();
    belowWeight = TileReduce(storage.reduce).Sum(belowWeight);
    __syncthreads();
    largestLess = TileReduce(storage.reduce).Reduce(largestLess, cuda::maximum<>{});
    __syncthreads();
    smallestGreater = TileReduce(storage.reduce).Reduce(smallestGreater, cuda::minimum<>{});
    if (threadIdx.x == 0) {
        totals.tilesBelow += below;
        totals.weightBelow += belowWeight;
        totals.maxLessKey = max(totals.maxLessKey, std::uint32_t(largestLess));
        totals.minGreaterKey = min(totals.minGreaterKey, std::uint32_t(smallestGreater));
    }
    __syncthreads();
    countCarry += countTotal;
    weightCarry += weightTotal;
}

/// One thread, once the ties are decided (tiesLeft; the split records them where they were decided, resolveTies or
/// the count pass): places the cut from the largest key below the pivot and the smallest above it, and writes the
/// children (leftWeight: the weight of the ties that go left).
__device__ __forceinline__ void placeCut(const OrbLevel& level, OrbSplit& split, std::uint32_t lessCount,
                                         std::uint32_t equalCount, std::uint32_t tiesLeft, std::uint32_t maxLessKey,
                                         std::uint32_t minGreaterKey, std::uint64_t leftWeight) {
    const OrbCell& parent = level.cells[split.cell];
    const std::uint32_t leftCount = lessCount + tiesLeft;
    float cut;
    if (leftCount == 0) {
        cut = parent.lower[split.axis];
    } else if (leftCount == split.end - split.begin) {
        cut = parent.upper[split.axis];
    } else {
        // The midpoint of the largest key on the left and the smallest on the right, rounded once, as in OrbCpu.
        const std::uint32_t leftKey = tiesLeft > 0 ? split.pivot : maxLessKey;
        const std::uint32_t rightKey = tiesLeft < equalCount ? split.pivot : minGreaterKey;
        cut = float(0.5 * (double(keyToFloat(leftKey)) + double(keyToFloat(rightKey))));
    }
    writeChildren(level, split, cut, split.begin + leftCount, split.lessWeight + leftWeight);
}

/// Block-wide, in the last tile of a split whose final radix pass resolved it (SelectedTiles; lowestMatch: the lowest
/// key with the pivot's digits fixed before that pass): the scatter's tile offsets, the cut and the children, so the
/// scatter reads its offsets instead of looking back.
__device__ __forceinline__ void finishSelectedSplit(const OrbLevel& level, OrbSplit& split, std::uint32_t lowestMatch) {
    __shared__ TileScanStorage storage;
    __shared__ std::uint64_t tilesBelow, weightBelow; // for the weight rule of ties, which resolved splits do not need
    __shared__ std::uint32_t maxLessKey, minGreaterKey;
    if (threadIdx.x == 0) {
        tilesBelow = weightBelow = 0;
        maxLessKey = 0;
        minGreaterKey = ~0u;
    }
    const SplitTotals totals{tilesBelow, weightBelow, maxLessKey, minGreaterKey};
    const SelectedTiles tiles{level, lowestMatch, split.pivot};
    std::uint64_t countCarry = 0, weightCarry = 0;
    for (std::uint32_t chunk = 0; chunk < split.tileCount; chunk += kOrbTileThreads * kTilesPerThread)
        scanTileChunk(level, split, tiles, chunk, false, storage, totals, countCarry, weightCarry);
    if (threadIdx.x != 0)
        return;
    // The children's boundary from the selection's count below the pivot, the one the scatter's split body came from
    // (the tile scan's sum equals it whenever every match fitted its slots, the only case that reaches here).
    placeCut(level, split, split.lessCount, std::uint32_t(countCarry), split.tiesLeft, maxLessKey, minGreaterKey,
             split.leftTieWeight);
    split.offsetsReady = 1;
}

} // namespace gravlab::orbdevice
