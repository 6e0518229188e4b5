// An empty kernel whose attributes tell whether the current device can run this build's code (design note in the
// header).
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/KernelImageProbe.hpp"

#include <cuda_runtime_api.h>

namespace gravlab {
namespace {

__global__ void kernelImageProbeKernel() {}

} // namespace

std::string kernelImageProblem() {
    cudaFuncAttributes attributes{};
    const cudaError_t error = cudaFuncGetAttributes(&attributes, kernelImageProbeKernel);
    cudaGetLastError(); // not a sticky error: clear it so later calls start clean
    if (error == cudaSuccess)
        return {};
    int ordinal = 0;
    cudaDeviceProp properties{};
    if (cudaGetDevice(&ordinal) != cudaSuccess || cudaGetDeviceProperties(&properties, ordinal) != cudaSuccess) {
        cudaGetLastError();
        return "the NVIDIA GPU cannot run Gravlab's kernels: " + describeCudaError(error);
    }
    const std::string capability = std::to_string(properties.major) + std::to_string(properties.minor);
    if (error == cudaErrorInvalidDeviceFunction || error == cudaErrorNoKernelImageForDevice)
        return "this build of Gravlab has no GPU code for the " + std::string(properties.name) +
               " (compute capability " + std::to_string(properties.major) + "." + std::to_string(properties.minor) +
               "): rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + capability + " (or add " + capability + " to the list)";
    return "the " + std::string(properties.name) + " cannot run Gravlab's kernels: " + describeCudaError(error);
}

} // namespace gravlab
