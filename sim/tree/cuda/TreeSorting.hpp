#pragma once
// CUB sorts and scans for the octree build (TreeSorting.cu), behind an interface free of CUB headers.
#include "device/cuda/DeviceBuffer.hpp"

#include <cstdint>
#include <cuda_runtime_api.h>

namespace gravlab {

/// Stable sort of (keys[0], indices[0]) by the low keyBits bits of the key, using the [1] arrays as the second
/// buffers; returns 0 or 1, the side holding the sorted keys and indices. scratch grows as needed.
int sortKeysWithIndices(std::uint64_t* keys[2], unsigned* indices[2], unsigned count, int keyBits,
                        DeviceBuffer<unsigned char>& scratch, cudaStream_t stream);

/// The same for 8-bit keys (cell depths).
int sortLevelsWithIndices(std::uint8_t* levels[2], unsigned* indices[2], unsigned count, int keyBits,
                          DeviceBuffer<unsigned char>& scratch, cudaStream_t stream);

/// out[i] = in[0] + ... + in[i - 1]; in and out must not overlap.
void exclusiveSum(const unsigned* in, unsigned* out, unsigned count, DeviceBuffer<unsigned char>& scratch,
                  cudaStream_t stream);

} // namespace gravlab
