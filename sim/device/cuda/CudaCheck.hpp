#pragma once
// Error checking for the CUDA runtime: every call and every kernel launch is checked, and failures throw.
//
// Design note: CUDA_CHECK(expr) turns a failed runtime call into a std::runtime_error that names the expression, the
// file, the line and CUDA's own description, so an error report points at the call that failed. Kernel launches
// return nothing; checkLaunch("fooKernel") right after each launch reads the launch error (bad configuration, too
// much shared memory). Faults inside a kernel surface asynchronously at the next synchronising call; configuring with
// GRAVLAB_CUDA_SYNC_CHECKS=ON makes checkLaunch synchronise too, which pins such a fault to its kernel (slow; for
// debugging). Destructors must not throw: they use logCudaFailure() instead.
#include <cuda_runtime_api.h>
#include <source_location>
#include <stdexcept>
#include <string>

namespace gravlab {

/// "cudaErrorMemoryAllocation (out of memory)": the error's name and CUDA's description.
std::string describeCudaError(cudaError_t error);

/// Throws std::runtime_error "CUDA error: <what> failed at <file>:<line>: <error>" when error != cudaSuccess.
void throwOnCudaError(cudaError_t error, const char* what, const char* file, int line);

/// For destructors: prints the failure to stderr instead of throwing.
void logCudaFailure(cudaError_t error, const char* what) noexcept;

/// Call right after a launch: throws when the launch failed, naming the kernel and the calling line. With
/// GRAVLAB_CUDA_SYNC_CHECKS it also waits for the kernel and checks its execution.
void checkLaunch(const char* kernelName, std::source_location where = std::source_location::current());

} // namespace gravlab

#define CUDA_CHECK(expr) ::gravlab::throwOnCudaError((expr), #expr, __FILE__, __LINE__)
