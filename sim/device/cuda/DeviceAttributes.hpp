#pragma once
// Device attributes and kernel occupancies that launches size their grids (or choose their kind) from, asked of the
// CUDA runtime once.
//
// Design note: a device's multiprocessor count and a kernel's resident blocks per multiprocessor (at a fixed block
// size) cannot change while the process runs, yet the persistent and sliced force kernels need them on every launch.
// They are queried once per process for each device (and kernel and block size) and then served from a cache, so no
// launch path asks the driver again. The cache is keyed by the current device, so a process that switches devices
// gets each device's own values. Thread-safe: one mutex guards the cache, and a value is queried under it, once.
#include <cuda_runtime_api.h>

namespace gravlab {

/// Multiprocessors of the current device. Throws std::runtime_error (CUDA_CHECK) when the query fails.
int multiprocessorCount();

/// The major version of the current device's compute capability (9 on Hopper). Throws like multiprocessorCount().
int computeCapabilityMajor();

/// Blocks of kernel, threadsPerBlock threads each and no dynamic shared memory, that fit on one multiprocessor of the
/// current device at once (cudaOccupancyMaxActiveBlocksPerMultiprocessor). Throws like multiprocessorCount().
int residentBlocksPerMultiprocessor(const void* kernel, int threadsPerBlock);

/// The same for a __global__ function, e.g. residentBlocksPerMultiprocessor(treeForcesKernel, kThreads).
template <typename... Parameters>
int residentBlocksPerMultiprocessor(void (*kernel)(Parameters...), int threadsPerBlock) {
    return residentBlocksPerMultiprocessor(reinterpret_cast<const void*>(kernel), threadsPerBlock);
}

} // namespace gravlab
