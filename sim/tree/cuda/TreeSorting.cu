// The CUB primitives of the octree build: radix sorts of (key, value) pairs and an exclusive scan.
//
// Design note: the sorts take CUB's double-buffer form, whose temporary storage is a few histograms instead of a
// second copy of the data; the result lands in either buffer, and the functions return which. Temporary storage is
// one growing buffer shared by all three, so a steady simulation allocates nothing after its first step.
#include "device/cuda/CudaCheck.hpp"
#include "tree/cuda/TreeSorting.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

namespace gravlab {
namespace {

void ensureBytes(DeviceBuffer<unsigned char>& scratch, std::size_t bytes) {
    if (scratch.size() < bytes)
        scratch.resize(bytes);
}

template <typename Key>
int sortPairs(Key* keys[2], unsigned* values[2], unsigned count, int keyBits, DeviceBuffer<unsigned char>& scratch,
              cudaStream_t stream) {
    cub::DoubleBuffer<Key> keyBuffers(keys[0], keys[1]);
    cub::DoubleBuffer<unsigned> valueBuffers(values[0], values[1]);
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keyBuffers, valueBuffers, count, 0, keyBits, stream));
    ensureBytes(scratch, bytes);
    CUDA_CHECK(
        cub::DeviceRadixSort::SortPairs(scratch.data(), bytes, keyBuffers, valueBuffers, count, 0, keyBits, stream));
    // Keys and values move together, so both double buffers end on the same side.
    return keyBuffers.selector;
}

} // namespace

int sortKeysWithIndices(std::uint64_t* keys[2], unsigned* indices[2], unsigned count, int keyBits,
                        DeviceBuffer<unsigned char>& scratch, cudaStream_t stream) {
    return sortPairs(keys, indices, count, keyBits, scratch, stream);
}

int sortLevelsWithIndices(std::uint8_t* levels[2], unsigned* indices[2], unsigned count, int keyBits,
                          DeviceBuffer<unsigned char>& scratch, cudaStream_t stream) {
    return sortPairs(levels, indices, count, keyBits, scratch, stream);
}

void exclusiveSum(const unsigned* in, unsigned* out, unsigned count, DeviceBuffer<unsigned char>& scratch,
                  cudaStream_t stream) {
    std::size_t bytes = 0;
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, count, stream));
    ensureBytes(scratch, bytes);
    CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, in, out, count, stream));
}

} // namespace gravlab
