// The partition's per-phase kernels: tile counts and cuts, then the stable scatter, one launch each over the level's
// tiles (the device code is in OrbGpuPartition.cuh). The design note is in OrbGpu.hpp.
#include "device/cuda/CudaCheck.hpp"
#include "orb/cuda/OrbGpuLayout.cuh"
#include "orb/cuda/OrbGpuPartition.cuh"

namespace gravlab {
namespace {

__global__ void orbCountKernel(OrbLevel level) {
    orbdevice::countTile(level, blockIdx.x);
}

__global__ void orbScatterKernel(OrbLevel level, OrbLevel next, OrbCutFinder finder) {
    orbdevice::scatterTile(level, blockIdx.x);
    // The next level's layout needs every cut of this one (written by the count kernel) and nothing of the records.
    if (next.splitCount > 0 && orbdevice::lastBlockOfGrid(level.state->partitionBlocksDone))
        orbdevice::layOutLevel(next, false, finder);
}

} // namespace

void launchOrbCountAndCut(const OrbLevel& level, cudaStream_t stream) {
    orbCountKernel<<<level.gridTiles, kOrbTileThreads, 0, stream>>>(level);
    checkLaunch("orbCountKernel");
}

void launchOrbScatter(const OrbLevel& level, const OrbLevel& next, OrbCutFinder finder, cudaStream_t stream) {
    orbScatterKernel<<<level.gridTiles, kOrbTileThreads, 0, stream>>>(level, next, finder);
    checkLaunch("orbScatterKernel");
}

} // namespace gravlab
