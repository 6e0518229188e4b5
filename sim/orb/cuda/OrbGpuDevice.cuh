#pragma once
// Device helpers shared by the GPU ORB's kernels: ordered keys, fixed-point weights, warp reductions, finding a tile's
// cell, the tile geometry and the "last tile of a cell" hand-off. See OrbGpu.hpp for the design.
#include "device/cuda/DeviceAttributes.hpp"
#include "orb/cuda/OrbGpuKernels.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace gravlab::orbdevice {

inline constexpr unsigned kFullWarp = 0xffffffffu;
inline constexpr int kWarpsPerTile = int(kOrbTileThreads / 32);
inline constexpr int kRowsPerWarp = int(kOrbTileBodies / kOrbTileThreads); // rows of 32 consecutive bodies
static_assert(kWarpsPerTile * kRowsPerWarp * 32 == int(kOrbTileBodies));
static_assert(kOrbRadixBins % kOrbTileThreads == 0, "whole bins per thread when a block selects a digit");

/// Maps a float to an unsigned key with the same order; -0 is first made +0 so that it ties with +0 as the CPU's
/// float comparison does (the index then decides, as in Orb.hpp).
__device__ __forceinline__ std::uint32_t orderedKey(float coordinate) {
    if (coordinate == 0.0f)
        coordinate = 0.0f;
    const std::uint32_t bits = __float_as_uint(coordinate);
    return (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
}

__device__ __forceinline__ float keyToFloat(std::uint32_t key) {
    return __uint_as_float((key & 0x80000000u) ? key & 0x7fffffffu : ~key);
}

/// 2^exponent as a float, for the fixed-point exponents the build picks (within [-126, 127]).
__device__ __forceinline__ float weightScale(int exponent) {
    return __int_as_float((127 + exponent) << 23);
}

/// The units in which the radix passes and the scatter's children's bins sum narrow weights (state.narrowShift >= 0,
/// see OrbBuildState): a body counts narrowWeight(weight, scale), and sums shifted left by `shift` are the fixed-point
/// sums. The narrow integers are weight * 2^(weightExponent - narrowShift), an exponent at least the weights' binary
/// digits below the point. Where those are none (every weight an integer, as interaction counts are: `integral`), the
/// units are the weights themselves, scale 1 and shift weightExponent, with sums no larger and so below 2^32 per tile
/// too; a radix pass then converts each weight without a product (WeightPath::Integer).
struct NarrowUnits {
    float scale;
    int shift;
    bool integral;
};

/// The units where no narrow weights are in force: the fixed point itself (sums shifted by 0).
inline constexpr NarrowUnits kFixedPointUnits{1.0f, 0, false};

__device__ __forceinline__ NarrowUnits narrowUnits(const OrbBuildState& state) {
    if (state.fractionBits == 0)
        return {1.0f, state.weightExponent, true};
    return {weightScale(state.weightExponent - state.narrowShift), state.narrowShift, false};
}

/// Weights above this (up to FLT_MAX) count as not finite, as infinity and NaN do.
inline constexpr float kLargestOrbWeight = 3.4e38f;

/// A weight the build accepts: finite and >= 0 (-0 too).
__device__ __forceinline__ bool validWeight(float weight) {
    return weight >= 0.0f && weight <= kLargestOrbWeight;
}

/// A weight that adds to the sums: valid and not zero. Invalid weights count as 0 there, since the build refuses them
/// afterwards.
__device__ __forceinline__ bool positiveWeight(float weight) {
    return weight > 0.0f && weight <= kLargestOrbWeight;
}

/// The weight as an integer (weight * 2^exponent rounded, scale = weightScale(exponent)): sums of integers are exact
/// and independent of the order of the atomics, so the cuts are deterministic. A product with a power of two is exact,
/// so this equals scalbnf's result for a few instructions less per body.
__device__ __forceinline__ std::uint64_t fixedWeight(float weight, float scale) {
    return positiveWeight(weight) ? __float2ull_rn(weight * scale) : 0ull;
}

/// A weight as the narrow integer it is at `scale` (NarrowUnits). The conversion saturates, so negative weights, -0 and
/// NaN give 0 as positiveWeight would have them, with no comparison on the radix passes' path; infinite weights and
/// weights above kLargestOrbWeight give values that make the sums wrong, but such a build is refused
/// (OrbBuildState::invalidWeights) and leaves the bodies untouched.
__device__ __forceinline__ std::uint32_t narrowWeight(float weight, float scale) {
    return __float2uint_rn(weight * scale);
}

/// Work balance is in force: requested, and the weights do not all vanish.
__device__ __forceinline__ bool weighted(const OrbLevel& level) {
    return level.workBalance && level.state->weighted != 0;
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// A 64-bit warp sum as three 32-bit reductions of chunks of at most 27 bits, whose sums over 32 lanes fit 32 bits:
/// in the work-balanced radix passes it runs once per row and group, where shuffles took ten instructions and carries.
__device__ __forceinline__ std::uint64_t warpSumOfChunks(std::uint64_t value) {
    constexpr std::uint32_t kChunk = (1u << 27) - 1;
    const std::uint32_t low = __reduce_add_sync(kFullWarp, std::uint32_t(value) & kChunk);
    const std::uint32_t middle = __reduce_add_sync(kFullWarp, std::uint32_t(value >> 27) & kChunk);
    const std::uint32_t high = __reduce_add_sync(kFullWarp, std::uint32_t(value >> 54));
    return (std::uint64_t(high) << 54) + (std::uint64_t(middle) << 27) + low;
}
#endif

// Warp reductions by shuffles, except unsigned sums from sm_80 on (one reduction for 32 bits, three for 64): the
// __reduce_*_sync intrinsics need sm_80, and Gravlab also builds for sm_75.
template <typename T> __device__ __forceinline__ T warpSum(T value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (sizeof(T) == 8 && std::is_unsigned_v<T>)
        return T(warpSumOfChunks(value));
    else if constexpr (sizeof(T) == 4 && std::is_unsigned_v<T>)
        return T(__reduce_add_sync(kFullWarp, std::uint32_t(value)));
    else
#endif
    {
        for (int offset = 16; offset > 0; offset /= 2)
            value += __shfl_xor_sync(kFullWarp, value, offset);
        return value;
    }
}
__device__ __forceinline__ std::uint32_t warpMin(std::uint32_t value) {
    for (int offset = 16; offset > 0; offset /= 2)
        value = min(value, __shfl_xor_sync(kFullWarp, value, offset));
    return value;
}
__device__ __forceinline__ std::uint32_t warpMax(std::uint32_t value) {
    for (int offset = 16; offset > 0; offset /= 2)
        value = max(value, __shfl_xor_sync(kFullWarp, value, offset));
    return value;
}
__device__ __forceinline__ unsigned laneMaskBelow() {
    return (1u << (threadIdx.x & 31)) - 1u;
}

/// The split whose tiles include `tile`, or -1 past the level's last tile. Splits are sorted by tileBegin; cells with
/// no tile share the tileBegin of the next, so the last split with tileBegin <= tile is the one with tiles. Warp-wide
/// (every lane of a full warp calls it): a 32-way search, so at most three dependent loads for the 2048 splits of the
/// deepest level of 4096 domains where a binary search needs eleven, each at the head of every tile kernel.
__device__ __forceinline__ int findSplit(const OrbSplit* splits, std::uint32_t count, std::uint32_t tile) {
    const std::uint32_t lane = threadIdx.x & 31;
    std::uint32_t low = 0, span = 1; // the answer lies in [low, low + span)
    while (span < count)
        span *= 32;
    while (span > 1) {
        const std::uint32_t step = span / 32;
        const std::uint32_t probe = low + lane * step;
        // Probes at or before the tile form a prefix of the lanes, since tileBegin does not decrease.
        const unsigned atOrBefore = __ballot_sync(kFullWarp, probe < count && splits[probe].tileBegin <= tile);
        if (atOrBefore == 0)
            return -1;
        low += std::uint32_t(31 - __clz(atOrBefore)) * step;
        span = step;
    }
    if (count == 0 || splits[low].tileBegin > tile)
        return -1;
    const OrbSplit& split = splits[low];
    return tile < split.tileBegin + split.tileCount ? int(low) : -1;
}

/// A block's tile: its bodies [first, first + count), and where this thread's body of row r of its warp lies in it.
/// Body indices fit 32 bits (a build holds at most 2^32 - 1 bodies), and a row is valid when its offset is below count,
/// so no index past the tile is ever formed. Loads go through the tile's base pointer, so each unrolled row's address
/// is that base plus a constant.
struct Tile {
    std::uint32_t local; ///< tile number within the cell
    std::uint32_t first; ///< the tile's first body
    std::uint32_t count; ///< its bodies, at most kOrbTileBodies
    __device__ __forceinline__ std::uint32_t offset(int row) const {
        return (threadIdx.x / 32) * (kRowsPerWarp * 32) + std::uint32_t(row) * 32 + (threadIdx.x & 31);
    }
    __device__ __forceinline__ bool holds(int row) const { return offset(row) < count; }
    __device__ __forceinline__ std::uint32_t body(int row) const { return first + offset(row); }
};

__device__ __forceinline__ Tile tileOf(const OrbSplit& split, std::uint32_t tile) {
    Tile result;
    result.local = tile - split.tileBegin;
    result.first = split.begin + result.local * kOrbTileBodies;
    result.count = min(kOrbTileBodies, split.end - result.first);
    return result;
}

/// Where most splits of a level skip a kernel (the count pass, which only unresolved splits need; a first radix pass
/// whose digits the scatter above already counted), launching a block per tile spends the kernel on blocks that only
/// find their split done: at 2^27 bodies a level has 33,000 tiles, and such a kernel took about 65 us per level (H200,
/// 2^27 / 4096 under work balance: 52.83 ms with the idle count pass, 52.04 without it). Such a kernel is launched
/// with at most one wave of blocks instead (chunkedTileBlocks), each walking a contiguous chunk of the level's tiles
/// and stepping over a skipping split's tiles at once: visit(splitIndex, tile) for each tile of a split that
/// !skips(split), with a barrier after each, so that the visit's shared memory is free for the next. Where the level's
/// tiles fit one wave, each block walks one tile, as a block per tile would. A split's skip is read before any of this
/// block's tiles of it contribute, so the split's last tile, which may change what it reads, runs after that read.
/// Block-wide: every thread calls it.
template <typename Skips, typename Visit>
__device__ __forceinline__ void forEachTileOfChunk(const OrbLevel& level, Skips&& skips, Visit&& visit) {
    const std::uint32_t perBlock = (level.gridTiles + gridDim.x - 1) / gridDim.x;
    std::uint32_t tile = blockIdx.x * perBlock;
    const std::uint32_t end = min(level.gridTiles, tile + perBlock);
    while (tile < end) {
        const int splitIndex = findSplit(level.splits, level.splitCount, tile);
        if (splitIndex < 0)
            return; // past the level's last tile
        const OrbSplit& split = level.splits[splitIndex];
        const std::uint32_t splitEnd = min(end, split.tileBegin + split.tileCount);
        if (skips(split)) {
            tile = splitEnd;
            continue;
        }
        for (; tile < splitEnd; ++tile) {
            visit(splitIndex, tile);
            __syncthreads();
        }
    }
}

/// This thread's coordinates along the cut axis and weights (0 without weights) of its rows of tile; rows past the
/// tile's end read as 0. All loads are issued before any is used, so a warp waits one memory latency, not one per row.
template <bool kWeights>
__device__ __forceinline__ void loadTileRows(const Tile& tile, const float* along, const float* weight,
                                             float (&coordinates)[kRowsPerWarp], float (&rowWeights)[kRowsPerWarp]) {
    const float* tileAlong = along + tile.first;
    const float* tileWeight = kWeights ? weight + tile.first : nullptr;
    for (int row = 0; row < kRowsPerWarp; ++row) {
        const bool valid = tile.holds(row);
        coordinates[row] = valid ? tileAlong[tile.offset(row)] : 0.0f;
        rowWeights[row] = kWeights && valid ? tileWeight[tile.offset(row)] : 0.0f;
    }
}

/// Called by every thread after the block has published its tile's contribution to the split (global atomics or
/// stores): true in exactly one block per split, the last to arrive, which then sees every contribution. It resets the
/// counter for the next step. One thread fences, after the barrier: a fence is cumulative, so it orders every thread's
/// contribution that the barrier ordered before it (as a cooperative grid sync does), and the block's other warps do
/// not wait at fences of their own (H200, against a fence in every thread: 2^20 bodies / 64 domains 0.330 -> 0.325 ms
/// under count balance and 0.471 -> 0.465 under work balance; 2^27 / 4096 47.3 -> 46.9 and 61.5 -> 61.2).
__device__ __forceinline__ bool lastTileOfSplit(OrbSplit& split) {
    __shared__ bool isLast;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        isLast = atomicAdd(&split.tilesDone, 1u) == split.tileCount - 1;
        if (isLast) {
            split.tilesDone = 0;
            __threadfence();
        }
    }
    __syncthreads();
    return isLast;
}

/// Records that tiesLeft of the bodies equal to the pivot go left, with leftTieWeight of their weight, which resolves
/// the split: the scatter finds its offsets and places the cut without a count pass.
__device__ __forceinline__ void decideTies(OrbSplit& split, std::uint32_t tiesLeft, std::uint64_t leftTieWeight) {
    split.tiesLeft = tiesLeft;
    split.leftTieWeight = leftTieWeight;
    split.split = split.begin + split.lessCount + tiesLeft;
    split.resolved = 1;
}

/// Once the pivot is found by radix select, with lessCount, equalCount and (work balance) equalWeight and the target
/// left over: decides how many ties go left when the selection alone can. Count balance always can (the rank left
/// over); work balance can when there is no tie, one tie, or no target left (ties go left in index order while the
/// middle of their weight lies below the target, which needs the ties' weights in index order only when there are
/// several).
__device__ __forceinline__ void resolveTies(OrbSplit& split, bool useWeights) {
    std::uint32_t tiesLeft = 0;
    if (!useWeights)
        tiesLeft = min(split.rank, split.equalCount);
    else if (split.equalCount == 1 && split.target > 0)
        tiesLeft = split.equalWeight < 2 * split.target ? 1u : 0u;
    else if (split.equalCount > 1 && split.target > 0)
        return;
    decideTies(split, tiesLeft, tiesLeft == split.equalCount ? split.equalWeight : 0);
}

/// Finishes a split with every body of its cell left: the pivot becomes a key above every finite coordinate's, and no
/// body equals it; `found` says by whom (OrbSplit::done). One thread.
__device__ __forceinline__ void finishWithEveryBodyLeft(OrbSplit& split, bool useWeights,
                                                        std::uint32_t found = kOrbPivotFound) {
    split.pivot = ~0u;
    split.lessCount = split.end - split.begin;
    split.done = found;
    resolveTies(split, useWeights);
}

/// Work balance, for a split whose ties resolveTies could not decide (several, with a target left): notes that they
/// needed their weights in index order, which only the count pass reads. Where no count pass follows
/// (OrbLevel::guessesTies) the split is decided by a guess, every tie going right, so that the rest of the build stays
/// within its ranges, and the build is void: the final gather leaves the bodies untouched and the host builds again
/// with the count pass. One thread.
__device__ __forceinline__ void noteTiesToOrder(const OrbLevel& level, OrbSplit& split) {
    level.state->tiesToOrder = 1;
    if (!level.guessesTies)
        return;
    level.state->guessFailed = 1;
    decideTies(split, 0, 0);
}

/// Writes the two children of a split cell: boxes cut at `cut` along the axis, body ranges split at `split`, and
/// under work balance the weight before each child.
__device__ __forceinline__ void writeChildren(const OrbLevel& level, const OrbSplit& split, float cut,
                                              std::uint32_t splitIndex, std::uint64_t leftWeight) {
    const OrbCell& parent = level.cells[split.cell];
    OrbCell& left = level.cells[parent.leftChild];
    OrbCell& right = level.cells[parent.leftChild + 1];
    for (int axis = 0; axis < 3; ++axis) {
        left.lower[axis] = right.lower[axis] = parent.lower[axis];
        left.upper[axis] = right.upper[axis] = parent.upper[axis];
    }
    left.upper[split.axis] = cut;
    right.lower[split.axis] = cut;
    left.begin = parent.begin;
    left.end = right.begin = splitIndex;
    right.end = parent.end;
    const std::uint64_t before = level.cellWeightBefore[split.cell];
    level.cellWeightBefore[parent.leftChild] = before;
    level.cellWeightBefore[parent.leftChild + 1] = before + leftWeight;
}

/// A split's body range and tiles from its cell, as every level's layout takes them.
__device__ __forceinline__ void takeCellRange(OrbSplit& split, const OrbCell& cell) {
    split.begin = cell.begin;
    split.end = cell.end;
    split.tilesDone = 0;
    split.tileCount = std::uint32_t((std::uint64_t(cell.end - cell.begin) + kOrbTileBodies - 1) / kOrbTileBodies);
}

/// The keys a cell is cut along: its longest side (the cut axis), the ordered keys of its box's sides there, and the
/// bits that range spans (0 when it holds one key). The layout prepares a split from it, and a scatter that takes the
/// children's first pass finds their first digit from it.
struct CutKeyRange {
    int axis;
    std::uint32_t low, high;
    std::uint32_t bits;
};

__device__ __forceinline__ CutKeyRange keyRange(int axis, std::uint32_t low, std::uint32_t high) {
    return {axis, low, high, std::uint32_t(32 - __clz(high - low))};
}

__device__ __forceinline__ CutKeyRange cutKeyRange(const OrbCell& cell) {
    const int axis = longestAxis(cell);
    return keyRange(axis, orderedKey(cell.lower[axis]), orderedKey(cell.upper[axis]));
}

/// The bit where the first radix digit of a key range of `bits` bits starts when the range needs every pass (its top
/// kOrbRadixDigitBits bits): the digit a scatter counts for a child, and the one the child's selection then picks.
__device__ __forceinline__ int firstDigitShift(std::uint32_t bits) {
    return int(bits) - kOrbRadixDigitBits;
}

/// Work balance: the weight left of a cut whose left domains end at leftDomainsEnd, the global target W (f + l) / np
/// for a total W of the fixed-point weights (a split's own target is this less the weight before its cell).
__device__ __forceinline__ std::uint64_t globalWorkTarget(const OrbLevel& level, std::uint32_t leftDomainsEnd,
                                                          std::uint64_t total) {
    return std::uint64_t(double(total) * double(leftDomainsEnd) / double(level.domainCount));
}

/// Under radix select, once the total weight is summed (by the root's first pass, or by the root's layout where every
/// body lies at one point): records it and gives the root its target (the root's domains start at 0, and no weight
/// lies before it). One thread.
__device__ __forceinline__ void takeRootTotal(const OrbLevel& level, OrbSplit& root, std::uint64_t total) {
    level.state->totalWeight = total;
    root.target = globalWorkTarget(level, leftDomainCount(level.domainCount), total);
}

/// Prepares one split: its cut axis, the key range of its box (radix select skips the digits the range fixes;
/// bisection starts from it) and its target. Returns false for a cell with no body, which it finishes at once.
__device__ __forceinline__ bool prepareSplit(const OrbLevel& level, OrbSplit& split, OrbCutFinder finder) {
    OrbCell& cell = level.cells[split.cell];
    const CutKeyRange range = cutKeyRange(cell);
    const int axis = range.axis;
    cell.cutAxis = axis;
    split.axis = axis;
    const std::uint32_t low = range.low, high = range.high;
    split.pivot = low; // radix select: the pivot once the range holds one key; bisection: the bracket's lower end
    split.done = low == high ? kOrbPivotFound : 0u;
    if (finder == OrbCutFinder::RadixSelect) {
        // Every body's key lies in [low, high] (the records are finite and the cuts bound the children), so the digits
        // span that range alone: as few passes as its bits need, the last ending at bit 0 so that it is the level's
        // last pass, and a first digit that spreads the cell over its bins instead of over a float's exponents.
        const std::uint32_t bits = range.bits;
        const std::uint32_t passes = (bits + kOrbRadixDigitBits - 1) / kOrbRadixDigitBits;
        split.firstPass = kOrbRadixPasses - passes;
        split.keyBase = low;
        split.keyBits = bits;
        split.fixedDigits = 0;
    } else {
        split.high = high;
    }
    const std::uint32_t leftDomainsEnd = cell.firstDomain + leftDomainCount(cell.domainCount);
    split.countRank = countBalancedDomainBegin(level.bodyCount, leftDomainsEnd, level.domainCount) - cell.begin;
    split.rank = split.countRank;
    split.lessWeight = 0;
    split.target = 0;
    // The root's first pass finds its own target, once its bins hold the total (rootPassSumsWeights).
    if (weighted(level) && !(level.rootPassSumsWeights && split.cell == 0)) {
        const std::uint64_t target = globalWorkTarget(level, leftDomainsEnd, level.state->totalWeight);
        const std::uint64_t before = level.cellWeightBefore[split.cell];
        split.target = target > before ? target - before : 0;
    }
    split.tiesLeft = 0;
    split.split = cell.begin;
    split.roundCount = 0;
    split.roundWeight = 0;
    split.lessCount = 0;
    split.equalCount = 0;
    split.equalWeight = 0;
    split.leftTieWeight = 0;
    split.resolved = 0;
    split.offsetsReady = 0;
    split.matchOverflow = 0;
    if (finder == OrbCutFinder::RadixSelect && split.done != 0 && !weighted(level)) {
        split.equalCount = cell.end - cell.begin; // every key is the pivot
        resolveTies(split, false);
    } else if (finder == OrbCutFinder::RadixSelect && split.done != 0 && cell.end > cell.begin) {
        noteTiesToOrder(level, split); // every key is the pivot, and the ties' weights are not summed here
    }
    if (cell.end > cell.begin)
        return true;
    writeChildren(level, split, cell.lower[axis], cell.begin, 0);
    return false;
}

/// Blocks for a kernel that walks the level's tiles in chunks (forEachTileOfChunk): one per tile, at most as many as
/// fit the device at once (or level.chunkedBlocks).
template <typename... Parameters>
std::uint32_t chunkedTileBlocks(const OrbLevel& level, void (*kernel)(Parameters...)) {
    std::uint64_t blocks =
        std::uint64_t(multiprocessorCount()) * std::uint64_t(residentBlocksPerMultiprocessor(kernel, kOrbTileThreads));
    if (level.chunkedBlocks > 0)
        blocks = std::min<std::uint64_t>(blocks, level.chunkedBlocks);
    return std::uint32_t(std::min<std::uint64_t>(level.gridTiles, std::max<std::uint64_t>(blocks, 1)));
}

} // namespace gravlab::orbdevice
