#pragma once
// The one-pass partition of a count-balanced ORB level after radix select, per tile: rank, move and cut in one pass
// (device code shared by OrbGpuOnePassPartition.cu's kernel and the cooperative level kernel).
//
// Design note: under count balance the radix select already knows everything the separate count kernel would measure.
// Each pass subtracts the bodies of the lower bins from the remaining rank, so when the last digit is fixed,
// split.rank is the pivot's rank among the bodies equal to it: rank ties go left, countRank - rank bodies lie below
// the pivot, and the cell splits at begin + countRank (all bodies go left when no pivot was found, pivot ~0). What
// the scatter still needs per body is its rank among the cell's bodies below and equal to the pivot, i.e. the counts
// of the cell's earlier tiles: a decoupled look-back (Merrill and Garland, "Single-pass Parallel Prefix Scan with
// Decoupled Look-back", 2016, as in CUB's scans) gives them in the same pass. Each tile publishes its own counts
// (status 1, tileCounts) and, once it knows the counts of all earlier tiles of its cell, the inclusive ones (status 2,
// tileOffsets); warp 0 of a later tile reads 32 predecessors at a time, nearest first, and stops at the nearest
// inclusive entry (the cell's first tile publishes one at once). Tiles wait only on tiles of lower block index, which
// the GPU dispatches first (CUB relies on the same order). The cut needs the largest key below the pivot when no tie
// goes left (one atomicMax per tile into the split; the right side's smallest key is the pivot itself, since the body
// of rank countRank is a tie that goes right); the last tile of the cell writes it and the children.
// Against the count kernel plus the scatter this saves one launch and one read of the keys per level, and the count
// kernel's latency-bound scan of the cell's tile counts by its last tile. The result is the same records, cells and
// cuts bit for bit (the same rules), so the count-balanced cells still equal OrbCpu's.
#include "orb/cuda/OrbGpuDevice.cuh"

