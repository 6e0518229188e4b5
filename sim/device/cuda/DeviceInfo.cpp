#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/KernelImageProbe.hpp"

#include <gravlab/sim/DeviceInfo.hpp>

#include <limits>
#include <stdexcept>

namespace gravlab {
namespace {

/// Scratch beyond the per-body buffers: reduction partials, CUB temporaries, the runtime's own allocations.
constexpr std::uint64_t kDeviceReserveBytes = 64ull << 20;

} // namespace

namespace {

/// Empty when the current device can run this build's kernels; otherwise why not, naming the chip and the CMake
/// option that adds its code.
std::string kernelImageProblem() {
    const cudaError_t error = kernelImageStatus();
    if (error == cudaSuccess)
        return {};
    DeviceSummary device;
    try {
        device = queryCurrentDevice();
    } catch (const std::exception&) {
        return "the NVIDIA GPU cannot run Gravlab's kernels: " + describeCudaError(error);
    }
    const std::string major = std::to_string(device.computeCapabilityMajor);
    const std::string minor = std::to_string(device.computeCapabilityMinor);
    if (error == cudaErrorInvalidDeviceFunction || error == cudaErrorNoKernelImageForDevice)
        return "this build of Gravlab has no GPU code for the " + device.name + " (compute capability " + major + "." +
               minor + "): rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + major + minor + " (or add " + major + minor +
               " to the list)";
    return "the " + device.name + " cannot run Gravlab's kernels: " + describeCudaError(error);
}

/// What the CUDA runtime found, in a user's words: no driver, a driver too old for this build, no GPU, a GPU this
/// build has no code for, or a usable device.
std::string probeCudaDevice() {
    int driverVersion = 0;
    cudaDriverGetVersion(&driverVersion); // 0 when no NVIDIA driver (libcuda) is installed
    int deviceCount = 0;
    const cudaError_t error = cudaGetDeviceCount(&deviceCount);
    cudaGetLastError(); // a failed query is not a sticky error; clear it so later calls start clean
    if (driverVersion == 0)
        return "no NVIDIA driver is installed (the CUDA driver library libcuda was not found)";
    const std::string driver = "the NVIDIA driver supports CUDA " + std::to_string(driverVersion / 1000) + "." +
                               std::to_string(driverVersion % 1000 / 10);
    if (error == cudaErrorInsufficientDriver)
        return "the NVIDIA driver is too old for this build (" + driver + ", Gravlab was built with CUDA " +
               std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10) +
               "): update the driver";
    if (error == cudaErrorNoDevice || (error == cudaSuccess && deviceCount == 0))
        return "no NVIDIA GPU was found (" + driver + ", but it sees no GPU)";
    if (error != cudaSuccess)
        return "the NVIDIA GPU cannot be used: " + describeCudaError(error) + " (" + driver + ")";
    return kernelImageProblem();
}

} // namespace

bool cudaDeviceAvailable(std::string& reason) {
    // Asked once per process: the answer does not change while Gravlab runs, and the panel's edits must not re-probe.
    static const std::string problem = probeCudaDevice();
    reason = problem;
    return problem.empty();
}

DeviceSummary requireCudaDevice(const std::string& backendName) {
    std::string reason;
    if (!cudaDeviceAvailable(reason))
        throw std::runtime_error(backendName + " is unavailable: " + reason);
    return queryCurrentDevice();
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
