// Kernels of the GPU ORB around the levels: extraction of the work records (with bounds, non-finite counts and
// weights), the per-level tile layouts (below the root under radix select, with the children's first digits), the final
// gather of the body arrays, and a device generator of benchmark positions. The design note is in OrbGpu.hpp.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DependentLaunch.cuh"
#include "device/cuda/LaunchSize.hpp"
#include "orb/cuda/OrbGpuDevice.cuh"
#include "orb/cuda/OrbGpuRadix.cuh"

#include <algorithm>
#include <cstring>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

namespace gravlab {
namespace {

using namespace orbdevice;

// Grid-stride kernels: enough blocks to fill any GPU, and few, since each block ends with atomics on the same few
// addresses (H200, 2^20 bodies / 64 domains, interleaved runs: 4096 blocks 0.439 / 0.676 ms count / work, 1024 blocks
// 0.426 / 0.659, 512 blocks the same as 1024; 2^27 / 4096 unchanged at 60.7 ms).
constexpr unsigned kStreamBlocks = 1024;
constexpr unsigned kStreamThreads = 256;

constexpr unsigned kStreamWarps = kStreamThreads / 32;

/// Bounds, non-finite count, the largest valid weight and the most binary digits below the point among the weights of
/// one thread's bodies, then one set of atomics per block:
/// per warp they were 32k atomics on each of a few addresses at 2^20 bodies, which L2 serialises (the count-balanced
/// build of 2^20 bodies into 64 domains took 0.657 ms with them, 0.518 ms without; reading the bodies takes a few us).
struct ExtractTotals {
    std::uint32_t low[3] = {~0u, ~0u, ~0u}, high[3] = {0, 0, 0}, nonFinite = 0, invalidWeights = 0, maxWeight = 0,
                  fractionBits = 0;

