#pragma once
// CUDA runtime errors turned into sentences for render's CUDA code (interop, the particle splat); CUDA builds only.
//
// Design note: sim's CUDA_CHECK lives behind the simulation's private headers, which render does not see, so render
// has this one small set instead of one copy per file, in a namespace of its own so that it never meets sim's
// functions of the same names at link time. Destructors log instead of throwing.
#include <gravlab/sim/VisualSource.hpp>

#include <cuda_runtime_api.h>
#include <string>
#include <string_view>

namespace gravlab::interop {

/// "cudaErrorOperatingSystem (OS call failed or operation not supported on this OS)": name and CUDA's description.
std::string describeCudaError(cudaError_t error);

/// Throws std::runtime_error "CUDA error: <what> failed: <error>" when error != cudaSuccess.
void throwOnCudaError(cudaError_t error, std::string_view what);

/// For destructors: prints the failure to stderr instead of throwing.
void logCudaFailure(cudaError_t error, const char* what) noexcept;

/// The CUDA stream behind an opaque StreamHandle.
inline cudaStream_t cudaStreamOf(StreamHandle stream) {
    return static_cast<cudaStream_t>(stream.value);
}

} // namespace gravlab::interop
