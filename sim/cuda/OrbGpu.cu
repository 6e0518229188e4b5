// Kernels of the GPU ORB: bounds, cut finding by radix select or bisection on ordered coordinate keys, stable in-place
// partition.
// The design note is in OrbGpu.hpp.
#include "CudaCheck.hpp"
#include "LaunchSize.hpp"
#include "OrbGpuKernels.hpp"
#include "TreeSorting.hpp"

#include <algorithm>
#include <cstring>

namespace gravlab {
namespace {

constexpr int kBisectionRounds = 32; // a bracket of at most 2^32 keys halves to one key in 32 rounds
constexpr unsigned kFullWarp = 0xffffffffu;
constexpr int kRadixDigitBits = 8;          // kOrbRadixBins = 2^8 bins per cell and pass
constexpr int kRadixPasses = 4;             // 4 bytes of key, most significant first
constexpr std::uint32_t kRadixChunk = 4096; // bodies per block of the histogram kernel (16 per thread)
constexpr unsigned kRadixThreads = 256;
static_assert(kOrbRadixBins == 1u << kRadixDigitBits && kRadixPasses * kRadixDigitBits == 32);

// Warp reductions by shuffles: the __reduce_*_sync intrinsics need sm_80, and Gravlab also builds for sm_75.
__device__ std::uint32_t warpMin(std::uint32_t value) {
    for (int offset = 16; offset > 0; offset /= 2)
        value = min(value, __shfl_xor_sync(kFullWarp, value, offset));
    return value;
}

__device__ std::uint32_t warpMax(std::uint32_t value) {
    for (int offset = 16; offset > 0; offset /= 2)
        value = max(value, __shfl_xor_sync(kFullWarp, value, offset));
    return value;
}

__device__ std::uint32_t warpSum(std::uint32_t value) {
    for (int offset = 16; offset > 0; offset /= 2)
        value += __shfl_xor_sync(kFullWarp, value, offset);
    return value;
}

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

__device__ __forceinline__ float component(const float4& value, int axis) {
    return axis == 0 ? value.x : axis == 1 ? value.y : value.z;
}

/// The same rule as longestAxis() in Orb.hpp (which is host-only): the longest side, ties to the lowest axis.
__device__ __forceinline__ int longestAxisOnDevice(const OrbCell& cell) {
    int axis = 0;
    for (int candidate = 1; candidate < 3; ++candidate)
        if (cell.upper[candidate] - cell.lower[candidate] > cell.upper[axis] - cell.lower[axis])
            axis = candidate;
    return axis;
}

unsigned gridFor(std::uint32_t count) {
    return launchSize1d(count).blocks;
}

// Per body: one 16-byte load, three key conversions; per warp: 7 atomics. Grid-stride so all lanes reach the
// full-warp reductions together.
__global__ void orbBoundsKernel(const float4* positionMass, std::uint32_t bodyCount, std::uint32_t* bounds) {
    std::uint32_t low[3] = {~0u, ~0u, ~0u}, high[3] = {0, 0, 0}, nonFinite = 0;
    for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < bodyCount; i += gridDim.x * blockDim.x) {
        const float4 p = positionMass[i];
        for (int axis = 0; axis < 3; ++axis) {
            const float c = component(p, axis);
            nonFinite += isfinite(c) ? 0 : 1;
            const std::uint32_t key = orderedKey(c);
            low[axis] = min(low[axis], key);
            high[axis] = max(high[axis], key);
        }
    }
    for (int axis = 0; axis < 3; ++axis) {
        low[axis] = warpMin(low[axis]);
        high[axis] = warpMax(high[axis]);
    }
    nonFinite = warpSum(nonFinite);
    if ((threadIdx.x & 31) == 0) {
        for (int axis = 0; axis < 3; ++axis) {
            atomicMin(&bounds[axis], low[axis]);
            atomicMax(&bounds[3 + axis], high[axis]);
        }
        if (nonFinite > 0)
            atomicAdd(&bounds[6], nonFinite);
    }
}

// Per split: reads its cell's box (24 bytes), writes 44 bytes.
__global__ void orbPrepareKernel(OrbCell* cells, OrbSplit* splits, std::uint32_t first, std::uint32_t count,
                                 bool radixSelect) {
    const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= count)
        return;
    OrbSplit& split = splits[first + j];
    OrbCell& cell = cells[split.cell];
    const int axis = longestAxisOnDevice(cell);
    cell.cutAxis = axis;
    split.axis = axis;
    split.low = radixSelect ? 0u : orderedKey(cell.lower[axis]);
    split.high = orderedKey(cell.upper[axis]);
    split.count = 0;
    split.rank = split.split - split.begin;
    split.less = 0;
    split.largestLeftKey = 0;
}

