// The cut finders' per-phase kernels: one launch per radix pass or bisection round over the level's tiles (the device
// code is in OrbGpuSelect.cuh). The design note is in OrbGpu.hpp.
#include "device/cuda/CudaCheck.hpp"
#include "orb/cuda/OrbGpuSelect.cuh"

namespace gravlab {
namespace {

__global__ void orbRadixPassKernel(OrbLevel level, int pass) {
    orbdevice::radixPassTile(level, pass, blockIdx.x);
}

__global__ void orbBisectRoundKernel(OrbLevel level) {
    orbdevice::bisectRoundTile(level, blockIdx.x);
}

} // namespace

void launchOrbFindPivots(const OrbLevel& level, OrbCutFinder finder, cudaStream_t stream) {
    if (finder == OrbCutFinder::RadixSelect) {
        for (int pass = 0; pass < int(kOrbRadixPasses); ++pass) {
            orbRadixPassKernel<<<level.gridTiles, kOrbTileThreads, 0, stream>>>(level, pass);
            checkLaunch("orbRadixPassKernel");
        }
        return;
    }
    for (int round = 0; round < orbdevice::kBisectionRounds; ++round) {
        orbBisectRoundKernel<<<level.gridTiles, kOrbTileThreads, 0, stream>>>(level);
        checkLaunch("orbBisectRoundKernel");
    }
}

} // namespace gravlab
