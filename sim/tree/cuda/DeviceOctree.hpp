#pragma once
// The CUDA octree's data: its root cube, its cells in breadth-first order, and the views the kernels take.
//
// Design note (layout): cells are stored breadth-first, so every depth is one contiguous range (levelBegin on the
// host) and the children of a cell are contiguous, which lets the force walk push a cell's children as one range and
// the summary run one launch per level. Per cell, structure of arrays, each array read by the pass that needs it:
//   monopole        float4 (com x, y, z, mass)            walk: opening test and multipole; summary
//   quadrupole      float4 (qxx, qyy, qzz, qxy)            walk: multipole (TreeMath.hpp's traceless quadrupole)
//   quadrupoleMixedTrace float4 (qxz, qyz, T, 0): the mixed terms and T = sum m |x - com|^2 (softening term)
//   openingRadius2  float  (s / theta + delta)^2           walk: opening test (TreeMath.hpp's criterion)
//   relativeErrorScale float M s^3                         walk: the relative criterion's test (TreeMath.hpp)
//   content         uint2  inner cell: (first child, child count); leaf: (first body, body count | kLeafFlag)
//   bodyRange       uint2  every cell: (first body, body count) in tree order (slots of DeviceTree's permutation)
//   level           uint8  depth of every cell (the overlay and the summary's cell geometry)
// 73 bytes per cell; a Plummer sphere needs about 0.12 cells per body with leaves of up to kTreeLeafCapacity bodies.
// A cell's geometric box is not stored: it follows from the Morton key of its first body and its depth
// (cellBoxOf in TreeKeys.cuh), which is how the summary, the overlay and the tests get it.
#include <cstddef>
#include <cstdint>
#include <vector>
#include <vector_types.h>

namespace gravlab {

/// Deepest level: 21 bits per axis fill a 63-bit Morton key. A cell at this depth is a leaf whatever it holds, which
/// is what keeps coincident bodies from splitting forever.
inline constexpr int kTreeMaxDepth = 21;
inline constexpr int kTreeLevelCount = kTreeMaxDepth + 1;
/// A cell holding more bodies than this splits (unless at kTreeMaxDepth). 32, one body batch of the walk, keeps the
/// tree at about 0.12 cells per body. Measured on an H100 (relative criterion, alpha 0.0025, 2026-11-25): leaves of 16,
/// 24 and 32 step 1M bodies in 4.15, 4.17, 4.18 ms and 16M in 38.4, 38.3, 38.2 ms (Plummer) with the same errors,
/// since the walk rarely accepts a leaf whole; the peak device memory at 16M falls from 127 to 121 and 116 bytes per
/// body.
inline constexpr unsigned kTreeLeafCapacity = 32;
/// Bodies per walk group: one warp walks the tree for up to this many bodies, up to 3 per lane (TreeGroups.cu,
/// TreeForces.cu). Measured on an H100 (Plummer, theta 0.5): 64 and 96 give 10-11% (1M) and 14-18% (16M) shorter
/// steps than 32; 128 is slower at 1M again, as its boxes open more cells than its bodies share.
inline constexpr unsigned kWalkGroupSize = 96;
/// The group capacity below kLargeWalkGroupMinBodiesPerSM bodies per multiprocessor: groups of 96 make a third as
/// many warps as groups of 32, and with fewer than about two waves of them the chip idles at the tail (H100, 132 SMs:
/// 2^16 bodies step in 1.0 ms with groups of 32 and 1.8 ms with 96, 2^18 in 2.39 and 2.51 ms; from 2^19 on 96 wins).
inline constexpr unsigned kSmallWalkGroupSize = 32;
inline constexpr unsigned kLargeWalkGroupMinBodiesPerSM = 2048;
/// Leaves of at most this many bodies are always summed body by body by the walk (TreeForces.cu), never expanded: the
/// quadrupole term costs about as much as two softened monopoles (40 instructions against 14), and the direct sum is
/// exact.
inline constexpr unsigned kTreeDirectLeafMaxBodies = 2;
/// Marks a leaf in content.y; body counts stay below 2^28 (kMaxBodyCount).
inline constexpr unsigned kLeafFlag = 0x80000000u;
/// The walk packs (first child, count - 1) into 32 bits: 29 bits of cell index.
inline constexpr std::size_t kMaxTreeCells = std::size_t{1} << 29;

/// The root cube, written by the bounding-box kernel.
struct TreeFrame {
    float lowX, lowY, lowZ; ///< lower corner, N-body length units
    float side;             ///< side of the cube
    float cellsPerLength;   ///< 2^kTreeMaxDepth / side: grid cells of the deepest level per length unit
};

/// What the build tells the host at the step's one synchronisation point.
struct TreeBuildStatus {
    unsigned nonFiniteBodies;                  ///< bodies whose position is NaN or infinite
    unsigned levelCellCounts[kTreeLevelCount]; ///< cells per depth
};

/// Read-only pointers to the cell arrays, passed to kernels by value.
struct OctreeView {
    const float4* monopole;
    const float4* quadrupole;
    const float4* quadrupoleMixedTrace;
    const float* openingRadius2;
    const float* relativeErrorScale;
    const uint2* content;
    const uint2* bodyRange;
    const std::uint8_t* level;
    unsigned cellCount;
};

/// The arrays the summary writes.
struct OctreeMultipoles {
    float4* monopole;
    float4* quadrupole;
    float4* quadrupoleMixedTrace;
    float* openingRadius2;
    float* relativeErrorScale;
};

/// Host copy of a built tree, for tests and tools (cells in breadth-first order; body ranges and walk groups count
/// tree slots, which treeOrder maps to bodies).
struct OctreeSnapshot {
    TreeFrame frame{};
    std::vector<std::size_t> levelBegin; ///< first cell of each depth, then the cell count
    std::vector<float4> monopole;
    std::vector<float4> quadrupole;
    std::vector<float4> quadrupoleMixedTrace;
    std::vector<float> openingRadius2;
    std::vector<uint2> content;
    std::vector<uint2> bodyRange;
    std::vector<unsigned> treeOrder;             ///< tree slot -> body index in the order readBodies() returns
    std::vector<std::uint8_t> leafDepthOfBodies; ///< per body, in the order readBodies() returns them
    std::vector<uint2> walkGroups;               ///< (first slot, body count) of each walk group
};

} // namespace gravlab
