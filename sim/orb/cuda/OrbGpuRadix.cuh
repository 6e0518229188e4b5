#pragma once
// The radix select's per-cell digit histograms and the choice of a digit from them, shared by the radix passes
// (OrbGpuSelect.cu) and by the scatter (OrbGpuPartition.cu), which takes its children's first pass on the way. See
// OrbGpu.hpp for the design.
#include "orb/cuda/OrbGpuDevice.cuh"

#include <cub/block/block_scan.cuh>

namespace gravlab::orbdevice {

inline constexpr int kBinsPerThread = int(kOrbRadixBins / kOrbTileThreads); // consecutive bins per thread in a select
static_assert(kOrbRadixBins == 1u << kOrbRadixDigitBits && kBinsPerThread * kOrbTileThreads == kOrbRadixBins);
static_assert(kBinsPerThread % 4 == 0, "a thread reads its bins of the cell in 16-byte words");
static_assert(kOrbRadixPasses * kOrbRadixDigitBits >= 32, "the passes must cover a 32-bit key range");

/// A tile's weight histogram in shared memory, each 64-bit bin as two 32-bit words: a 64-bit atomicAdd on shared
/// memory compiles to a compare-and-swap loop, where 32-bit adds are native. The sum is exact once every addition has
/// finished, since each thread that carries out of the low word adds the carry to the high word itself.
struct SplitWeightBins {
    std::uint32_t* low;
    std::uint32_t* high;
    __device__ __forceinline__ void add(std::uint32_t bin, std::uint64_t value) const {
        const std::uint32_t valueLow = std::uint32_t(value), valueHigh = std::uint32_t(value >> 32);
        const std::uint32_t before = atomicAdd(&low[bin], valueLow);
        if (valueHigh != 0)
            atomicAdd(&high[bin], valueHigh);
        if (before + valueLow < before)
            atomicAdd(&high[bin], 1u);
    }
    /// Narrow weights (a tile's sums below 2^32): the low word alone holds them, the high word stays 0.
    __device__ __forceinline__ void addNarrow(std::uint32_t bin, std::uint32_t value) const {
        atomicAdd(&low[bin], value);
    }
    __device__ __forceinline__ std::uint64_t operator[](std::uint32_t bin) const {
        return (std::uint64_t(high[bin]) << 32) | low[bin];
    }
    __device__ __forceinline__ void clear(std::uint32_t bin) const { low[bin] = high[bin] = 0; }
};

/// Block-wide: adds a tile's count histogram (kOrbRadixBins 32-bit bins in shared memory, 8-byte aligned) to bin slot
/// `slot`, two bins per 64-bit atomic: a cell holds fewer than 2^32 bodies, so the low bin's sum never carries into the
/// high one, and the words read back as the two 32-bit bins. Strided: a warp's atomics cover consecutive words. Nothing
/// when useCounts is false (a work-balanced pass that builds no count histogram).
__device__ __forceinline__ void addCountsToCellBins(const OrbLevel& level, std::uint32_t slot,
                                                    const std::uint32_t* counts, bool useCounts = true) {
    auto* cellPairs = reinterpret_cast<unsigned long long*>(level.binCounts + std::size_t(slot) * kOrbRadixBins);
    const auto* pairs = reinterpret_cast<const unsigned long long*>(counts);
    for (int k = 0; useCounts && k < kBinsPerThread / 2; ++k) {
        const std::uint32_t pair = threadIdx.x + k * kOrbTileThreads;
        if (pairs[pair] > 0)
            atomicAdd(&cellPairs[pair], pairs[pair]);
    }
}

/// Block-wide, in the one tile that reads a cell's bins once every tile has added to them: this thread's kBinsPerThread
/// consecutive bins of bin slot `slot` (counts when useCounts, else 0; weights when useWeights, else 0), read through
/// L2 (other blocks' atomics live there) in 16-byte words, and cleared for the next pass or level.
__device__ __forceinline__ void takeCellBins(const OrbLevel& level, std::uint32_t slot, bool useCounts, bool useWeights,
                                             std::uint32_t (&binCounts)[kBinsPerThread],
                                             std::uint64_t (&binWeights)[kBinsPerThread]) {
    const std::uint32_t firstBin = threadIdx.x * kBinsPerThread;
    auto* countQuads = reinterpret_cast<uint4*>(level.binCounts + std::size_t(slot) * kOrbRadixBins + firstBin);
    auto* weightPairs = reinterpret_cast<ulonglong2*>(level.binWeights + std::size_t(slot) * kOrbRadixBins + firstBin);
    for (int q = 0; q < kBinsPerThread / 4; ++q) {
        const uint4 four = useCounts ? __ldcg(&countQuads[q]) : make_uint4(0, 0, 0, 0);
        binCounts[4 * q] = four.x;
        binCounts[4 * q + 1] = four.y;
        binCounts[4 * q + 2] = four.z;
        binCounts[4 * q + 3] = four.w;
        if (useCounts)
            countQuads[q] = make_uint4(0, 0, 0, 0);
    }
    for (int q = 0; q < kBinsPerThread / 2; ++q) {
        const ulonglong2 two = useWeights ? __ldcg(&weightPairs[q]) : make_ulonglong2(0, 0);
        binWeights[2 * q] = two.x;
        binWeights[2 * q + 1] = two.y;
        if (useWeights)
            weightPairs[q] = make_ulonglong2(0, 0);
    }
}

/// One thread, before the last digit, with the chosen bin's count and weight (the split's rank, target, lessCount and
/// lessWeight already taken past the bins below it): ends the selection where an edge of the bin is the split, which
/// needs no further digit. Every body of the bin goes right when no rank or target is left (the first body of the bin
/// is the pivot, and it goes right as resolveTies would send it); a bin of one body is the pivot alone, which goes left
/// under work balance while the middle of its weight lies below the target. The pivot then becomes the lowest key of
/// the first bin to the right, held by no body on the left: the scatter sends every key below it left and the rest,
/// ties included, right (tiesLeft 0), and the cut is placed from the extreme keys the scatter's look-back finds, so the
/// number of bodies on that key (equalCount, left 0 as the layout set it) is never needed. Two digits leave bins of
/// 2^(bits - 22) keys of a cell's range: at 2^20 bodies / 64 domains (Plummer, ranges of 26 to 32 bits) 52 of the 63
/// splits end so under count balance and 45 under work balance.
__device__ inline void finishAtBinEdge(OrbSplit& split, std::uint32_t binCount, std::uint64_t binWeight, int shift,
                                       bool useWeights) {
    const bool pivotAlone = binCount == 1;
    const bool allRight = useWeights ? split.target == 0 : split.rank == 0;
    if (!allRight && !(useWeights && pivotAlone))
        return;
    std::uint64_t edge = std::uint64_t(split.keyBase) + split.fixedDigits; // the chosen bin's lowest key
    if (!allRight && binWeight < 2 * split.target) {                       // the bin's one body goes left
        edge += std::uint64_t(1) << shift;
        split.lessCount += 1;
        split.lessWeight += binWeight;
    }
    split.pivot = std::uint32_t(min(edge, std::uint64_t(~0u))); // ~0u: beyond every finite key, all go left
    split.done = kOrbPivotFound;
    decideTies(split, 0, 0);
}

/// Block-wide, kBinsPerThread consecutive bins per thread: fixes the digit at `shift` of the split's pivot, the bin
/// that holds the remaining rank (count balance) or the remaining target weight (work balance). Bins below it are below
/// the pivot. A target at or past the total weight puts every remaining body left: the pivot becomes a key above every
/// finite coordinate's. Without counts (useCounts false: a work-balanced pass before the last) the bins' counts are
/// zero and only the weights select, and the lessCount it leaves is not used. lessBefore: the cell's bodies below the
/// digits fixed so far (in a work-balanced build, known in the passes that count only). atBinEdge: the selection may
/// end before the last digit where an edge of the chosen bin is the split (finishAtBinEdge, only with counts;
/// OrbLevel::selectionsEndAtBinEdges).
__device__ inline void selectDigit(OrbSplit& split, const std::uint32_t (&counts)[kBinsPerThread],
                                   const std::uint64_t (&weights)[kBinsPerThread], int shift, bool useCounts,
                                   bool useWeights, std::uint32_t lessBefore, bool atBinEdge) {
    using CountScan = cub::BlockScan<std::uint32_t, kOrbTileThreads>;
    using WeightScan = cub::BlockScan<std::uint64_t, kOrbTileThreads>;
    __shared__ union {
        typename CountScan::TempStorage count;
        typename WeightScan::TempStorage weight;
    } storage;
    __shared__ bool found;
    const std::uint32_t rank = split.rank;
    const std::uint64_t target = split.target;
    std::uint32_t count = 0;
    std::uint64_t weight = 0;
    for (int k = 0; k < kBinsPerThread; ++k) {
        count += counts[k];
        weight += weights[k];
    }
    std::uint32_t countBefore = 0;
    if (useCounts)
        CountScan(storage.count).ExclusiveSum(count, countBefore);
    __syncthreads();
    std::uint64_t weightBefore = 0, totalWeight = 0;
    if (useWeights)
        WeightScan(storage.weight).ExclusiveSum(weight, weightBefore, totalWeight);
    if (threadIdx.x == 0)
        found = false;
    __syncthreads();
    for (int k = 0; k < kBinsPerThread; ++k) {
        const bool holds = useWeights ? weightBefore <= target && target < weightBefore + weights[k]
                                      : countBefore <= rank && rank < countBefore + counts[k];
        if (holds) {
            found = true;
            split.fixedDigits |= (std::uint32_t(threadIdx.x) * kBinsPerThread + std::uint32_t(k)) << shift;
            split.rank = rank - countBefore;
            split.target = target - weightBefore;
            split.lessWeight += weightBefore;
            split.lessCount = lessBefore + countBefore;
            if (shift == 0) { // the last digit: the bin holds exactly the bodies equal to the pivot
                split.pivot = split.keyBase + split.fixedDigits;
                split.done = kOrbPivotFoundByLastPass; // only the level's last pass ends at bit 0
                split.equalCount = counts[k];
                split.equalWeight = weights[k];
                resolveTies(split, useWeights);
            } else if (atBinEdge && useCounts) {
                finishAtBinEdge(split, counts[k], weights[k], shift, useWeights);
            }
        }
        countBefore += counts[k];
        weightBefore += weights[k];
    }
    __syncthreads();
    if (threadIdx.x == 0 && !found) {
        split.target = target - totalWeight;
        split.lessWeight += totalWeight;
        // Every body of the cell: a target beyond the bodies matching the digits fixed so far can only occur in the
        // split's first pass (each later pass keeps the bin that holds the target), where every body matches.
        finishWithEveryBodyLeft(split, useWeights, shift == 0 ? kOrbPivotFoundByLastPass : kOrbPivotFound);
    }
}

} // namespace gravlab::orbdevice
