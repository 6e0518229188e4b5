#pragma once
// The CUDA Barnes-Hut solver: one force evaluation builds, summarises and walks an octree, all on the GPU.
//
// Design note. The caller's body arrays keep their order (ORB keeps them domain-major between steps): the tree works
// on a copy of the positions in tree order and writes each body's result back to its place, as the CPU octree does
// (OctreeCpu's bodyOrder()). computeAccelerations() queues, on the backend's stream:
//   box      bounding box, root cube and non-finite count (TreeBoundingBox.cu)
//   build    63-bit Morton keys and a CUB radix sort of (key, body index) (TreeBuild.cu, TreeSorting.cu); the sorted
//            indices are the tree permutation (tree slot -> caller's body index), kept until the next evaluation
//   sort     positions and masses gathered through the permutation into the scratch array (tree order); velocities
//            and colour keys are not touched
//   build    leaf depths, cells per body and their scan; then cells in pre-order and a depth sort into breadth-first
//            arrays (TreeBuild.cu)
//   build    walk groups of up to 96 bodies along the tree, 32 while N is too small to fill the chip with such
//            groups (TreeGroups.cu)
//   summary  multipoles and opening radii, deepest level first (TreeSummary.cu)
//   force    the warp-per-group walk on the tree-order copy (TreeForces.cu); acceleration[permutation[slot]] gets the
//            slot's acceleration and, in w, the interactions its group's walk evaluated (the work weight of ORB)
// The one host synchronisation: after the scan, the host reads the build status (44 bytes: the non-finite count
// from the box pass and the number of cells per depth). The cell count is data-dependent and sizes the cell arrays
// (grown by a quarter when too small, never shrunk) and every later launch, so no kernel needs a worst-case
// allocation or a device-side count; the GPU waits for the host for one launch latency per step, a few microseconds
// against milliseconds of work. The same read is where non-finite positions stop the evaluation: before any cell is
// built, with every kernel before it safe on any input (a NaN coordinate gets key 0).
// Determinism: every kernel's result is a pure function of its input (sorts are stable, summaries and walks visit
// in fixed orders, atomics only count integers), so equal inputs give bit-identical trees and forces.
// Memory: 25 bytes per body (keys and indices double-buffered for the radix sort: the sorted side holds the keys the
// cells are read from and the permutation, the other side's index and key arrays hold the per-body cell counts and
// their scan; one byte of leaf depth, in tree order) plus 75 bytes per cell (61 of DeviceOctree.hpp and 14 of build
// scratch), about 17 bytes per body for a Plummer sphere (0.23 cells per body), and up to 2 walk groups of 8 bytes
// per cell; the backend lends its 16-byte scratch array for the tree-order positions.
#include "device/cuda/CudaStream.hpp"
#include "device/cuda/DeviceBodies.hpp"
#include "device/cuda/DeviceBuffer.hpp"
#include "device/cuda/DeviceTargets.hpp"
#include "device/cuda/PhaseTimeline.hpp"
#include "tree/cuda/DeviceOctree.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <cstdint>
#include <vector>

namespace gravlab {

class DeviceTree {
public:
    /// Which PhaseTimeline phase each part of an evaluation is booked to.
    struct PhaseMarks {
        std::size_t box, build, sort, summary, force;
    };

    DeviceTree();

    /// Builds and summarises the octree of bodies.positionMass for openingAngle (theta) and writes, for every body i,
    /// bodies.acceleration[i] = (acceleration with G, interactions its walk evaluated); nothing else in bodies
    /// changes. bodyScratch must hold bodies.size() elements; it holds the positions in tree order until the
    /// evaluation's work on the stream is done, and nothing reads it afterwards. Returns 0, or the number of bodies
    /// with a non-finite position, in which case no tree was built and no acceleration written. Synchronises the
    /// stream once.
    unsigned computeAccelerations(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch, const GravityParams& gravity,
                                  float openingAngle, cudaStream_t stream, PhaseTimeline& timeline,
                                  const PhaseMarks& phases);

    /// As computeAccelerations() for the bodies targets lists: the tree is built over all bodies, and only the walk
    /// groups holding a target are walked (their other bodies are rewritten too and counted in targets.surplusBodies).
    unsigned computeAccelerationsOf(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch,
                                    const GravityParams& gravity, float openingAngle, const DeviceTargets& targets,
                                    cudaStream_t stream, PhaseTimeline& timeline, const PhaseMarks& phases);
    /// The build and summary of computeAccelerations() without the force walk: the octree of positionMass (bodyCount
    /// bodies, caller's order) for openingAngle, with treeOrderedScratch (bodyCount elements) holding the positions in
    /// tree order afterwards. Returns 0, or the number of non-finite positions (then no tree is built). Synchronises
    /// the stream once.
    unsigned build(const float4* positionMass, unsigned bodyCount, float4* treeOrderedScratch, float openingAngle,
                   cudaStream_t stream, PhaseTimeline& timeline, const PhaseMarks& phases);
    /// potential[i] = phi_i (with G, own term excluded) of every body by the built tree (TreePotentials.cu), in the
    /// caller's order, from positionMass (the positions the tree was built from); treeOrderedScratch (one element per
    /// body) receives the positions in tree order. Queued on stream; requires built().
    void writePotentials(const float4* positionMass, float4* treeOrderedScratch, const GravityParams& gravity,
                         float* potential, cudaStream_t stream) const;

