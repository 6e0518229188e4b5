#include "device/cuda/CudaCheck.hpp"

#include <gravlab/sim/DeviceInfo.hpp>

#include <limits>
#include <stdexcept>

namespace gravlab {
namespace {

/// Scratch beyond the per-body buffers: reduction partials, CUB temporaries, the runtime's own allocations.
constexpr std::uint64_t kDeviceReserveBytes = 64ull << 20;

} // namespace

bool cudaDeviceAvailable(std::string& reason) {
    int deviceCount = 0;
    const cudaError_t error = cudaGetDeviceCount(&deviceCount);
    if (error != cudaSuccess) {
        cudaGetLastError(); // the failed query is not a sticky error; clear it so later calls start clean
        reason = "no CUDA device: cudaGetDeviceCount returned " + describeCudaError(error);
        return false;
    }
    if (deviceCount == 0) {
        reason = "no CUDA device: cudaGetDeviceCount found 0 devices";
        return false;
    }
    reason.clear();
    return true;
}

DeviceSummary queryCurrentDevice() {
    DeviceSummary summary;
    CUDA_CHECK(cudaGetDevice(&summary.ordinal));
    cudaDeviceProp properties{};
    CUDA_CHECK(cudaGetDeviceProperties(&properties, summary.ordinal));
    summary.name = properties.name;
    summary.computeCapabilityMajor = properties.major;
    summary.computeCapabilityMinor = properties.minor;
    summary.multiprocessorCount = properties.multiProcessorCount;
    std::size_t freeBytes = 0;
    std::size_t totalBytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    summary.freeMemoryBytes = freeBytes;
    summary.totalMemoryBytes = totalBytes;
    return summary;
}

std::uint64_t deviceBytesNeeded(std::uint64_t bodyCount, std::uint64_t bytesPerBody) {
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    if (bytesPerBody != 0 && bodyCount > (kMax - kDeviceReserveBytes) / bytesPerBody)
        return kMax;
    return bodyCount * bytesPerBody + kDeviceReserveBytes;
}

void requireDeviceMemoryForBodies(std::uint64_t bodyCount, std::uint64_t bytesPerBody, std::uint64_t heldBytes) {
    const DeviceSummary device = queryCurrentDevice();
    const std::uint64_t available = device.freeMemoryBytes + heldBytes;
    const std::uint64_t needed = deviceBytesNeeded(bodyCount, bytesPerBody);
    if (needed <= available)
        return;
    const std::uint64_t usable = available > kDeviceReserveBytes ? available - kDeviceReserveBytes : 0;
    throw std::runtime_error(std::to_string(bodyCount) + " bodies need " +
                             formatBytes(static_cast<double>(bodyCount) * static_cast<double>(bytesPerBody) +
                                         static_cast<double>(kDeviceReserveBytes)) +
                             " of GPU memory (" + std::to_string(bytesPerBody) + " bytes per body plus " +
                             formatBytes(static_cast<double>(kDeviceReserveBytes)) + " of scratch), but " +
                             device.name + " has " + formatBytes(static_cast<double>(available)) +
                             " available; at most " + std::to_string(usable / bytesPerBody) + " bodies fit");
}

} // namespace gravlab
