// The targets of a contiguous slice of bodies, written on the device (see DeviceTargets.hpp): a rank's slice changes at
// every re-cut, and building the flags on the host and copying them up cost 80 ms at 32M bodies.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceTargets.hpp"
#include "device/cuda/LaunchSize.hpp"

namespace gravlab {
namespace {

// Per body: 1 byte written, and 4 inside the slice.
__global__ void sliceTargetsKernel(std::uint32_t* index, std::uint8_t* isTarget, unsigned bodyCount, unsigned begin,
                                   unsigned end) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const bool inside = i >= begin && i < end;
    isTarget[i] = inside ? 1 : 0;
    if (inside)
        index[i - begin] = i;
}

} // namespace

void launchSliceTargets(std::uint32_t* index, std::uint8_t* isTarget, std::size_t bodyCount, std::size_t begin,
                        std::size_t count, cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    const LaunchSize size = launchSize1d(bodyCount);
    sliceTargetsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(index, isTarget, unsigned(bodyCount),
                                                                         unsigned(begin), unsigned(begin + count));
    checkLaunch("sliceTargetsKernel");
}

} // namespace gravlab