    /// Whether the last evaluation built a tree that still matches the bodies (see invalidate()).
    bool built() const { return m_built; }
    /// Called when the bodies change other than by a kick (moved, reordered, replaced): cells, the permutation, leaf
    /// depths and colours no longer apply.
    void invalidate() { m_built = false; }
    /// Frees every device buffer (the next evaluation allocates again).
    void release();
    /// Walk groups of at most capacity bodies from the next evaluation on, in [kSmallWalkGroupSize, kWalkGroupSize];
    /// 0 restores the choice by body count. For tests, which must cover both walks whatever N they use.
    void overrideWalkGroupCapacity(unsigned capacity);
    std::size_t cellCount() const { return m_cellCount; }
    /// Walk groups of the last evaluation (0 when none is built). Waits for the stream.
    std::size_t walkGroupCount(cudaStream_t stream) const;
    /// Device memory held now, in bytes.
    std::uint64_t allocatedBytes() const;

    /// Boxes of the cells matching query, shallowest first; empty when no tree is built. Waits for the stream.
    void collectCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out, cudaStream_t stream) const;
    /// vertices[i] = (position of body i, its leaf depth / kMaxTreeDepthForColor, at most 1), both in the caller's
    /// order, from positionMass (the bodies' array); queued on stream; requires built().
    void writeLeafDepthVertices(const float4* positionMass, RenderVertex* vertices, std::size_t bodyCount,
                                cudaStream_t stream) const;
    /// Host copy of the tree, with the permutation and leaf depths in the caller's order (empty when none is built).
    /// Waits for the stream.
    void download(OctreeSnapshot& out, cudaStream_t stream) const;

private:
    void reserveBodies(unsigned bodyCount);
    void reserveCells(std::size_t cellCount);
    /// Slot -> caller's body index of the last build (the sorted side of the index arrays).
    const unsigned* treeOrder() const { return m_bodyIndices[m_sortedKeySide].data(); }
    TreeBuildStatus readStatus(cudaStream_t stream) const;
    void buildCells(unsigned bodyCount, const unsigned* firstCell, cudaStream_t stream);
    void formWalkGroups(cudaStream_t stream);
    /// kWalkGroupSize once the bodies fill the chip with such groups, else kSmallWalkGroupSize (DeviceOctree.hpp).
    unsigned walkGroupCapacity() const;
    void summarize(const float4* positionMass, float openingAngle, cudaStream_t stream);
    OctreeView view() const;
    void collectLevels(const TreeCellQuery& query, std::vector<TreeCellBox>& out, cudaStream_t stream) const;
    void collectPath(const TreeCellQuery& query, std::vector<TreeCellBox>& out, cudaStream_t stream) const;

    // Per body.
    DeviceBuffer<std::uint64_t> m_keys[2];
    DeviceBuffer<unsigned> m_bodyIndices[2]; ///< sort values: the permutation on the sorted side; cells per body
    DeviceBuffer<std::uint8_t> m_leafDepth;  ///< per tree slot
    int m_sortedKeySide = 0;                 ///< which m_keys and m_bodyIndices arrays hold the sorted keys and indices
    // Bounding box and build status.
    DeviceBuffer<float> m_boxBlockBounds;
    DeviceBuffer<unsigned> m_boxBlockNonFinite;
    DeviceBuffer<unsigned> m_boxTicket;
    bool m_boxTicketZeroed = false;
    DeviceBuffer<TreeFrame> m_frame;
    DeviceBuffer<TreeBuildStatus> m_status;
    // Per cell (capacity m_cellCapacity).
    DeviceBuffer<float4> m_monopole;
    DeviceBuffer<float4> m_quadrupole;
    DeviceBuffer<float4> m_quadrupoleMixedTrace;
    DeviceBuffer<float> m_openingRadius2;
    DeviceBuffer<uint2> m_content;
    DeviceBuffer<uint2> m_bodyRange;
    DeviceBuffer<std::uint8_t> m_cellLevel[2]; ///< depth per cell: pre-order, then sorted (breadth-first)
    DeviceBuffer<unsigned> m_cellOrder[2];     ///< pre-order index per cell, then its breadth-first index
    DeviceBuffer<unsigned> m_cellFirstBody;    ///< pre-order first body
    int m_sortedLevelSide = 0;
    std::size_t m_cellCapacity = 0;
    DeviceBuffer<unsigned char> m_sortScratch;
    // Walk groups (capacity: at most two per cell plus one per kWalkGroupSize bodies) and their queue: total, next to
    // take.
    DeviceBuffer<uint2> m_walkGroups;
    DeviceBuffer<unsigned> m_walkCounters;
    DeviceBuffer<uint2> m_activeWalkGroups;      ///< partial evaluations: the groups holding a target
    DeviceBuffer<unsigned> m_activeWalkCounters; ///< their queue: total, next to take
    int m_multiprocessorCount = 0;               ///< of the current device, for walkGroupCapacity()
    unsigned m_walkGroupCapacityOverride = 0;
    // Host view of the last build.
    unsigned m_bodyCount = 0;
    std::size_t m_cellCount = 0;
    std::vector<std::size_t> m_levelBegin;
    bool m_built = false;
    // Overlay queries.
    mutable DeviceBuffer<TreeCellBox> m_boxes;
    mutable DeviceBuffer<unsigned> m_boxCount;
};

} // namespace gravlab
