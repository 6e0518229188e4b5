// One GPU per rank, agreed by all ranks (see RankDevice.hpp).
#include "distributed/cuda/RankDevice.hpp"

#include <gravlab/sim/DeviceInfo.hpp>

#include <array>
#include <cstdlib>
#include <cuda_runtime.h>

namespace gravlab {
namespace {

int environmentInteger(const char* name, int fallback) {
    const char* value = std::getenv(name);
    if (value == nullptr)
        return fallback;
    char* end = nullptr;
    const long parsed = std::strtol(value, &end, 10);
    return end != value && *end == '\0' && parsed >= 0 ? int(parsed) : fallback;
}

int localRankOf(const Communicator& world) {
    return environmentInteger("OMPI_COMM_WORLD_LOCAL_RANK", world.rank());
}

} // namespace

void preferRankDevice(const Communicator& world) {
    int deviceCount = 0;
    if (const int localRank = localRankOf(world);
        cudaGetDeviceCount(&deviceCount) == cudaSuccess && localRank < deviceCount)
        (void)cudaSetDevice(localRank); // a failure leaves the default device, which selectRankDevice reports
}

std::string selectRankDevice(Communicator& world) {
    const int localRank = localRankOf(world);
    const int localSize = environmentInteger("OMPI_COMM_WORLD_LOCAL_SIZE", world.size());
    int deviceCount = 0;
    const cudaError_t counted = cudaGetDeviceCount(&deviceCount);
    std::string reason;
    if (counted != cudaSuccess || deviceCount == 0) {
        reason = "no CUDA GPU on this host (" +
                 std::string(counted != cudaSuccess ? cudaGetErrorString(counted) : "none counted") + ")";
    } else if (localSize > deviceCount) {
        reason = std::to_string(localSize) + " ranks share a host with " + std::to_string(deviceCount) +
                 " GPUs, and ranks on GPUs need one each: start at most " + std::to_string(deviceCount) +
                 " ranks per host";
    } else if (cudaSetDevice(localRank) != cudaSuccess) {
        reason = "GPU " + std::to_string(localRank) + " could not be selected";
    } else {
        std::string unavailable;
        if (!cudaDeviceAvailable(unavailable))
            reason = "GPU " + std::to_string(localRank) + ": " + unavailable;
    }
    std::array<double, 1> failed{reason.empty() ? 0.0 : 1.0};
    world.allReduceMax(failed);
    if (failed[0] == 0)
        return {};
    return reason.empty() ? "another rank found no GPU of its own" : reason;
}

} // namespace gravlab