// Per body: a binary search over the level's splits (log2 of their count, cached reads), one 16-byte load, 8 bytes
// written. Bodies in cells that are already leaves get split -1 and stay where they are.
__global__ void orbAssignKernel(const float4* positionMass, std::uint32_t bodyCount, const OrbSplit* splits,
                                std::uint32_t first, std::uint32_t count, std::uint32_t* keys,
                                std::int32_t* bodySplit) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    std::uint32_t low = 0, high = count; // first split whose begin is > i
    while (low < high) {
        const std::uint32_t middle = (low + high) / 2;
        if (splits[first + middle].begin <= i)
            low = middle + 1;
        else
            high = middle;
    }
    std::int32_t owner = -1;
    if (low > 0 && i < splits[first + low - 1].end)
        owner = std::int32_t(first + low - 1);
    bodySplit[i] = owner;
    keys[i] = owner >= 0 ? orderedKey(component(positionMass[i], splits[owner].axis)) : 0;
}

/// Adds `votes` lanes' worth to splits[owner].*field once per group of lanes sharing the owner. All lanes of the warp
/// must call it.
__device__ __forceinline__ void warpAggregatedAdd(std::int32_t owner, bool vote, std::uint32_t* counter) {
    const unsigned peers = __match_any_sync(kFullWarp, owner);
    const unsigned votes = __ballot_sync(kFullWarp, vote) & peers;
    if (owner >= 0 && votes != 0 && int(threadIdx.x & 31) == __ffs(peers) - 1)
        atomicAdd(counter, unsigned(__popc(votes)));
}

// Per body per round: 8 bytes read, at most one atomic per warp and cell.
__global__ void orbCountKernel(const std::uint32_t* keys, const std::int32_t* bodySplit, std::uint32_t bodyCount,
                               OrbSplit* splits) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    std::int32_t owner = i < bodyCount ? bodySplit[i] : -1;
    bool vote = false;
    if (owner >= 0) {
        const OrbSplit& split = splits[owner];
        if (split.low < split.high)
            vote = keys[i] <= split.low + (split.high - split.low) / 2;
        else
            owner = -1;
    }
    warpAggregatedAdd(owner, vote, owner >= 0 ? &splits[owner].count : nullptr);
}

// Per split: the pivot key is the smallest key t with at least (split - begin) + 1 bodies at or below it.
__global__ void orbBisectKernel(OrbSplit* splits, std::uint32_t first, std::uint32_t count) {
    const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= count)
        return;
    OrbSplit& split = splits[first + j];
    if (split.low < split.high) {
        const std::uint32_t middle = split.low + (split.high - split.low) / 2;
        if (split.count >= split.split - split.begin + 1)
            split.high = middle;
        else
            split.low = middle + 1;
    }
    split.count = 0;
}