    /// Writes body i's coordinates into the records, counting the non-finite ones and storing them as 0, and bounds
    /// what the records hold. Such a build throws and moves no body, but its levels still run, and radix select
    /// measures keys from each cell's lower side, which needs every record inside its cell.
    __device__ void recordPosition(float x, float y, float z, const OrbRecords& records, std::uint32_t i) {
        const float c[3] = {x, y, z};
        for (int axis = 0; axis < 3; ++axis) {
            const bool finite = isfinite(c[axis]);
            nonFinite += finite ? 0 : 1;
            const float recorded = finite ? c[axis] : 0.0f;
            records.coordinate[axis][i] = recorded;
            const std::uint32_t key = orderedKey(recorded);
            low[axis] = min(low[axis], key);
            high[axis] = max(high[axis], key);
        }
    }
    /// Binary digits below the point of a valid weight (bits: its magnitude's): its lowest set bit's position below
    /// 2^0, 0 for integers.
    __device__ static std::uint32_t fractionBitsOf(std::uint32_t bits) {
        const std::uint32_t biased = bits >> 23, mantissa = bits & 0x7fffffu;
        if (bits == 0)
            return 0;
        // value = significand * 2^(biased - 150), the significand with its implicit leading one unless subnormal
        const std::uint32_t significand = biased == 0 ? mantissa : mantissa | 0x800000u;
        const int lowestBit = int(biased == 0 ? 1 : biased) - 150 + (__ffs(int(significand)) - 1);
        return lowestBit < 0 ? std::uint32_t(-lowestBit) : 0u;
    }
    __device__ void addWeight(float weight) {
        if (validWeight(weight)) {
            const std::uint32_t magnitude = __float_as_uint(weight) & 0x7fffffffu; // -0 is a weight of 0
            maxWeight = max(maxWeight, magnitude);
            fractionBits = max(fractionBits, fractionBitsOf(magnitude));
        } else {
            ++invalidWeights;
        }
    }
    __device__ void add(const ExtractTotals& other) {
        for (int axis = 0; axis < 3; ++axis) {
            low[axis] = min(low[axis], other.low[axis]);
            high[axis] = max(high[axis], other.high[axis]);
        }
        nonFinite += other.nonFinite;
        invalidWeights += other.invalidWeights;
        maxWeight = max(maxWeight, other.maxWeight);
        fractionBits = max(fractionBits, other.fractionBits);
    }
    /// Block-wide (every thread of a kStreamThreads block calls it).
    __device__ void publish(OrbBuildState* state) {
        __shared__ ExtractTotals warpTotals[kStreamWarps];
        for (int axis = 0; axis < 3; ++axis) {
            low[axis] = warpMin(low[axis]);
            high[axis] = warpMax(high[axis]);
        }
        nonFinite = warpSum(nonFinite);
        invalidWeights = warpSum(invalidWeights);
        maxWeight = warpMax(maxWeight);
        fractionBits = warpMax(fractionBits);
        if ((threadIdx.x & 31) == 0)
            warpTotals[threadIdx.x / 32] = *this;
        __syncthreads();
        if (threadIdx.x != 0)
            return;
        for (unsigned warp = 1; warp < kStreamWarps; ++warp)
            add(warpTotals[warp]);
        for (int axis = 0; axis < 3; ++axis) {
            atomicMax(&state->lowInverted[axis], ~low[axis]);
            atomicMax(&state->high[axis], high[axis]);
        }
        if (nonFinite > 0)
            atomicAdd(&state->nonFinite, nonFinite);
        if (invalidWeights > 0)
            atomicAdd(&state->invalidWeights, invalidWeights);
        atomicMax(&state->maxWeightBits, maxWeight);
        atomicMax(&state->fractionBits, fractionBits);
    }
};

/// Grid-stride: every word of the scratch's ranges to 0.
__device__ void clearScratch(const OrbScratchToClear& scratch) {
    const std::uint64_t first = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
    const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
    for (int r = 0; r < OrbScratchToClear::kMaxRanges; ++r)
        for (std::uint64_t i = first; i < scratch.count[r]; i += stride)
            scratch.words[r][i] = 0;
}

// Per body: 16 bytes read (+ 16 under work balance: one float of a float4, a whole sector), 16 (+ 4) written.
// Each thread loads kExtractBatch bodies (a grid's stride apart) before it stores any record: the records could alias
// the bodies for all the compiler knows, which would otherwise leave a memory latency between one body's stores and
// the next one's loads (H200, 2^20 bodies / 64 domains under work balance: 0.318 -> 0.317 ms).
constexpr unsigned kExtractBatch = 4;
__global__ void orbExtractBodiesKernel(const float4* positionMass, const float4* acceleration, std::uint32_t bodyCount,
                                       OrbRecords records, OrbBuildState* state, OrbScratchToClear scratch) {
    clearScratch(scratch);
    ExtractTotals totals;
    const bool weighs = records.weight != nullptr;
    const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x, batchStride = kExtractBatch * stride;
    for (std::uint64_t first = blockIdx.x * blockDim.x + threadIdx.x; first < bodyCount; first += batchStride) {
        float4 p[kExtractBatch];
        float weight[kExtractBatch];
        for (unsigned b = 0; b < kExtractBatch; ++b) {
            const std::uint64_t i = first + b * stride;
            if (i < bodyCount) {
                p[b] = positionMass[i];
                weight[b] = weighs ? acceleration[i].w : 0.0f;
            }
        }
        for (unsigned b = 0; b < kExtractBatch; ++b) {
            const std::uint64_t i = first + b * stride;
            if (i >= bodyCount)
                break;
            totals.recordPosition(p[b].x, p[b].y, p[b].z, records, std::uint32_t(i));
            if (records.index != nullptr)
                records.index[i] = std::uint32_t(i);
            if (weighs) {
                records.weight[i] = weight[b];
                totals.addWeight(weight[b]);
            }
        }
    }
    totals.publish(state);
}

// Per body: 12 bytes read, 16 written.
__global__ void orbExtractPositionsKernel(const float* x, const float* y, const float* z, std::uint32_t bodyCount,
                                          OrbRecords records, OrbBuildState* state, OrbScratchToClear scratch) {
    clearScratch(scratch);
    ExtractTotals totals;
    for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < bodyCount; i += gridDim.x * blockDim.x) {
        totals.recordPosition(x[i], y[i], z[i], records, i);
        if (records.index != nullptr)
            records.index[i] = i;
    }
    totals.publish(state);
}

/// The exponent that keeps N fixed-point weights below 2^62: the largest weight maps below 2^(62 - bits(N)). At most
/// 127, so that 2^exponent is a float (weightScale); only weights below 2^-104 lose precision to that.
__device__ int weightExponent(const OrbBuildState* state, std::uint32_t bodyCount) {
    const float largest = __uint_as_float(state->maxWeightBits);
    const int bodyBits = 32 - __clz(bodyCount);
    return largest > 0.0f ? min(62 - bodyBits - ilogbf(largest) - 1, 127) : 0;
}

/// How far below weightExponent the weights are all integers below 2^kOrbNarrowWeightBits, or -1 when no such scale
/// exists (a weight is not an integer at the scale that puts the largest below 2^20, e.g. integers that differ by more
/// than 2^20 times, or a largest weight below 2^-108). Narrow sums shifted left by this are the fixed-point sums.
__device__ int narrowWeightShift(const OrbBuildState* state, int exponent) {
    const float largest = __uint_as_float(state->maxWeightBits);
    if (!(largest > 0.0f))
        return -1;
    const int narrowExponent = int(kOrbNarrowWeightBits) - 1 - ilogbf(largest); // the largest weight below 2^20
    return narrowExponent <= exponent && int(state->fractionBits) <= narrowExponent ? exponent - narrowExponent : -1;
}

/// One thread, once the extraction has found the largest weight: the fixed-point exponent, the narrow shift, and
/// whether work balance is in force (the largest weight, so the sum too, is above 0 in fixed point).
__device__ void chooseWeightScale(OrbBuildState* state, std::uint32_t bodyCount) {
    const int exponent = weightExponent(state, bodyCount);
    state->weightExponent = exponent;
    state->narrowShift = narrowWeightShift(state, exponent);
    state->weighted = fixedWeight(__uint_as_float(state->maxWeightBits), weightScale(exponent)) > 0 ? 1u : 0u;
}

// Per body: 4 bytes read; one 64-bit atomic per block (per warp, 32k of them on one address took 33 us at 2^20).
__global__ void orbTotalWeightKernel(const float* weights, std::uint32_t bodyCount, OrbBuildState* state) {
    __shared__ std::uint64_t warpTotals[kStreamWarps];
    waitForPreviousKernel(); // the largest weight comes from the extraction
    allowNextKernel();
    const int exponent = weightExponent(state, bodyCount);
    if (blockIdx.x == 0 && threadIdx.x == 0)
        chooseWeightScale(state, bodyCount);
    std::uint64_t total = 0;
    for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < bodyCount; i += gridDim.x * blockDim.x)
        total += fixedWeight(weights[i], weightScale(exponent));
    total = warpSum(total);
    if ((threadIdx.x & 31) == 0)
        warpTotals[threadIdx.x / 32] = total;
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    for (unsigned warp = 1; warp < kStreamWarps; ++warp)
        total += warpTotals[warp];
    if (total > 0)
        atomicAdd(reinterpret_cast<unsigned long long*>(&state->totalWeight), (unsigned long long)total);
}

