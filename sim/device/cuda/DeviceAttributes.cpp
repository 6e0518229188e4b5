// The per-process cache of device attributes and kernel occupancies (DeviceAttributes.hpp).
#include "device/cuda/DeviceAttributes.hpp"

#include "device/cuda/CudaCheck.hpp"

#include <compare>
#include <map>
#include <mutex>

namespace gravlab {
namespace {

struct OccupancyKey {
    int device;
    const void* kernel;
    int threadsPerBlock;
    auto operator<=>(const OccupancyKey&) const = default;
};

struct AttributeCache {
    std::mutex mutex;
    std::map<int, int> multiprocessors;         ///< by device ordinal
    std::map<OccupancyKey, int> residentBlocks; ///< per multiprocessor
};

AttributeCache& attributeCache() {
    static AttributeCache cache;
    return cache;
}

int currentDevice() {
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    return device;
}

} // namespace

int multiprocessorCount() {
    const int device = currentDevice();
    AttributeCache& cache = attributeCache();
    const std::lock_guard lock(cache.mutex);
    if (const auto known = cache.multiprocessors.find(device); known != cache.multiprocessors.end())
        return known->second;
    int count = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    cache.multiprocessors.emplace(device, count);
    return count;
}

int residentBlocksPerMultiprocessor(const void* kernel, int threadsPerBlock) {
    const OccupancyKey key{currentDevice(), kernel, threadsPerBlock};
    AttributeCache& cache = attributeCache();
    const std::lock_guard lock(cache.mutex);
    if (const auto known = cache.residentBlocks.find(key); known != cache.residentBlocks.end())
        return known->second;
    int blocks = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threadsPerBlock, 0));
    cache.residentBlocks.emplace(key, blocks);
    return blocks;
}

} // namespace gravlab
