#pragma once
// The scan over a split cell's tiles that its last tile runs once the pivot is known: each tile's offsets for the
// scatter, the extreme keys on either side, the ties that go left (under work balance by their weights in index order),
// then the cut and the children. Shared by the count pass (OrbGpuPartition.cu) and by the last radix pass
// (OrbGpuSelect.cu), which counts the tiles on its way and so spares the scatter its look-back and, mostly, work
// balance its count pass. See OrbGpu.hpp for the design.
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

/// The sums of a scan over a split cell's tiles, in shared memory, which thread 0 writes.
struct SplitSums {
    std::uint64_t tilesBelow;    ///< tiles whose ties all go left under work balance
    std::uint64_t weightBelow;   ///< the weight of the ties in those tiles
    std::uint64_t leftWeight;    ///< the weight of the ties that go left, once decided (tiesGoingLeft)
    std::uint32_t maxLessKey;    ///< the largest key below the pivot
    std::uint32_t minGreaterKey; ///< the smallest key above the pivot
};

/// A tile's bodies against its cell's pivot as the count pass left them: (below, equal), (largest key below, smallest
/// key above) and, when weights is set, the weight of the bodies equal to the pivot.
struct CountedTiles {
    const OrbLevel& level;
    __device__ __forceinline__ void read(std::uint32_t tile, bool weights, uint2& counts, uint2& extremes,
                                         std::uint64_t& equalWeight) const {
        counts = __ldcg(&level.tileCounts[tile]);
        extremes = __ldcg(&level.tileExtremes[tile]);
        equalWeight = weights ? __ldcg(&level.tileEqualWeight[tile]) : 0ull;
    }
};

/// The same for a split whose last radix pass just fixed the final digit: each tile of that pass left its bodies below
/// the digits fixed before it and their largest key, the smallest key above them, and the final digits and places of
/// the bodies matching them (at most kOrbTileMatchSlots; those are few, see OrbGpu.hpp), so the counts need no further
/// pass, and the weights of the bodies equal to the pivot are read from their places.
struct SelectedTiles {
    const OrbLevel& level;
    const OrbSplit& split;
    std::uint32_t lowestMatch; ///< the lowest key with the digits the passes before the last one fixed
    std::uint32_t pivot;       ///< ~0u when no bin held the target: every body goes left
    __device__ __forceinline__ void read(std::uint32_t tile, bool weights, uint2& counts, uint2& extremes,
                                         std::uint64_t& equalWeight) const {
        const uint2 tally = __ldcg(&level.tileCounts[tile]); // (below the fixed digits, matching them)
        extremes = __ldcg(&level.tileExtremes[tile]);
        counts = make_uint2(tally.x, 0);
        equalWeight = 0;
        const std::uint32_t* matches = level.tileMatches + std::size_t(tile) * kOrbTileMatchSlots;
        const float* tileWeights = level.from.weight + tileOf(split, tile).first;
        const float scale = weights ? weightScale(level.state->weightExponent) : 0.0f;
        for (std::uint32_t m = 0; m < tally.y; ++m) {
            const std::uint32_t match = __ldcg(&matches[m]);
            // From the digits the tally compared with, not from the pivot, which is ~0u when no bin was found.
            const std::uint32_t key = lowestMatch + orbTileMatchDigit(match);
            if (key < pivot) {
                ++counts.x;
                extremes.x = max(extremes.x, key);
            } else if (key == pivot) {
                ++counts.y;
                if (weights)
                    equalWeight += fixedWeight(tileWeights[orbTileMatchPlace(match)], scale);
            } else {
                extremes.y = min(extremes.y, key);
            }
        }
    }
};

