#include "device/cuda/CudaCheck.hpp"

#include <cstdio>

namespace gravlab {

std::string describeCudaError(cudaError_t error) {
    return std::string(cudaGetErrorName(error)) + " (" + cudaGetErrorString(error) + ")";
}

void throwOnCudaError(cudaError_t error, const char* what, const char* file, int line) {
    if (error == cudaSuccess)
        return;
    throw std::runtime_error("CUDA error: " + std::string(what) + " failed at " + file + ":" + std::to_string(line) +
                             ": " + describeCudaError(error));
}

void logCudaFailure(cudaError_t error, const char* what) noexcept {
    if (error != cudaSuccess)
        std::fprintf(stderr, "gravlab: CUDA error in %s (ignored during cleanup): %s: %s\n", what,
                     cudaGetErrorName(error), cudaGetErrorString(error));
}

void checkLaunch(const char* kernelName, std::source_location where) {
    const int line = static_cast<int>(where.line());
    const std::string launch = std::string("launch of ") + kernelName;
    throwOnCudaError(cudaGetLastError(), launch.c_str(), where.file_name(), line);
#if defined(GRAVLAB_CUDA_SYNC_CHECKS)
    const std::string execution = std::string("execution of ") + kernelName;
    throwOnCudaError(cudaDeviceSynchronize(), execution.c_str(), where.file_name(), line);
#endif
}

} // namespace gravlab