// Per body per pass: 8 bytes read (key, cell); bodies whose key matches their cell's fixed bytes add one to the bin of
// their next byte, one atomic per group of lanes sharing cell and byte: in shared memory for the cells of the chunk's
// first and last body (a chunk is smaller than almost every cell, so it rarely touches more), else in global memory.
__global__ void orbRadixHistogramKernel(const std::uint32_t* keys, const std::int32_t* bodySplit,
                                        std::uint32_t bodyCount, const OrbSplit* splits, std::uint32_t first, int shift,
                                        std::uint32_t* bins) {
    __shared__ std::uint32_t local[2 * kOrbRadixBins];
    const std::uint32_t chunkBegin = blockIdx.x * kRadixChunk;
    const std::uint32_t chunkEnd =
        std::uint32_t(min(std::uint64_t(chunkBegin) + kRadixChunk, std::uint64_t(bodyCount)));
    const std::int32_t home[2] = {bodySplit[chunkBegin], bodySplit[chunkEnd - 1]};
    for (std::uint32_t b = threadIdx.x; b < 2 * kOrbRadixBins; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    const bool matchFixedBytes = shift + kRadixDigitBits < 32;
    for (std::uint32_t offset = threadIdx.x; offset < kRadixChunk; offset += blockDim.x) {
        const std::uint64_t i = std::uint64_t(chunkBegin) + offset;
        std::int32_t owner = i < chunkEnd ? bodySplit[i] : -1;
        std::uint32_t digit = 0;
        if (owner >= 0) {
            const std::uint32_t key = keys[i];
            if (matchFixedBytes &&
                (key >> (shift + kRadixDigitBits)) != (splits[owner].low >> (shift + kRadixDigitBits)))
                owner = -1;
            digit = (key >> shift) & (kOrbRadixBins - 1);
        }
        const unsigned long long tag = owner >= 0 ? (std::uint64_t(owner) << kRadixDigitBits) | digit : ~0ull;
        const unsigned peers = __match_any_sync(kFullWarp, tag);
        if (owner >= 0 && int(threadIdx.x & 31) == __ffs(peers) - 1) {
            std::uint32_t* bin = owner == home[0]   ? &local[digit]
                                 : owner == home[1] ? &local[kOrbRadixBins + digit]
                                                    : &bins[std::size_t(owner - first) * kOrbRadixBins + digit];
            atomicAdd(bin, unsigned(__popc(peers)));
        }
    }
    __syncthreads();
    for (std::uint32_t b = threadIdx.x; b < 2 * kOrbRadixBins; b += blockDim.x) {
        const int slot = b < kOrbRadixBins ? 0 : 1;
        if (local[b] != 0 && home[slot] >= 0)
            atomicAdd(&bins[std::size_t(home[slot] - first) * kOrbRadixBins + b % kOrbRadixBins], local[b]);
    }
}

// Per split per pass, one warp: 1 KiB of bins read and zeroed, a warp scan; fixes the byte whose bucket holds the
// remaining rank and leaves the rank within that bucket.
__global__ void orbRadixSelectKernel(OrbSplit* splits, std::uint32_t first, std::uint32_t count, int shift,
                                     std::uint32_t* bins) {
    const std::uint32_t j = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (j >= count)
        return; // whole warps leave together
    const int lane = int(threadIdx.x & 31);
    constexpr int kBinsPerLane = int(kOrbRadixBins) / 32;
    static_assert(kBinsPerLane == 8, "two uint4 loads per lane");
    uint4* laneBins = reinterpret_cast<uint4*>(bins + std::size_t(j) * kOrbRadixBins) + 2 * lane;
    const uint4 low = laneBins[0], high = laneBins[1];
    laneBins[0] = laneBins[1] = make_uint4(0, 0, 0, 0);
    const std::uint32_t counts[kBinsPerLane] = {low.x, low.y, low.z, low.w, high.x, high.y, high.z, high.w};
    std::uint32_t laneTotal = 0;
    for (int k = 0; k < kBinsPerLane; ++k)
        laneTotal += counts[k];
    std::uint32_t inclusive = laneTotal;
    for (int offset = 1; offset < 32; offset *= 2) {
        const std::uint32_t below = __shfl_up_sync(kFullWarp, inclusive, offset);
        if (lane >= offset)
            inclusive += below;
    }
    OrbSplit& split = splits[first + j];
    const std::uint32_t rank = split.rank, before = inclusive - laneTotal;
    if (before <= rank && rank < inclusive) {
        std::uint32_t remaining = rank - before;
        int k = 0;
        while (remaining >= counts[k])
            remaining -= counts[k++];
        split.low |= std::uint32_t(lane * kBinsPerLane + k) << shift;
        split.rank = remaining;
        if (shift == 0)
            split.high = split.low;
    }
}

// Per body: 8 bytes read, 4 written; counts the bodies below the pivot and flags those equal to it.
__global__ void orbPivotTiesKernel(const std::uint32_t* keys, const std::int32_t* bodySplit, std::uint32_t bodyCount,
                                   OrbSplit* splits, std::uint32_t* equalFlags) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    const std::int32_t owner = i < bodyCount ? bodySplit[i] : -1;
    bool below = false;
    if (owner >= 0) {
        const std::uint32_t pivot = splits[owner].low;
        below = keys[i] < pivot;
        equalFlags[i] = keys[i] == pivot ? 1u : 0u;
    } else if (i < bodyCount) {
        equalFlags[i] = 0;
    }
    warpAggregatedAdd(owner, below, owner >= 0 ? &splits[owner].less : nullptr);
}

