#pragma once
// Device helpers of the CUDA octree: Morton keys in the root cube, key prefixes per depth, cell extents in the sorted
// key array, and a cell's geometric box.
//
// Design note: the key layout is the CPU octree's (MortonKeys.hpp: 21 bits per axis, x in the highest bit of each
// group of three), so both trees cut space the same way. A cell of depth L is a run of sorted keys sharing their top
// 3 L bits; the key of a cell's first body therefore also gives the cell's integer coordinates and with them its box.
#include "tree/MortonKeys.hpp"
#include "tree/cuda/DeviceOctree.hpp"

#include <cstdint>
#include <cuda_runtime.h>

namespace gravlab::tree {

static_assert(kMortonBitsPerAxis == kTreeMaxDepth, "one tree level per key bit of each axis");

/// floor((x - low) * cellsPerLength) clamped to the grid [0, 2^21 - 1]; NaN lands on 0, so any input gives a key.
__device__ __forceinline__ std::uint32_t gridCoordinate(float x, float low, float cellsPerLength) {
    const float scaled = (x - low) * cellsPerLength;
    const float clamped = fminf(fmaxf(scaled, 0.0f), float((1u << kTreeMaxDepth) - 1u));
    return static_cast<std::uint32_t>(clamped);
}

__device__ __forceinline__ std::uint64_t mortonKeyOf(const TreeFrame& frame, float x, float y, float z) {
    return mortonKey(gridCoordinate(x, frame.lowX, frame.cellsPerLength),
                     gridCoordinate(y, frame.lowY, frame.cellsPerLength),
                     gridCoordinate(z, frame.lowZ, frame.cellsPerLength));
}

/// The top 3 * depth bits: equal prefixes means the same cell of that depth.
__device__ __forceinline__ std::uint64_t keyPrefix(std::uint64_t key, int depth) {
    return key >> (3 * (kTreeMaxDepth - depth));
}

/// Depth of the deepest cell holding both keys (kTreeMaxDepth for equal keys).
__device__ __forceinline__ int commonDepth(std::uint64_t a, std::uint64_t b) {
    // Bit 63 is never set, so a ^ b has at least one leading zero and the shared bits are clz - 1.
    return a == b ? kTreeMaxDepth : (__clzll(static_cast<long long>(a ^ b)) - 1) / 3;
}

/// One past the last body of the depth-`depth` cell that starts at sorted body `first`: an exponential search from
/// first, then a binary search, so a cell of n bodies costs about 2 log2(n) key loads.
__device__ __forceinline__ unsigned cellEnd(const std::uint64_t* __restrict__ keys, unsigned first, int depth,
                                            unsigned bodyCount) {
    const std::uint64_t prefix = keyPrefix(keys[first], depth);
    unsigned inside = first;
    std::uint64_t stride = 1;
    std::uint64_t probe = std::uint64_t(first) + 1;
    while (probe < bodyCount && keyPrefix(keys[probe], depth) == prefix) {
        inside = unsigned(probe);
        stride *= 2;
        probe = std::uint64_t(first) + stride;
    }
    unsigned outside = unsigned(probe < bodyCount ? probe : bodyCount);
    while (outside - inside > 1) {
        const unsigned middle = inside + (outside - inside) / 2;
        if (keyPrefix(keys[middle], depth) == prefix)
            inside = middle;
        else
            outside = middle;
    }
    return outside;
}

struct CellBox {
    float centerX, centerY, centerZ;
    float halfSize;
};

/// Geometric box of the depth-`depth` cell containing the body of this key.
__device__ __forceinline__ CellBox cellBoxOf(const TreeFrame& frame, std::uint64_t key, int depth) {
    const int shift = kTreeMaxDepth - depth;
    const float side = ldexpf(frame.side, -depth);
    const auto center = [&](float low, std::uint64_t axisBits) {
        return low + (float(compactMortonBits(axisBits) >> shift) + 0.5f) * side;
    };
    return {center(frame.lowX, key >> 2), center(frame.lowY, key >> 1), center(frame.lowZ, key), 0.5f * side};
}

} // namespace gravlab::tree
