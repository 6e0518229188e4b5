#pragma once
// Kernels of the GPU ORB (OrbGpu.cu), behind launch functions free of device code. See OrbGpu.hpp for the design.
#include "DeviceBuffer.hpp"

#include <Orb.hpp>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector_types.h>

namespace gravlab {

/// How a level's pivot keys are found; both give the same key (the rank-k key in (coordinate, index) order).
enum class OrbCutFinder {
    Bisection,   ///< the baseline: 32 counting passes over the keys per level, one bracket halving each
    RadixSelect, ///< 4 passes of 8-bit digit histograms per level, each fixing one byte of the pivot key
};

/// The working state of one cell being split (one per inner cell of the tree, a level's splits contiguous).
struct OrbSplit {
    std::uint32_t cell;           ///< index of the cell in the cell array
    std::uint32_t begin;          ///< the cell's first body
    std::uint32_t end;            ///< one past its last body
    std::uint32_t split;          ///< first body of the right child (the global count-balance target)
    std::int32_t axis;            ///< the cut axis, set on the device from the cell's box
    std::uint32_t low;            ///< bisection bracket on the ordered coordinate key, inclusive; radix select: the
                                  ///< pivot's bytes fixed so far (the rest zero)
    std::uint32_t high;           ///< upper end of the bracket, inclusive; low == high is the pivot key
    std::uint32_t count;          ///< bodies counted in the current round
    std::uint32_t rank;           ///< radix select: the pivot's rank among the cell's bodies that match low's bytes
    std::uint32_t less;           ///< bodies strictly below the pivot key
    std::uint32_t largestLeftKey; ///< the largest key among the bodies going left
};

/// Bounding box of the positions as ordered keys (min x, y, z, max x, y, z) plus the number of non-finite positions.
void launchOrbBounds(const float4* positionMass, std::uint32_t bodyCount, std::uint32_t* boundsAndNonFinite,
                     cudaStream_t stream);
/// Host decoding of an ordered key back to its float.
float orbKeyToFloat(std::uint32_t key);

/// Splits the cells splits[first, first + count) of one level, permuting the three body arrays in place. scratch holds
/// one float4 per body; keys, bodySplit, flags and prefix one 32-bit word per body; radixBins kOrbRadixBins words per
/// split of the level (RadixSelect only).
inline constexpr std::uint32_t kOrbRadixBins = 256;
struct OrbLevelBuffers {
    OrbCell* cells;
    OrbSplit* splits;
    std::uint32_t* keys;
    std::int32_t* bodySplit;
    std::uint32_t* flags;
    std::uint32_t* prefix;
    float4* scratch;
    std::uint32_t* radixBins;
};
void launchOrbSplitLevel(float4* bodyArrays[3], std::uint32_t bodyCount, const OrbLevelBuffers& buffers,
                         std::uint32_t first, std::uint32_t count, OrbCutFinder finder,
                         DeviceBuffer<unsigned char>& scanScratch, cudaStream_t stream);

} // namespace gravlab
