#pragma once
// Launchers of the CUDA octree's kernels, in the order a force evaluation runs them (DeviceTree.cpp drives them).
// Every pointer is a device pointer; sizes are counts of elements; all work is queued on stream.
//   TreeBoundingBox.cu  bounding box, root cube, non-finite count
//   TreeBuild.cu        Morton keys, positions into tree order, leaf depths, cells (pre-order), breadth-first arrays
//   TreeSummary.cu      multipoles and opening radii, one launch per level
//   TreeGroups.cu       walk groups of up to kWalkGroupSize bodies, packed along the tree
//   TreeForces.cu       the warp-per-group walk
//   TreePotentials.cu   per-body potentials, on request
//   TreeCells.cu        cell boxes for the overlay, leaf-depth colours
#include "tree/cuda/DeviceOctree.hpp"

#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <cstdint>
#include <cuda_runtime_api.h>

namespace gravlab {

/// Per-block partial results of the bounding-box reduction and the counter that elects the last block.
struct BoundingBoxScratch {
    float* blockBounds;       ///< 6 floats per block: min x, y, z, max x, y, z
    unsigned* blockNonFinite; ///< 1 per block
    unsigned* finishedBlocks; ///< 1, zero before the first launch; the last block resets it
};
/// Blocks of the bounding-box kernel at most (the scratch arrays hold this many entries).
inline constexpr unsigned kMaxBoundingBoxBlocks = 1024;

/// Reduces the bodies' bounding box and writes the root cube to frame and the non-finite count (zeroing the level
/// counts) to status.
void launchTreeBoundingBox(const float4* positionMass, unsigned bodyCount, const BoundingBoxScratch& scratch,
                           TreeFrame* frame, TreeBuildStatus* status, cudaStream_t stream);

/// keys[i] = Morton key of body i in the root cube, order[i] = i.
void launchMortonKeys(const float4* positionMass, unsigned bodyCount, const TreeFrame* frame, std::uint64_t* keys,
                      unsigned* order, cudaStream_t stream);

/// destination[slot] = source[order[slot]]: the positions in tree order.
void launchGatherBodies(const float4* source, const unsigned* order, float4* destination, unsigned bodyCount,
                        cudaStream_t stream);

/// From sorted keys: leafDepth[i] = depth of the leaf holding body i, cellsStarted[i] = cells whose first body is i;
/// adds the cells per depth to status->levelCellCounts.
void launchLeafDepths(const std::uint64_t* sortedKeys, unsigned bodyCount, std::uint8_t* leafDepth,
                      unsigned* cellsStarted, TreeBuildStatus* status, cudaStream_t stream);

/// Writes the cells in pre-order (cell firstCell[i] + k is the cell of depth commonDepth(i-1, i) + 1 + k starting at
/// body i): its depth, first body, and its own index (the values the breadth-first sort permutes).
void launchEmitCells(const std::uint64_t* sortedKeys, const std::uint8_t* leafDepth, const unsigned* firstCell,
                     unsigned bodyCount, std::uint8_t* cellDepth, unsigned* cellFirstBody, unsigned* cellIndex,
                     cudaStream_t stream);

/// For breadth-first cell b (pre-order cell preorderOf[b]): bodyRange[b] and breadthFirstOf[preorderOf[b]] = b.
void launchCellRanges(const std::uint64_t* sortedKeys, unsigned bodyCount, const std::uint8_t* level,
                      const unsigned* preorderOf, const unsigned* preorderFirstBody, unsigned cellCount,
                      uint2* bodyRange, unsigned* breadthFirstOf, cudaStream_t stream);

/// content[b]: children (first, count) of an inner cell, bodies (first, count | kLeafFlag) of a leaf.
void launchCellContents(const std::uint8_t* leafDepth, const std::uint8_t* level, const unsigned* preorderOf,
                        const unsigned* breadthFirstOf, const uint2* bodyRange, unsigned cellCount, uint2* content,
                        cudaStream_t stream);

/// Multipoles and opening radii of the cells of one depth, [levelBegin, levelBegin + levelCount), into multipoles
/// (the arrays tree reads them from), from positionMass in tree order; the deeper levels must be done.
void launchSummarizeLevel(const OctreeView& tree, const OctreeMultipoles& multipoles, const float4* positionMass,
                          const std::uint64_t* sortedKeys, const TreeFrame* frame, unsigned levelBegin,
                          unsigned levelCount, int depth, float openingAngle, cudaStream_t stream);

/// groupCount[c] = walk groups of at most capacity (<= kWalkGroupSize) bodies cell c packs (TreeGroups.cu).
void launchCountWalkGroups(const OctreeView& tree, const std::uint64_t* sortedKeys, unsigned capacity,
                           unsigned* groupCount, cudaStream_t stream);

/// groups[firstGroup[c] + k] = (first body, body count) of cell c's k-th group; *groupTotal = number of groups.
void launchWriteWalkGroups(const OctreeView& tree, const std::uint64_t* sortedKeys, unsigned capacity,
                           const unsigned* groupCount, const unsigned* firstGroup, uint2* groups, unsigned* groupTotal,
                           cudaStream_t stream);

/// selected[0 .. *selectedTotal) = the groups of groups[0 .. *groupTotal) holding a body with isTarget set (any order;
/// *selectedTotal must be zero before); adds their bodies without the flag to *surplusBodies (when not null).
/// groupCapacity bounds *groupTotal (the launch size).
void launchSelectActiveWalkGroups(const uint2* groups, const unsigned* groupTotal, std::size_t groupCapacity,
                                  const unsigned* treeOrder, const std::uint8_t* isTarget, uint2* selected,
                                  unsigned* selectedTotal, unsigned long long* surplusBodies, cudaStream_t stream);

/// The walk's queue: how many groups there are (written by launchWriteWalkGroups) and the next one to take.
struct WalkQueue {
    const uint2* groups;
    const unsigned* groupTotal;
    unsigned* nextGroup; ///< zero before the launch
};

/// For every body of every group (tree-order slot s, positions from treeOrderedPositionMass):
/// acceleration[treeOrder[s]] = (G * the tree's acceleration, the group's interaction count as a float).
/// relativeForceAccuracy > 0: the relative criterion with that alpha, reading each body's previous acceleration from
/// acceleration before its group overwrites it; 0: the geometric criterion of the stored radii.
void launchTreeForces(const OctreeView& tree, const WalkQueue& queue, const float4* treeOrderedPositionMass,
                      const unsigned* treeOrder, float4* acceleration, float softening2, float gravitationalConstant,
                      float relativeForceAccuracy, cudaStream_t stream);

/// potential[treeOrder[s]] = G * the tree's potential at tree slot s (own term excluded), one thread per body
/// (TreePotentials.cu); positions from treeOrderedPositionMass.
void launchTreePotentials(const OctreeView& tree, const float4* treeOrderedPositionMass, const unsigned* treeOrder,
                          unsigned bodyCount, float* potential, float softening2, float gravitationalConstant,
                          cudaStream_t stream);

/// boxes[k] = box of cell first + k, for count cells.
void launchCellBoxes(const OctreeView& tree, const std::uint64_t* sortedKeys, const TreeFrame* frame, unsigned first,
                     unsigned count, TreeCellBox* boxes, cudaStream_t stream);

/// The cells from the root down to the deepest one containing point (at most kTreeLevelCount): their boxes and how
/// many there are.
void launchCellPath(const OctreeView& tree, const std::uint64_t* sortedKeys, const TreeFrame* frame, float3 point,
                    TreeCellBox* boxes, unsigned* boxCount, cudaStream_t stream);

/// vertices[i] = (x, y, z, min(leaf depth / kMaxTreeDepthForColor, 1)) of body i = treeOrder[s], whose leaf depth
/// is leafDepth[s] (tree order); positionMass and vertices are in the caller's order.
void launchWriteLeafDepthVertices(const float4* positionMass, const unsigned* treeOrder, const std::uint8_t* leafDepth,
                                  RenderVertex* vertices, unsigned bodyCount, cudaStream_t stream);

} // namespace gravlab