/// A split's share of its level's layout, from its cell: (its tiles << 32) | 1 when its radix passes need a bin slot
/// (a cell to split of more than one tile). A level's tiles and slots are numbered by the exclusive sums of these.
__device__ __forceinline__ std::uint64_t layoutTerm(const OrbCell& cell) {
    const std::uint64_t bodies = cell.end - cell.begin;
    const std::uint32_t tiles = std::uint32_t((bodies + kOrbTileBodies - 1) / kOrbTileBodies);
    return std::uint64_t(tiles) << 32 | (cell.domainCount > 1 && tiles > 1 ? 1u : 0u);
}

/// One split's part of its level's layout, but for its tiles' place: its range and, for a cell to split, its
/// preparation and its children's marks cleared among `children` (the next level's splits, from firstChildCell on;
/// null when that level does not split): only the scatter of the split's level sets them, for the children whose first
/// pass it takes in this build.
__device__ __forceinline__ void layOutSplit(const OrbLevel& level, OrbSplit& split, const OrbCell& cell,
                                            OrbCutFinder finder, OrbSplit* children, std::uint32_t firstChildCell) {
    takeCellRange(split, cell);
    if (split.copyOnly != 0)
        return;
    prepareSplit(level, split, finder);
    if (children != nullptr) {
        children[std::uint32_t(cell.leftChild) - firstChildCell].preselected = 0;
        children[std::uint32_t(cell.leftChild) + 1 - firstChildCell].preselected = 0;
    }
}

