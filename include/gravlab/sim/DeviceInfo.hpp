#pragma once
// Which CUDA device the core runs on, whether there is one, and whether N bodies fit in its memory.
//
// Design note: availability is asked once per decision (backend choice, test skip) and answered with a reason a
// person can act on, e.g. "no CUDA device: cudaGetDeviceCount returned cudaErrorNoDevice (no CUDA-capable device is
// detected)". The memory check compares the bytes a body count needs with the device's free memory before anything
// is allocated, so an impossible N is refused with a sentence naming N and the memory, not with a failed cudaMalloc
// halfway through loading. This header names no CUDA type, so code that must not see CUDA headers (the backend choice,
// the command line) can ask; the functions are defined only in builds with the CUDA core (GRAVLAB_HAS_CUDA).
#include <gravlab/sim/MemoryBudget.hpp> // formatBytes

#include <cstdint>
#include <string>

namespace gravlab {

struct DeviceSummary {
    int ordinal = 0;
    std::string name; ///< e.g. "NVIDIA H100 80GB HBM3"
    int computeCapabilityMajor = 0;
    int computeCapabilityMinor = 0;
    int multiprocessorCount = 0;
    std::uint64_t totalMemoryBytes = 0;
    std::uint64_t freeMemoryBytes = 0;
};

/// True when a usable CUDA device is present; otherwise false and reason says why (driver missing, no device, no GPU
/// code in this build for the device's compute capability, ...).
bool cudaDeviceAvailable(std::string& reason);

/// The current device; throws std::runtime_error when there is none.
DeviceSummary queryCurrentDevice();

/// The current device for a backend about to use it; throws std::runtime_error naming backendName and why, when no
/// usable device is present (cudaDeviceAvailable).
DeviceSummary requireCudaDevice(const std::string& backendName);

/// Bytes to hold bodyCount bodies at bytesPerBody plus a fixed reserve for scratch space; saturates instead of
/// overflowing for absurd counts.
std::uint64_t deviceBytesNeeded(std::uint64_t bodyCount, std::uint64_t bytesPerBody);

/// Throws std::runtime_error when bodyCount bodies do not fit in the current device's free memory plus heldBytes
/// (memory the caller holds now and will release first); the message names the body count, the memory needed and
/// available, and the largest body count that fits.
void requireDeviceMemoryForBodies(std::uint64_t bodyCount, std::uint64_t bytesPerBody, std::uint64_t heldBytes = 0);

} // namespace gravlab
