// An empty kernel whose attributes tell whether the current device can run this build's code (design note in the
// header).
#include "device/cuda/KernelImageProbe.hpp"

namespace gravlab {
namespace {

__global__ void kernelImageProbeKernel() {}

} // namespace

cudaError_t kernelImageStatus() {
    cudaFuncAttributes attributes{};
    const cudaError_t error = cudaFuncGetAttributes(&attributes, kernelImageProbeKernel);
    cudaGetLastError(); // not a sticky error: clear it so later calls start clean
    return error;
}

} // namespace gravlab