/// Block-wide, for a root that takes no radix pass (every body at one point) where the root's first pass would have
/// summed the weights: sums them here, one block over every body, and sets the root's target. Only such input pays it.
__device__ void sumRootWeights(const OrbLevel& level) {
    using Reduce = cub::BlockReduce<std::uint64_t, kOrbTileThreads>;
    __shared__ typename Reduce::TempStorage reduceStorage;
    const float scale = weightScale(level.state->weightExponent);
    std::uint64_t total = 0;
    for (std::uint32_t i = threadIdx.x; i < level.bodyCount; i += kOrbTileThreads)
        total += fixedWeight(level.from.weight[i], scale);
    total = Reduce(reduceStorage).Sum(total);
    if (threadIdx.x == 0)
        takeRootTotal(level, level.splits[0], total);
}

/// The root level's layout, and every level's under bisection (levels whose splits no scatter marked).
// One block per level: per split 1 cell read, about 100 bytes written; a block scan per 256 splits lays out the tiles.
__global__ void orbLayoutKernel(OrbLevel level, bool rootLevel, OrbCutFinder finder) {
    using Scan = cub::BlockScan<std::uint64_t, kOrbTileThreads>;
    __shared__ typename Scan::TempStorage scanStorage;
    waitForPreviousKernel(); // the cells come from the level before
    allowNextKernel();
    if (rootLevel && threadIdx.x == 0) {
        OrbCell& root = level.cells[0];
        for (int axis = 0; axis < 3; ++axis) {
            root.lower[axis] = keyToFloat(~level.state->lowInverted[axis]);
            root.upper[axis] = keyToFloat(level.state->high[axis]);
        }
        if (level.rootPassSumsWeights)
            chooseWeightScale(level.state, level.bodyCount);
    }
    __syncthreads();
    std::uint64_t carry = 0; // layoutTerm summed over the splits before this chunk
    for (std::uint32_t chunk = 0; chunk < level.splitCount; chunk += kOrbTileThreads) {
        const std::uint32_t j = chunk + threadIdx.x;
        std::uint64_t term = 0;
        if (j < level.splitCount) {
            const OrbCell& cell = level.cells[level.splits[j].cell];
            layOutSplit(level, level.splits[j], cell, finder, level.nextSplits, level.nextFirstCell);
            term = layoutTerm(cell);
        }
        std::uint64_t before, aggregate;
        Scan(scanStorage).ExclusiveSum(term, before, aggregate);
        if (j < level.splitCount) {
            level.splits[j].tileBegin = std::uint32_t((carry + before) >> 32);
            level.splits[j].binSlot = std::uint32_t(carry + before);
        }
        carry += aggregate;
        __syncthreads();
    }
    if (rootLevel && level.rootPassSumsWeights && level.splits[0].done != 0 && weighted(level))
        sumRootWeights(level);
}

/// A child of the next level that takes its own first radix pass (the scatter above did not take it, and its key range
/// needs every pass): noted, so that the next build launches the first passes below the root. Where the levels launch
/// none (OrbLevel::guessesFirstPasses) the build is void, and the child is finished at once as a selection that found
/// its target beyond every body does it (every body left), so that the rest of the build stays within its ranges.
/// Thread 0.
__device__ void noteOwnFirstPass(const OrbLevel& level, OrbSplit& child) {
    level.state->ownFirstPasses = 1;
    if (!level.guessesFirstPasses)
        return;
    level.state->guessFailed = 1;
    finishWithEveryBodyLeft(child, weighted(level));
}