/// One chunk of a split cell's tiles (kTilesPerThread per thread), block-wide: writes each tile's scatter offset (the
/// exclusive scan of the counts, (below, equal), continuing from countCarry), adds the chunk's tiles whose ties all go
/// left and the extreme keys to sums, and advances the carries of counts and tie weights (read only when
/// useWeights).
template <typename TileSource>
__device__ __forceinline__ void scanTileChunk(const OrbLevel& level, const OrbSplit& split, const TileSource& tiles,
                                              std::uint32_t chunk, bool useWeights, TileScanStorage& storage,
                                              SplitSums& sums, std::uint64_t& countCarry, std::uint64_t& weightCarry) {
    std::uint64_t counts[kTilesPerThread], countsBefore[kTilesPerThread];
    std::uint64_t weights[kTilesPerThread], weightsBefore[kTilesPerThread];
    uint2 extremes[kTilesPerThread];
    for (int k = 0; k < kTilesPerThread; ++k) {
        const std::uint32_t t = chunk + threadIdx.x * kTilesPerThread + k;
        const bool valid = t < split.tileCount;
        uint2 tileCount = make_uint2(0, 0);
        extremes[k] = make_uint2(0, ~0u);
        weights[k] = 0;
        if (valid)
            tiles.read(split.tileBegin + t, useWeights, tileCount, extremes[k], weights[k]);
        counts[k] = (std::uint64_t(tileCount.x) << 32) | tileCount.y;
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
        sums.tilesBelow += below;
        sums.weightBelow += belowWeight;
        sums.maxLessKey = max(sums.maxLessKey, std::uint32_t(largestLess));
        sums.minGreaterKey = min(sums.minGreaterKey, std::uint32_t(smallestGreater));
    }
    __syncthreads();
    countCarry += countTotal;
    weightCarry += weightTotal;
}

/// Block-wide: every tile of a split cell scanned (scanTileChunk, a chunk at a time) into sums, which it starts;
/// returns the cell's counts ((below << 32) | equal) and sets equalWeight to the weight of its ties (with useWeights).
template <typename TileSource>
__device__ __forceinline__ std::uint64_t scanSplitTiles(const OrbLevel& level, const OrbSplit& split,
                                                        const TileSource& tiles, bool useWeights, SplitSums& sums,
                                                        std::uint64_t& equalWeight) {
    __shared__ TileScanStorage storage;
    if (threadIdx.x == 0) {
        sums.tilesBelow = sums.weightBelow = sums.leftWeight = 0;
        sums.maxLessKey = 0;
        sums.minGreaterKey = ~0u;
    }
    std::uint64_t counts = 0;
    equalWeight = 0;
    for (std::uint32_t chunk = 0; chunk < split.tileCount; chunk += kOrbTileThreads * kTilesPerThread)
        scanTileChunk(level, split, tiles, chunk, useWeights, storage, sums, counts, equalWeight);
    return counts;
}

/// Work balance: ties with the pivot go left in index order while the middle of their weight lies below the target
/// left over after the bodies below the pivot (Orb.hpp's rule), 2 (before + w / 2) < 2 target in fixed point. The
/// rule is monotone along the ties, so only the tile where it flips needs reading, block-wide: every thread loads its
/// rows at once (as the count kernel does), the warps' tie weights give each warp the weight of the ties before it,
/// and each warp then walks its rows in index order, scanning only rows that hold a tie (few: ties are rare outside
/// lattices). Returns, in thread 0, the ties of that tile that go left and adds their weight to leftWeight.
__device__ inline std::uint32_t leftTiesInTile(const OrbLevel& level, const OrbSplit& split, std::uint32_t localTile,
                                               std::uint64_t weightBefore, std::uint64_t& leftWeight) {
    __shared__ std::uint64_t warpTieWeight[kWarpsPerTile], warpLeftWeight[kWarpsPerTile];
    __shared__ std::uint32_t warpLeftTies[kWarpsPerTile];
    const Tile tile = tileOf(split, split.tileBegin + localTile);
    float coordinates[kRowsPerWarp], rowWeights[kRowsPerWarp];
    loadTileRows<true>(tile, level.from.coordinate[split.axis], level.from.weight, coordinates, rowWeights);
    const float scale = weightScale(level.state->weightExponent);
    const auto tieWeight = [&](int row) {
        const bool tie = tile.holds(row) && orderedKey(coordinates[row]) == split.pivot;
        return tie ? fixedWeight(rowWeights[row], scale) : 0ull;
    };
    const int lane = int(threadIdx.x & 31), warp = int(threadIdx.x / 32);
    std::uint64_t warpTotal = 0;
    for (int row = 0; row < kRowsPerWarp; ++row)
        warpTotal += tieWeight(row);
    warpTotal = warpSum(warpTotal);
    if (lane == 0)
        warpTieWeight[warp] = warpTotal;
    __syncthreads();
    for (int w = 0; w < warp; ++w)
        weightBefore += warpTieWeight[w];
    std::uint32_t ties = 0;
    std::uint64_t tiesWeight = 0;
    for (int row = 0; row < kRowsPerWarp; ++row) {
        const bool tie = tile.holds(row) && orderedKey(coordinates[row]) == split.pivot;
        if (__ballot_sync(kFullWarp, tie) == 0)
            continue;
        const std::uint64_t weight = tieWeight(row);
        std::uint64_t inclusive = weight;
        for (int offset = 1; offset < 32; offset *= 2) {
            const std::uint64_t below = __shfl_up_sync(kFullWarp, inclusive, offset);
            if (lane >= offset)
                inclusive += below;
        }
        const std::uint64_t before = weightBefore + inclusive - weight;
        const bool left = tie && 2 * before + weight < 2 * split.target;
        ties += __popc(__ballot_sync(kFullWarp, left));
        tiesWeight += warpSum(left ? weight : 0ull);
        weightBefore += __shfl_sync(kFullWarp, inclusive, 31);
    }
    if (lane == 0) {
        warpLeftTies[warp] = ties;
        warpLeftWeight[warp] = tiesWeight;
    }
    __syncthreads();
    if (threadIdx.x != 0)
        return 0;
    for (int w = 0; w < kWarpsPerTile; ++w) {
        ties += w == 0 ? 0 : warpLeftTies[w];
        leftWeight += warpLeftWeight[w];
    }
    return ties;
}