// Per body: 12 bytes read, 4 written. Ties with the pivot go left in index order until the left child is full
// (equalBefore is the exclusive scan of the tie flags, so its difference to the cell's begin ranks a tie).
__global__ void orbGoLeftKernel(const std::uint32_t* keys, const std::int32_t* bodySplit, std::uint32_t bodyCount,
                                OrbSplit* splits, const std::uint32_t* equalBefore, std::uint32_t* leftFlags) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    const std::int32_t owner = i < bodyCount ? bodySplit[i] : -1;
    bool left = false;
    std::uint32_t key = 0;
    if (owner >= 0) {
        const OrbSplit& split = splits[owner];
        key = keys[i];
        const std::uint32_t pivot = split.low;
        const std::uint32_t tiesLeft = split.split - split.begin - split.less;
        left = key < pivot || (key == pivot && equalBefore[i] - equalBefore[split.begin] < tiesLeft);
    }
    if (i < bodyCount)
        leftFlags[i] = left ? 1u : 0u;
    // Usually a whole warp lies in one cell: one reduction and one atomic. Where cells change inside the warp, each
    // left body updates its cell's maximum itself.
    const int firstOwner = __shfl_sync(kFullWarp, owner, 0);
    if (__all_sync(kFullWarp, owner == firstOwner)) {
        const std::uint32_t largest = warpMax(left ? key : 0u);
        const bool anyLeft = __any_sync(kFullWarp, left);
        if (owner >= 0 && anyLeft && (threadIdx.x & 31) == 0)
            atomicMax(&splits[owner].largestLeftKey, largest);
    } else if (owner >= 0 && left) {
        atomicMax(&splits[owner].largestLeftKey, key);
    }
}

// Per body: 12 bytes read, 4 written: the stable partition's destination, replacing the body's left flag.
__global__ void orbDestinationKernel(const std::int32_t* bodySplit, std::uint32_t bodyCount, const OrbSplit* splits,
                                     const std::uint32_t* leftBefore, std::uint32_t* flagsToDestination) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const std::int32_t owner = bodySplit[i];
    if (owner < 0) {
        flagsToDestination[i] = i;
        return;
    }
    const OrbSplit& split = splits[owner];
    const std::uint32_t leftBeforeInCell = leftBefore[i] - leftBefore[split.begin];
    flagsToDestination[i] = flagsToDestination[i] != 0 ? split.begin + leftBeforeInCell
                                                       : split.split + (i - split.begin) - leftBeforeInCell;
}

// Per body: 4 + 16 bytes read, 16 written.
__global__ void orbScatterKernel(const float4* source, const std::uint32_t* destination, std::uint32_t bodyCount,
                                 float4* target) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < bodyCount)
        target[destination[i]] = source[i];
}

// Per split: the cut is the midpoint of the largest left and the smallest right coordinate (the pivot), rounded once;
// the children copy the parent's box and share the cut as a face.
__global__ void orbFinishKernel(OrbCell* cells, const OrbSplit* splits, std::uint32_t first, std::uint32_t count) {
    const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= count)
        return;
    const OrbSplit& split = splits[first + j];
    const OrbCell& parent = cells[split.cell];
    const float cut = float(0.5 * (double(keyToFloat(split.largestLeftKey)) + double(keyToFloat(split.low))));
    OrbCell& left = cells[parent.leftChild];
    OrbCell& right = cells[parent.leftChild + 1];
    for (int axis = 0; axis < 3; ++axis) {
        left.lower[axis] = right.lower[axis] = parent.lower[axis];
        left.upper[axis] = right.upper[axis] = parent.upper[axis];
    }
    left.upper[split.axis] = cut;
    right.lower[split.axis] = cut;
}

} // namespace

void launchOrbBounds(const float4* positionMass, std::uint32_t bodyCount, std::uint32_t* boundsAndNonFinite,
                     cudaStream_t stream) {
    const std::uint32_t initial[7] = {~0u, ~0u, ~0u, 0, 0, 0, 0};
    CUDA_CHECK(cudaMemcpyAsync(boundsAndNonFinite, initial, sizeof(initial), cudaMemcpyHostToDevice, stream));
    const unsigned blocks = std::min(gridFor(bodyCount), 2048u);
    orbBoundsKernel<<<blocks, 256, 0, stream>>>(positionMass, bodyCount, boundsAndNonFinite);
    checkLaunch("orbBoundsKernel");
}