/// One block per split of the next level, after a scatter that took its children's first pass: the next level's layout,
/// as orbLayoutKernel does it, with each split's tiles and bin slot summed from the splits before it (so the level
/// needs no layout kernel of its own: 2^27 / 4096 0.03 to 0.04 ms less, 2^20 / 64 the same, H200), and for each child
/// the scatter marked the selection of its first digit: its split keeps the scatter's frame (ChildDigit in
/// OrbGpuPartition.cu) and selects from the bins its tiles filled (OrbLevel::childBins), and the level's first pass
/// skips it. A child whose real cut axis is not the one the scatter predicted (a box whose longest sides nearly tie)
/// only has its bins cleared, and takes its own first pass.
// Per block: the cells before its split read (1 to 8 per thread at 4096 domains), its split written as by the layout.
__global__ void orbLayoutChildrenKernel(OrbLevel level) {
    using Reduce = cub::BlockReduce<std::uint64_t, kOrbTileThreads>;
    __shared__ typename Reduce::TempStorage reduceStorage;
    __shared__ bool framed;
    waitForPreviousKernel(); // the cells, marks, frames and bins come from the scatter
    allowNextKernel();
    const std::uint32_t entry = blockIdx.x;
    const OrbCell* cells = level.cells + level.nextFirstCell; // one per split of the next level
    std::uint64_t termsBefore = 0;
    for (std::uint32_t k = threadIdx.x; k < entry; k += kOrbTileThreads)
        termsBefore += layoutTerm(cells[k]);
    termsBefore = Reduce(reduceStorage).Sum(termsBefore); // thread 0's
    OrbSplit& child = level.nextSplits[entry];
    const bool marked = child.preselected != 0;
    __syncthreads(); // every thread has read the mark before thread 0 may clear it
    if (threadIdx.x == 0) {
        const OrbCell& cell = cells[entry];
        const int frameAxis = child.axis;
        const std::uint32_t frameBase = child.keyBase, frameBits = child.keyBits;
        const bool toCut = child.copyOnly == 0;
        layOutSplit(level, child, cell, OrbCutFinder::RadixSelect, level.splitsAfterNext, level.firstCellAfterNext);
        child.tileBegin = std::uint32_t(termsBefore >> 32);
        child.binSlot = std::uint32_t(termsBefore);
        framed = marked && toCut && child.axis == frameAxis && child.done == 0;
        if (framed) {
            // Every body of the child lies in the frame, which spans all passes (more than two digits).
            child.keyBase = frameBase;
            child.keyBits = frameBits;
            child.firstPass = 0;
        } else {
            child.preselected = 0;
            if (toCut && child.done == 0 && child.firstPass == 0)
                noteOwnFirstPass(level, child);
        }
    }
    __syncthreads();
    if (!marked)
        return;
    const bool useWeights = weighted(level);
    std::uint32_t binCounts[kBinsPerThread];
    std::uint64_t binWeights[kBinsPerThread];
    takeCellBins(level, level.childBins(entry), !useWeights, useWeights, binCounts, binWeights); // clears them
    if (framed)
        selectDigit(child, binCounts, binWeights, firstDigitShift(child.keyBits), !useWeights, useWeights, 0,
                    level.selectionsEndAtBinEdges());
}

// Per body: 4 bytes of index and 16 read (a random load), 16 written; the load order adds 4 read at random and 4
// written when gathered.
__global__ void orbGatherKernel(const float4* source, const std::uint32_t* order, float4* target,
                                OrbLoadOrderStep loadOrder, std::uint32_t bodyCount, const OrbBuildState* state) {
    waitForPreviousKernel(); // the final order comes from the last level
    allowNextKernel();
    if (state->nonFinite != 0 || state->invalidWeights != 0 || state->guessFailed != 0)
        return;
    const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= bodyCount)
        return;
    const std::uint32_t from = order[j];
    target[j] = source[from];
    if (loadOrder.gatherSource != nullptr)
        loadOrder.gatherTarget[j] = loadOrder.gatherSource[from];
}

// Per body: 12 bytes read, 12 written.
__global__ void orbCopyPositionsKernel(OrbRecords records, float* x, float* y, float* z, std::uint32_t bodyCount,
                                       const OrbBuildState* state) {
    if (state->nonFinite != 0 || state->guessFailed != 0)
        return;
    const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < bodyCount) {
        x[j] = records.coordinate[0][j];
        y[j] = records.coordinate[1][j];
        z[j] = records.coordinate[2][j];
    }
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash of a counter.
__device__ std::uint64_t mix64(std::uint64_t value) {
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ull;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebull;
    return value ^ (value >> 31);
}

