// The baseline cut finder of the GPU ORB, bisection over ordered keys: 32 rounds per level, each counting (or
// weighing) every cell's bodies at or below the middle of its bracket and halving the bracket, until it holds the
// pivot's key, the key radix select (OrbGpuSelect.cu) finds. The design note is in OrbGpu.hpp.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DependentLaunch.cuh"
#include "orb/cuda/OrbGpuDevice.cuh"

namespace gravlab {
namespace {

using namespace orbdevice;

constexpr int kBisectionRounds = 32; // a bracket of at most 2^32 keys halves to one key in 32 rounds

/// Halves the bisection bracket: the pivot is the smallest key t with more than `rank` bodies at or below it (count
/// balance) or with more than `target` weight at or below it (work balance); weight below the bracket is remembered.
__device__ void bisect(OrbSplit& split, std::uint32_t countAtOrBelow, std::uint64_t weightAtOrBelow, bool useWeights) {
    const std::uint32_t middle = split.pivot + (split.high - split.pivot) / 2;
    const bool pivotAtOrBelowMiddle = useWeights ? weightAtOrBelow > split.target : countAtOrBelow >= split.rank + 1;
    if (pivotAtOrBelowMiddle) {
        split.high = middle;
    } else {
        split.pivot = middle + 1;
        split.lessWeight = weightAtOrBelow;
    }
    if (split.pivot == split.high) {
        split.done = kOrbPivotFound;
        split.target = split.target > split.lessWeight ? split.target - split.lessWeight : 0;
    }
}

// Per body of a split still bisecting: 4 bytes read (+ 4 of weight); per tile, two global atomics.
__global__ void orbBisectRoundKernel(OrbLevel level) {
    __shared__ std::uint32_t warpCounts[kWarpsPerTile];
    __shared__ std::uint64_t warpWeights[kWarpsPerTile];
    waitForPreviousKernel(); // the bracket comes from the round before
    allowNextKernel();
    const int splitIndex = findSplit(level.splits, level.splitCount, blockIdx.x);
    if (splitIndex < 0)
        return;
    OrbSplit& split = level.splits[splitIndex];
    if (split.copyOnly != 0 || split.done != 0)
        return;
    const bool useWeights = weighted(level);
    const float scale = weightScale(level.state->weightExponent);
    const std::uint32_t middle = split.pivot + (split.high - split.pivot) / 2;
    const Tile tile = tileOf(split, blockIdx.x);
    const float* along = level.from.coordinate[split.axis];
    std::uint32_t count = 0;
    std::uint64_t weight = 0;
    float coordinates[kRowsPerWarp], rowWeights[kRowsPerWarp];
    if (useWeights)
        loadTileRows<true>(tile, along, level.from.weight, coordinates, rowWeights);
    else
        loadTileRows<false>(tile, along, level.from.weight, coordinates, rowWeights);
    for (int row = 0; row < kRowsPerWarp; ++row) {
        const bool atOrBelow = tile.holds(row) && orderedKey(coordinates[row]) <= middle;
        count += __popc(__ballot_sync(kFullWarp, atOrBelow));
        if (atOrBelow && useWeights)
            weight += fixedWeight(rowWeights[row], scale);
    }
    weight = warpSum(weight);
    if ((threadIdx.x & 31) == 0) {
        warpCounts[threadIdx.x / 32] = count;
        warpWeights[threadIdx.x / 32] = weight;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        count = 0;
        weight = 0;
        for (int w = 0; w < kWarpsPerTile; ++w) {
            count += warpCounts[w];
            weight += warpWeights[w];
        }
    }
    if (split.tileCount == 1) {
        if (threadIdx.x == 0)
            bisect(split, count, weight, useWeights);
        return;
    }
    if (threadIdx.x == 0) {
        atomicAdd(&split.roundCount, count);
        atomicAdd(reinterpret_cast<unsigned long long*>(&split.roundWeight), (unsigned long long)weight);
    }
    if (lastTileOfSplit(split) && threadIdx.x == 0) {
        count = __ldcg(&split.roundCount);
        weight = __ldcg(reinterpret_cast<const unsigned long long*>(&split.roundWeight));
        split.roundCount = 0;
        split.roundWeight = 0;
        bisect(split, count, weight, useWeights);
    }
}

} // namespace

void launchOrbBisectionRounds(const OrbLevel& level, cudaStream_t stream) {
    for (int round = 0; round < kBisectionRounds; ++round)
        launchDependent("orbBisectRoundKernel", orbBisectRoundKernel, level.gridTiles, kOrbTileThreads, stream, level);
}

} // namespace gravlab
