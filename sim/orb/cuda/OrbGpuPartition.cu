// The partition's per-phase kernels: tile counts and cuts, then the stable scatter, one launch each over the level's
// tiles (the device code is in OrbGpuPartition.cuh). The design note is in OrbGpu.hpp.
#include "device/cuda/CudaCheck.hpp"
#include "orb/cuda/OrbGpuPartition.cuh"

namespace gravlab {
namespace {

__global__ void orbCountKernel(OrbLevel level) {
    orbdevice::countTile(level, blockIdx.x);
}

__global__ void orbScatterKernel(OrbLevel level) {
    orbdevice::scatterTile(level, blockIdx.x);
}

} // namespace

void launchOrbCountAndCut(const OrbLevel& level, cudaStream_t stream) {
    orbCountKernel<<<level.gridTiles, kOrbTileThreads, 0, stream>>>(level);
    checkLaunch("orbCountKernel");
}

void launchOrbScatter(const OrbLevel& level, cudaStream_t stream) {
    orbScatterKernel<<<level.gridTiles, kOrbTileThreads, 0, stream>>>(level);
    checkLaunch("orbScatterKernel");
}

} // namespace gravlab