float orbKeyToFloat(std::uint32_t key) {
    const std::uint32_t bits = (key & 0x80000000u) ? key & 0x7fffffffu : ~key;
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
}

void launchOrbSplitLevel(float4* bodyArrays[3], std::uint32_t bodyCount, const OrbLevelBuffers& b, std::uint32_t first,
                         std::uint32_t count, OrbCutFinder finder, DeviceBuffer<unsigned char>& scanScratch,
                         cudaStream_t stream) {
    const unsigned splitBlocks = gridFor(count), bodyBlocks = gridFor(bodyCount);
    const bool radixSelect = finder == OrbCutFinder::RadixSelect;
    orbPrepareKernel<<<splitBlocks, 256, 0, stream>>>(b.cells, b.splits, first, count, radixSelect);
    checkLaunch("orbPrepareKernel");
    orbAssignKernel<<<bodyBlocks, 256, 0, stream>>>(bodyArrays[0], bodyCount, b.splits, first, count, b.keys,
                                                    b.bodySplit);
    checkLaunch("orbAssignKernel");
    if (radixSelect) {
        // The select kernel zeroes the bins it reads, so one clear per level serves all passes.
        CUDA_CHECK(cudaMemsetAsync(b.radixBins, 0, std::size_t(count) * kOrbRadixBins * sizeof(std::uint32_t), stream));
        const unsigned chunkBlocks = unsigned((std::uint64_t(bodyCount) + kRadixChunk - 1) / kRadixChunk);
        const unsigned selectBlocks = unsigned((std::uint64_t(count) * 32 + kRadixThreads - 1) / kRadixThreads);
        for (int pass = 0; pass < kRadixPasses; ++pass) {
            const int shift = 32 - kRadixDigitBits * (pass + 1);
            orbRadixHistogramKernel<<<chunkBlocks, kRadixThreads, 0, stream>>>(b.keys, b.bodySplit, bodyCount, b.splits,
                                                                               first, shift, b.radixBins);
            checkLaunch("orbRadixHistogramKernel");
            orbRadixSelectKernel<<<selectBlocks, kRadixThreads, 0, stream>>>(b.splits, first, count, shift,
                                                                             b.radixBins);
            checkLaunch("orbRadixSelectKernel");
        }
    } else {
        for (int round = 0; round < kBisectionRounds; ++round) {
            orbCountKernel<<<bodyBlocks, 256, 0, stream>>>(b.keys, b.bodySplit, bodyCount, b.splits);
            checkLaunch("orbCountKernel");
            orbBisectKernel<<<splitBlocks, 256, 0, stream>>>(b.splits, first, count);
            checkLaunch("orbBisectKernel");
        }
    }
    orbPivotTiesKernel<<<bodyBlocks, 256, 0, stream>>>(b.keys, b.bodySplit, bodyCount, b.splits, b.flags);
    checkLaunch("orbPivotTiesKernel");
    exclusiveSum(b.flags, b.prefix, bodyCount, scanScratch, stream);
    orbGoLeftKernel<<<bodyBlocks, 256, 0, stream>>>(b.keys, b.bodySplit, bodyCount, b.splits, b.prefix, b.flags);
    checkLaunch("orbGoLeftKernel");
    exclusiveSum(b.flags, b.prefix, bodyCount, scanScratch, stream);
    orbDestinationKernel<<<bodyBlocks, 256, 0, stream>>>(b.bodySplit, bodyCount, b.splits, b.prefix, b.flags);
    checkLaunch("orbDestinationKernel");
    for (int array = 0; array < 3; ++array) {
        orbScatterKernel<<<bodyBlocks, 256, 0, stream>>>(bodyArrays[array], b.flags, bodyCount, b.scratch);
        checkLaunch("orbScatterKernel");
        CUDA_CHECK(cudaMemcpyAsync(bodyArrays[array], b.scratch, std::size_t(bodyCount) * sizeof(float4),
                                   cudaMemcpyDeviceToDevice, stream));
    }
    orbFinishKernel<<<splitBlocks, 256, 0, stream>>>(b.cells, b.splits, first, count);
    checkLaunch("orbFinishKernel");
}

} // namespace gravlab
