// The per-process cache of device attributes and kernel occupancies (DeviceAttributes.hpp).
#include "device/cuda/DeviceAttributes.hpp"

#include "device/cuda/CudaCheck.hpp"

#include <compare>
#include <map>
#include <mutex>
#include <utility>

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
    std::map<std::pair<int, cudaDeviceAttr>, int> attributes; ///< by device ordinal and attribute
    std::map<OccupancyKey, int> residentBlocks;               ///< per multiprocessor
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

/// The current device's attribute, queried once.
int cachedAttribute(cudaDeviceAttr attribute) {
    const int device = currentDevice();
    AttributeCache& cache = attributeCache();
    const std::lock_guard lock(cache.mutex);
    const std::pair key{device, attribute};
    if (const auto known = cache.attributes.find(key); known != cache.attributes.end())
        return known->second;
    int value = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, device));
    cache.attributes.emplace(key, value);
    return value;
}

} // namespace

int multiprocessorCount() {
    return cachedAttribute(cudaDevAttrMultiProcessorCount);
}

int computeCapabilityMajor() {
    return cachedAttribute(cudaDevAttrComputeCapabilityMajor);
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