// Per body: 3 hashes, 12 bytes written.
__global__ void orbUniformPositionsKernel(float* x, float* y, float* z, std::uint64_t bodyCount, std::uint64_t seed) {
    for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < bodyCount;
         i += std::uint64_t(gridDim.x) * blockDim.x) {
        float* out[3] = {x, y, z};
        for (int axis = 0; axis < 3; ++axis) {
            const std::uint64_t bits = mix64(seed + 3 * i + std::uint64_t(axis) + 0x9e3779b97f4a7c15ull);
            out[axis][i] = float(bits >> 40) * (2.0f / 16777216.0f) - 1.0f; // 24 random bits: exact in a float
        }
    }
}

unsigned streamBlocks(std::uint64_t count) {
    return std::min(launchSize1d(count, kStreamThreads).blocks, kStreamBlocks);
}

} // namespace

void launchOrbExtractBodies(const float4* positionMass, const float4* acceleration, std::uint32_t bodyCount,
                            OrbRecords records, OrbBuildState* state, const OrbScratchToClear& scratch,
                            cudaStream_t stream) {
    CUDA_CHECK(cudaMemsetAsync(state, 0, sizeof(OrbBuildState), stream));
    orbExtractBodiesKernel<<<streamBlocks(bodyCount), kStreamThreads, 0, stream>>>(positionMass, acceleration,
                                                                                   bodyCount, records, state, scratch);
    checkLaunch("orbExtractBodiesKernel");
}

void launchOrbExtractPositions(const float* x, const float* y, const float* z, std::uint32_t bodyCount,
                               OrbRecords records, OrbBuildState* state, const OrbScratchToClear& scratch,
                               cudaStream_t stream) {
    CUDA_CHECK(cudaMemsetAsync(state, 0, sizeof(OrbBuildState), stream));
    orbExtractPositionsKernel<<<streamBlocks(bodyCount), kStreamThreads, 0, stream>>>(x, y, z, bodyCount, records,
                                                                                      state, scratch);
    checkLaunch("orbExtractPositionsKernel");
}

void launchOrbTotalWeight(OrbRecords records, std::uint32_t bodyCount, OrbBuildState* state, cudaStream_t stream) {
    launchDependent("orbTotalWeightKernel", orbTotalWeightKernel, streamBlocks(bodyCount), kStreamThreads, stream,
                    records.weight, bodyCount, state);
}

void launchOrbLayoutLevel(const OrbLevel& level, bool rootLevel, OrbCutFinder finder, cudaStream_t stream) {
    launchDependent("orbLayoutKernel", orbLayoutKernel, 1, kOrbTileThreads, stream, level, rootLevel, finder);
}

void launchOrbLayoutChildren(const OrbLevel& level, cudaStream_t stream) {
    launchDependent("orbLayoutChildrenKernel", orbLayoutChildrenKernel, level.nextSplitCount, kOrbTileThreads, stream,
                    level);
}

void launchOrbGather(const float4* source, const std::uint32_t* order, float4* target, OrbLoadOrderStep loadOrder,
                     std::uint32_t bodyCount, const OrbBuildState* state, cudaStream_t stream) {
    const LaunchSize size = launchSize1d(bodyCount);
    launchDependent("orbGatherKernel", orbGatherKernel, size.blocks, size.threadsPerBlock, stream, source, order,
                    target, loadOrder, bodyCount, state);
}

void launchOrbCopyPositions(OrbRecords records, float* x, float* y, float* z, std::uint32_t bodyCount,
                            const OrbBuildState* state, cudaStream_t stream) {
    const LaunchSize size = launchSize1d(bodyCount);
    orbCopyPositionsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(records, x, y, z, bodyCount, state);
    checkLaunch("orbCopyPositionsKernel");
}

void launchOrbUniformPositions(float* x, float* y, float* z, std::uint64_t bodyCount, std::uint64_t seed,
                               cudaStream_t stream) {
    orbUniformPositionsKernel<<<streamBlocks(bodyCount), kStreamThreads, 0, stream>>>(x, y, z, bodyCount, seed);
    checkLaunch("orbUniformPositionsKernel");
}

float orbKeyToFloat(std::uint32_t key) {
    const std::uint32_t bits = (key & 0x80000000u) ? key & 0x7fffffffu : ~key;
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
}

} // namespace gravlab
