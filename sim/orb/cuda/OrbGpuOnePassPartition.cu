// The one-pass partition's kernel, one block per tile of the level (the device code and its design note are in
// OrbGpuOnePassPartition.cuh).
#include "device/cuda/CudaCheck.hpp"
#include "orb/cuda/OrbGpuLayout.cuh"
#include "orb/cuda/OrbGpuOnePassPartition.cuh"

namespace gravlab {
namespace {

__global__ void orbOnePassPartitionKernel(OrbLevel level, OrbLevel next, OrbCutFinder finder) {
    orbdevice::onePassPartitionTile(level, blockIdx.x);
    // The last block to finish lays out the next level: every cut of this level is written by then, and its
    // clearing of the tile statuses comes after every look-back of this level.
    if (next.splitCount > 0 && orbdevice::lastBlockOfGrid(level.state->partitionBlocksDone))
        orbdevice::layOutLevel(next, false, finder);
}

} // namespace

void launchOrbOnePassPartition(const OrbLevel& level, const OrbLevel& next, OrbCutFinder finder, cudaStream_t stream) {
    orbOnePassPartitionKernel<<<level.gridTiles, kOrbTileThreads, 0, stream>>>(level, next, finder);
    checkLaunch("orbOnePassPartitionKernel");
}

} // namespace gravlab