/// How many of the cell's equalCount ties with the pivot go left, block-wide: by rank under count balance, else all
/// ties of the tiles before the one where the weight rule flips plus those of that tile that still go left
/// (equalWeight: the weight of all ties), after scanSplitTiles. Sets sums.leftWeight (thread 0) to the weight of the
/// ties that go left; the result is valid in thread 0.
__device__ __forceinline__ std::uint32_t tiesGoingLeft(const OrbLevel& level, const OrbSplit& split, bool useWeights,
                                                       std::uint32_t lessCount, std::uint32_t equalCount,
                                                       std::uint64_t equalWeight, SplitSums& sums) {
    std::uint32_t tiesLeft = 0;
    if (!useWeights) {
        tiesLeft = split.countRank > lessCount ? min(split.countRank - lessCount, equalCount) : 0u;
    } else if (sums.tilesBelow == split.tileCount) {
        tiesLeft = equalCount;
        if (threadIdx.x == 0)
            sums.leftWeight = equalWeight;
    } else {
        // Ties of the tiles before the flipping one all go left; their count is that tile's offset.
        const std::uint32_t flipTile = std::uint32_t(sums.tilesBelow);
        tiesLeft = level.tileOffsets[split.tileBegin + flipTile].y;
        std::uint64_t tileLeftWeight = 0;
        const std::uint32_t ties = leftTiesInTile(level, split, flipTile, sums.weightBelow, tileLeftWeight);
        if (threadIdx.x == 0) {
            tiesLeft += ties;
            sums.leftWeight = sums.weightBelow + tileLeftWeight;
        }
    }
    return tiesLeft;
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

/// Block-wide, in the block that selected a split's final digit from its last radix pass's tally (SelectedTiles;
/// lowestMatch: the lowest key with the pivot's digits fixed before that pass): the scatter's tile offsets, the cut and
/// the children, so the scatter reads its offsets instead of looking back. With kDecideTies a split that the selection
/// left unresolved (work balance, several bodies on the pivot with a target left) is resolved here from the weights of
/// its matches, so it needs no count pass; the tally's selection inside a tile (a cell of one tile) leaves that to the
/// count pass and keeps its code small.
template <bool kDecideTies>
__device__ __forceinline__ void finishSelectedSplit(const OrbLevel& level, OrbSplit& split, std::uint32_t lowestMatch) {
    __shared__ SplitSums sums;
    const bool decideTies = kDecideTies && split.resolved == 0;
    const SelectedTiles tiles{level, split, lowestMatch, split.pivot};
    std::uint64_t equalWeight;
    const std::uint32_t equalCount = std::uint32_t(scanSplitTiles(level, split, tiles, decideTies, sums, equalWeight));
    std::uint32_t tiesLeft = 0;
    if (decideTies)
        tiesLeft = tiesGoingLeft(level, split, true, split.lessCount, equalCount, equalWeight, sums);
    if (threadIdx.x != 0)
        return;
    if (decideTies) {
        split.tiesLeft = tiesLeft;
        split.leftTieWeight = sums.leftWeight;
        split.split = split.begin + split.lessCount + tiesLeft;
        split.resolved = 1;
    }
    // The children's boundary from the selection's count below the pivot, the one the scatter's split body came from
    // (the tile scan's sum equals it whenever every match fitted its slots, the only case that reaches here).
    placeCut(level, split, split.lessCount, equalCount, split.tiesLeft, sums.maxLessKey, sums.minGreaterKey,
             split.leftTieWeight);
    split.offsetsReady = 1;
}

} // namespace gravlab::orbdevice