namespace gravlab::orbdevice {

inline constexpr std::uint32_t kStatusCounts = 1;    // tileCounts holds the tile's own (below, equal) counts
inline constexpr std::uint32_t kStatusInclusive = 2; // tileOffsets holds the counts of the cell's tiles up to this one

__device__ __forceinline__ std::uint64_t packCounts(uint2 counts) {
    return (std::uint64_t(counts.x) << 32) | counts.y;
}

__device__ __forceinline__ void publish(const OrbLevel& level, std::uint32_t tile, std::uint32_t status, uint2 counts) {
    (status == kStatusInclusive ? level.tileOffsets : level.tileCounts)[tile] = counts;
    __threadfence();
    atomicExch(&level.tileStatus[tile], status);
}

/// Warp 0: the (below, equal) counts of the cell's tiles before `tile` (cell tiles from firstTile), packed as
/// (below << 32) | equal (each below 2^32, so the halves never carry into each other).
__device__ inline std::uint64_t countsBefore(const OrbLevel& level, std::uint32_t firstTile, std::uint32_t tile) {
    const int lane = int(threadIdx.x & 31);
    std::uint64_t sum = 0;
    for (std::int64_t nearest = std::int64_t(tile) - 1;; nearest -= 32) {
        const std::int64_t predecessor = nearest - lane;
        const bool inCell = predecessor >= std::int64_t(firstTile);
        std::uint32_t status = kStatusInclusive; // before the cell: an inclusive zero ends the walk
        do {
            if (inCell)
                status = *reinterpret_cast<volatile std::uint32_t*>(&level.tileStatus[predecessor]);
        } while (__any_sync(kFullWarp, status == 0));
        __threadfence();
        uint2 counts = make_uint2(0, 0);
        if (inCell)
            counts =
                __ldcg(status == kStatusInclusive ? &level.tileOffsets[predecessor] : &level.tileCounts[predecessor]);
        const unsigned inclusive = __ballot_sync(kFullWarp, status == kStatusInclusive);
        const int stop = inclusive != 0 ? __ffs(inclusive) - 1 : 31; // the nearest inclusive lane ends the sum
        sum += warpSum(lane <= stop ? packCounts(counts) : 0ull);
        if (inclusive != 0)
            return sum;
    }
}

/// Thread 0 of the cell's last tile: the cut (as placeCut in OrbGpuPartition.cuh, specialised to count balance) and the
/// children.
__device__ inline void placeCountBalancedCut(const OrbLevel& level, OrbSplit& split, const SplitPlacement& placement) {
    const OrbCell& parent = level.cells[split.cell];
    const std::uint32_t leftCount = placement.splitPoint - split.begin;
    const std::uint32_t maxLessKey = __ldcg(&split.maxLessKey);
    float cut;
    if (leftCount == 0) {
        cut = parent.lower[split.axis];
    } else if (leftCount == split.end - split.begin) {
        cut = parent.upper[split.axis];
    } else {
        const std::uint32_t leftKey = placement.tiesLeft > 0 ? split.pivot : maxLessKey;
        cut = float(0.5 * (double(keyToFloat(leftKey)) + double(keyToFloat(split.pivot))));
    }
    split.tiesLeft = placement.tiesLeft;
    split.split = placement.splitPoint;
    writeChildren(level, split, cut, placement.splitPoint, 0);
}

// Per body: 16 bytes read and 16 written, as the scatter alone; per tile 8 bytes of counts written twice, a look-back
// reading 12 bytes per predecessor visited (usually one or a few), one atomicMax.
__device__ inline void onePassPartitionTile(const OrbLevel& level, std::uint32_t tileIndex) {
    __shared__ std::uint32_t warpLess[kWarpsPerTile], warpEqual[kWarpsPerTile], warpMaxLess[kWarpsPerTile];
    __shared__ std::uint64_t tileBefore;
    const int splitIndex = findSplit(level.splits, level.splitCount, tileIndex);
    if (splitIndex < 0)
        return;
    OrbSplit& split = level.splits[splitIndex];
    const Tile tile = tileOf(split, tileIndex);
    TileRecords records;
    records.load(tile, level.from);
    if (split.copyOnly != 0) {
        records.copy(tile, level.to);
        return;
    }
    const bool found = split.pivot != ~0u;
    const SplitPlacement placement{split.begin, found ? split.begin + split.countRank : split.end,
                                   found ? split.rank : 0u};
    RowRanks ranks;
    ranks.rank(records, tile, split.axis, split.pivot);
    std::uint32_t maxLess = 0;
    for (int row = 0; row < kRowsPerWarp; ++row)
        if ((ranks.lessMask[row] >> (threadIdx.x & 31)) & 1u)
            maxLess = max(maxLess, orderedKey(records.along(split.axis, row)));
    maxLess = warpMax(maxLess);
    const int warp = int(threadIdx.x / 32);
    if ((threadIdx.x & 31) == 0) {
        warpLess[warp] = ranks.less;
        warpEqual[warp] = ranks.equal;
        warpMaxLess[warp] = maxLess;
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        uint2 own = make_uint2(0, 0);
        for (int w = 0; w < kWarpsPerTile; ++w) {
            own.x += warpLess[w];
            own.y += warpEqual[w];
            maxLess = max(maxLess, warpMaxLess[w]);
        }
        const std::uint32_t firstTile = split.tileBegin;
        std::uint64_t before = 0;
        if (tileIndex == firstTile) {
            if (threadIdx.x == 0)
                publish(level, tileIndex, kStatusInclusive, own);
        } else {
            if (threadIdx.x == 0)
                publish(level, tileIndex, kStatusCounts, own);
            before = countsBefore(level, firstTile, tileIndex);
            if (threadIdx.x == 0) {
                const std::uint64_t inclusive = before + packCounts(own);
                publish(level, tileIndex, kStatusInclusive,
                        make_uint2(std::uint32_t(inclusive >> 32), std::uint32_t(inclusive)));
            }
        }
        if (threadIdx.x == 0) {
            tileBefore = before;
            if (own.x > 0)
                atomicMax(&split.maxLessKey, maxLess);
        }
    }
    __syncthreads();
    std::uint32_t lessBefore = std::uint32_t(tileBefore >> 32), equalBefore = std::uint32_t(tileBefore);
    for (int w = 0; w < warp; ++w) {
        lessBefore += warpLess[w];
        equalBefore += warpEqual[w];
    }
    storeRanked(records, ranks, tile, placement, lessBefore, equalBefore, level.to);
    if (lastTileOfSplit(split) && threadIdx.x == 0)
        placeCountBalancedCut(level, split, placement);
}

} // namespace gravlab::orbdevice
