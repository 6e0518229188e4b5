// CUDA errors as sentences (CudaErrors.hpp).
#include "CudaErrors.hpp"

#include <cstdio>
#include <stdexcept>

namespace gravlab::interop {

std::string describeCudaError(cudaError_t error) {
    return std::string(cudaGetErrorName(error)) + " (" + cudaGetErrorString(error) + ")";
}

void throwOnCudaError(cudaError_t error, std::string_view what) {
    if (error != cudaSuccess)
        throw std::runtime_error("CUDA error: " + std::string(what) + " failed: " + describeCudaError(error));
}

void logCudaFailure(cudaError_t error, const char* what) noexcept {
    if (error != cudaSuccess)
        std::fprintf(stderr, "gravlab: CUDA error in %s (ignored during cleanup): %s: %s\n", what,
                     cudaGetErrorName(error), cudaGetErrorString(error));
}

} // namespace gravlab::interop
