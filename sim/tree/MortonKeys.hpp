#pragma once
// 63-bit Morton keys (21 bits per axis) and a deterministic parallel sort of keyed bodies, for the CPU octree.
//
// Design note: a key interleaves the bits of the three integer cell coordinates, x in the highest bit of each group
// of three, so sorting by key lays the bodies out along the Z-order curve and every octree cell becomes a run of
// consecutive keys sharing a prefix. The sort orders (key, body index) pairs; the index breaks ties between equal
// keys (coincident bodies), so the order is a strict total order and the result does not depend on the thread count.
// It sorts one chunk per thread with std::sort and merges pairs of chunks in rounds (OpenMP over the pairs).
#include <cstdint>
#include <vector>

namespace gravlab {

inline constexpr int kMortonBitsPerAxis = 21;

struct KeyedBody {
    std::uint64_t key;
    std::uint32_t index;

    friend bool operator<(const KeyedBody& a, const KeyedBody& b) {
        return a.key < b.key || (a.key == b.key && a.index < b.index);
    }
};

/// Spreads the low 21 bits of value so that bit i moves to bit 3i.
constexpr std::uint64_t spreadMortonBits(std::uint64_t value) {
    value &= 0x1FFFFFull;
    value = (value | value << 32) & 0x1F00000000FFFFull;
    value = (value | value << 16) & 0x1F0000FF0000FFull;
    value = (value | value << 8) & 0x100F00F00F00F00Full;
    value = (value | value << 4) & 0x10C30C30C30C30C3ull;
    value = (value | value << 2) & 0x1249249249249249ull;
    return value;
}

/// Inverse of spreadMortonBits: gathers bits 0, 3, 6, ... into the low 21 bits.
constexpr std::uint64_t compactMortonBits(std::uint64_t value) {
    value &= 0x1249249249249249ull;
    value = (value | value >> 2) & 0x10C30C30C30C30C3ull;
    value = (value | value >> 4) & 0x100F00F00F00F00Full;
    value = (value | value >> 8) & 0x1F0000FF0000FFull;
    value = (value | value >> 16) & 0x1F00000000FFFFull;
    value = (value | value >> 32) & 0x1FFFFFull;
    return value;
}

constexpr std::uint64_t mortonKey(std::uint32_t ix, std::uint32_t iy, std::uint32_t iz) {
    return spreadMortonBits(ix) << 2 | spreadMortonBits(iy) << 1 | spreadMortonBits(iz);
}

/// Sorts items by (key, index), in parallel for large inputs; deterministic.
void sortKeyedBodies(std::vector<KeyedBody>& items);

} // namespace gravlab
