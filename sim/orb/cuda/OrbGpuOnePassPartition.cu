// The one-pass partition's kernel, one block per tile of the level (the device code and its design note are in
// OrbGpuOnePassPartition.cuh).
#include "device/cuda/CudaCheck.hpp"
#include "orb/cuda/OrbGpuOnePassPartition.cuh"

namespace gravlab {
namespace {

__global__ void orbOnePassPartitionKernel(OrbLevel level) {
    orbdevice::onePassPartitionTile(level, blockIdx.x);
}

} // namespace

void launchOrbOnePassPartition(const OrbLevel& level, cudaStream_t stream) {
    orbOnePassPartitionKernel<<<level.gridTiles, kOrbTileThreads, 0, stream>>>(level);
    checkLaunch("orbOnePassPartitionKernel");
}

} // namespace gravlab
