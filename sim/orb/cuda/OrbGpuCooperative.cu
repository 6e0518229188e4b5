// The GPU ORB's levels as one cooperative kernel: the same per-tile phases as the per-phase kernels (layout, radix
// passes or bisection rounds, one-pass partition or count and scatter), with grid-wide barriers between phases.
//
// Design note: at 2^20 bodies / 64 domains a build is about 40 dependent graph nodes of a few microseconds of work
// each, so launch latency and each kernel's drain dominate. One launch of exactly as many blocks as fit on the device
// at once (cudaLaunchAttributeCooperative, which also lets the graph capture it) runs every phase of every level: each
// block walks the level's tiles (tile = block, block + grid, ...), with a block barrier between tiles so that one
// tile's shared memory is not reused while the last warp still reads it, and the grid meets at
// cooperative_groups::grid_group::sync() between phases, which costs about as much as one kernel boundary's drain and
// no launch. The decoupled look-back of the one-pass partition stays safe: a tile waits only on tiles of lower index,
// which belong to blocks that are resident (co-residency is what the cooperative launch guarantees) and that reached
// them first in their own tile order. Registers: the partition phases keep a thread's 16 rows of records in registers
// (168-178 of them in their own kernels, one block per multiprocessor); here the launch bounds ask for two blocks per
// multiprocessor, 128 registers (ptxas: 328 bytes of spill stores), so that at 2^20 bodies every tile of a level has
// a block of its own (256 tiles, 264 blocks on an H100); four blocks (64 registers) spilled 3.4 KB per thread.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceAttributes.hpp"
#include "orb/cuda/OrbGpuLayout.cuh"
#include "orb/cuda/OrbGpuOnePassPartition.cuh"
#include "orb/cuda/OrbGpuPartition.cuh"
#include "orb/cuda/OrbGpuSelect.cuh"

#include <cooperative_groups.h>
#include <stdexcept>

namespace gravlab {
namespace {

using namespace orbdevice;

constexpr int kCooperativeBlocksPerMultiprocessor = 2;

/// phase(tile) for every tile of the level that falls to this block.
template <typename Phase> __device__ void forEachTile(const OrbLevel& level, const Phase& phase) {
    for (std::uint32_t tile = blockIdx.x; tile < level.gridTiles; tile += gridDim.x) {
        phase(tile);
        __syncthreads();
    }
}

/// The level's pivots: three radix passes or 32 bisection rounds, a grid barrier after each.
__device__ void findPivots(const OrbLevelPlan& plan, const OrbLevel& level, cooperative_groups::grid_group& grid) {
    if (plan.finder == OrbCutFinder::RadixSelect) {
        for (int pass = 0; pass < int(kOrbRadixPasses); ++pass) {
            forEachTile(level, [&](std::uint32_t tile) { radixPassTile(level, pass, tile); });
            grid.sync();
        }
        return;
    }
    for (int round = 0; round < kBisectionRounds; ++round) {
        forEachTile(level, [&](std::uint32_t tile) { bisectRoundTile(level, tile); });
        grid.sync();
    }
}

// Per level: the work of the per-phase kernels (their comments state it), plus one grid barrier per phase.
__global__ void __launch_bounds__(kOrbTileThreads, kCooperativeBlocksPerMultiprocessor)
    orbLevelsKernel(OrbLevelPlan plan) {
    cooperative_groups::grid_group grid = cooperative_groups::this_grid();
    OrbLevel level = plan.common;
    for (std::uint32_t depth = 0; depth < plan.levelCount; ++depth) {
        const std::uint32_t first = plan.levelSplitBegin[depth];
        level.splits = plan.common.splits + first;
        level.splitCount = plan.levelSplitBegin[depth + 1] - first;
        level.gridTiles = std::uint32_t(
            (std::uint64_t(level.bodyCount) + std::uint64_t(level.splitCount) * (kOrbTileBodies - 1)) / kOrbTileBodies);
        level.from = plan.records[depth % 2];
        level.to = plan.records[1 - depth % 2];
        if (blockIdx.x == 0)
            layOutLevel(level, depth == 0, plan.finder);
        grid.sync();
        findPivots(plan, level, grid);
        if (plan.onePass) {
            forEachTile(level, [&](std::uint32_t tile) { onePassPartitionTile(level, tile); });
        } else {
            forEachTile(level, [&](std::uint32_t tile) { countTile(level, tile); });
            grid.sync();
            forEachTile(level, [&](std::uint32_t tile) { scatterTile(level, tile); });
        }
        grid.sync();
    }
}

} // namespace

unsigned orbCooperativeGridBlocks() {
    const int blocksPerMultiprocessor = residentBlocksPerMultiprocessor(orbLevelsKernel, int(kOrbTileThreads));
    if (blocksPerMultiprocessor < 1)
        throw std::runtime_error("ORB: the cooperative level kernel does not fit on a multiprocessor");
    return unsigned(blocksPerMultiprocessor * multiprocessorCount());
}

void launchOrbLevelsCooperative(const OrbLevelPlan& plan, cudaStream_t stream) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(plan.gridBlocks);
    config.blockDim = dim3(kOrbTileThreads);
    config.dynamicSmemBytes = 0;
    config.stream = stream;
    cudaLaunchAttribute cooperative{};
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    config.attrs = &cooperative;
    config.numAttrs = 1;
    CUDA_CHECK(cudaLaunchKernelEx(&config, orbLevelsKernel, plan));
    checkLaunch("orbLevelsKernel");
}

} // namespace gravlab
