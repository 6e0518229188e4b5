// The count pass of one ORB level on the GPU, for the splits the cut finder left unresolved (bisection's; work
// balance's with ties to order): per tile, the bodies below and equal to the pivot; the last tile of a cell scans its
// cell's tile counts, decides how many ties go left, places the cut and writes the children, so that the scatter
// (OrbGpuPartition.cu) only reads its offsets. The design note is in OrbGpu.hpp.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DependentLaunch.cuh"
#include "orb/cuda/OrbGpuDevice.cuh"
#include "orb/cuda/OrbGpuTileScan.cuh"

namespace gravlab {
namespace {

using namespace orbdevice;

/// Run by the last tile of a split cell, block-wide: the exclusive scan of the cell's tile counts (the scatter's
/// offsets), the ties that go left, the cut and the children.
__device__ void finishSplit(const OrbLevel& level, OrbSplit& split) {
    __shared__ SplitSums sums;
    const bool useWeights = weighted(level);
    std::uint64_t equalWeight;
    const std::uint64_t counts = scanSplitTiles(level, split, CountedTiles{level}, useWeights, sums, equalWeight);
    const std::uint32_t lessCount = std::uint32_t(counts >> 32), equalCount = std::uint32_t(counts);
    const std::uint32_t tiesLeft = tiesGoingLeft(level, split, useWeights, lessCount, equalCount, equalWeight, sums);
    if (threadIdx.x != 0)
        return;
    split.tiesLeft = tiesLeft;
    split.split = split.begin + lessCount + tiesLeft;
    placeCut(level, split, lessCount, equalCount, tiesLeft, sums.maxLessKey, sums.minGreaterKey, sums.leftWeight);
}

// Per body: 4 bytes read (+ 4 of weight under work balance); per tile 16 (+ 8) bytes written and one atomic; the last
// tile of each cell also scans the cell's tile counts (8 bytes per tile of the cell). kWeights as for the radix pass.
template <bool kWeights> __device__ void countTile(const OrbLevel& level, OrbSplit& split, std::uint32_t tileIndex) {
    __shared__ std::uint32_t warpLess[kWarpsPerTile], warpEqual[kWarpsPerTile], warpMaxLess[kWarpsPerTile],
        warpMinGreater[kWarpsPerTile];
    __shared__ std::uint64_t warpEqualWeight[kWarpsPerTile];
    const Tile tile = tileOf(split, tileIndex);
    float coordinates[kRowsPerWarp], rowWeights[kRowsPerWarp];
    loadTileRows<kWeights>(tile, level.from.coordinate[split.axis], level.from.weight, coordinates, rowWeights);
    const bool useWeights = kWeights && weighted(level);
    const float scale = kWeights ? weightScale(level.state->weightExponent) : 1.0f;
    const std::uint32_t pivot = split.pivot;
    std::uint32_t less = 0, equal = 0, maxLess = 0, minGreater = ~0u;
    std::uint64_t equalWeight = 0;
    for (int row = 0; row < kRowsPerWarp; ++row) {
        const bool valid = tile.holds(row);
        const std::uint32_t key = valid ? orderedKey(coordinates[row]) : pivot;
        less += __popc(__ballot_sync(kFullWarp, valid && key < pivot));
        equal += __popc(__ballot_sync(kFullWarp, valid && key == pivot));
        if (valid && key < pivot)
            maxLess = max(maxLess, key);
        if (valid && key > pivot)
            minGreater = min(minGreater, key);
        if (valid && key == pivot && useWeights)
            equalWeight += fixedWeight(rowWeights[row], scale);
    }
    maxLess = warpMax(maxLess);
    minGreater = warpMin(minGreater);
    if (useWeights)
        equalWeight = warpSum(equalWeight);
    const int warp = int(threadIdx.x / 32);
    if ((threadIdx.x & 31) == 0) {
        warpLess[warp] = less;
        warpEqual[warp] = equal;
        warpMaxLess[warp] = maxLess;
        warpMinGreater[warp] = minGreater;
        warpEqualWeight[warp] = equalWeight;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        uint2 counts = make_uint2(0, 0);
        for (int w = 0; w < kWarpsPerTile; ++w) {
            counts.x += warpLess[w];
            counts.y += warpEqual[w];
            maxLess = max(maxLess, warpMaxLess[w]);
            minGreater = min(minGreater, warpMinGreater[w]);
            equalWeight += w == 0 ? 0 : warpEqualWeight[w];
        }
        level.tileCounts[tileIndex] = counts;
        if (useWeights)
            level.tileEqualWeight[tileIndex] = equalWeight;
        // Per tile, not an atomic per tile: thousands of tiles of one cell would serialise on one address.
        level.tileExtremes[tileIndex] = make_uint2(maxLess, minGreater);
    }
    if (lastTileOfSplit(split))
        finishSplit(level, split);
}

/// Held to three tiles per multiprocessor: walking chunks took the work instance from 79 registers to 86 (two).
template <bool kWeights> __global__ void __launch_bounds__(kOrbTileThreads, 3) orbCountKernel(OrbLevel level) {
    // Most splits are resolved by their selection, so the tile's bodies are loaded only once the pass before has
    // said so: loading them ahead (dependent launch) would read every body of the level for nothing; and the blocks
    // walk chunks of tiles, stepping over resolved splits.
    waitForPreviousKernel();
    allowNextKernel();
    forEachTileOfChunk(
        level, [](const OrbSplit& split) { return split.copyOnly != 0 || split.resolved != 0; },
        [&](int splitIndex, std::uint32_t tile) { countTile<kWeights>(level, level.splits[splitIndex], tile); });
}

} // namespace

void launchOrbCountAndCut(const OrbLevel& level, cudaStream_t stream) {
    const auto kernel = level.workBalance ? orbCountKernel<true> : orbCountKernel<false>;
    launchDependent("orbCountKernel", kernel, chunkedTileBlocks(level, kernel), kOrbTileThreads, stream, level);
}

} // namespace gravlab
