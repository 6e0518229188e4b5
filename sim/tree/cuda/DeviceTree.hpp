#pragma once
// The CUDA Barnes-Hut solver: one force evaluation builds, summarises and walks an octree, all on the GPU.
//
// Design note. The caller's body arrays keep their order (ORB keeps them domain-major between steps): the tree works
// on a copy of the positions in tree order and writes each body's result back to its place, as the CPU octree does
// (OctreeCpu's bodyOrder()). computeAccelerations() queues, on the backend's stream:
//   box      bounding box, root cube and non-finite count (TreeBoundingBox.cu)
//   build    63-bit Morton keys and a CUB radix sort of (key, body index) (TreeBuild.cu, TreeSorting.cu); the sorted
//            indices are the tree permutation (tree slot -> caller's body index), kept until the next evaluation
//   build    leaf depths, cells per body and their scan; then cells in pre-order and a depth sort into breadth-first
//            arrays (TreeBuild.cu)
//   build    walk groups of up to 96 bodies along the tree, 32 while N is too small to fill the chip with such
//            groups (TreeGroups.cu)
//   sort     positions and masses gathered through the permutation into the scratch array (tree order); velocities
//            and colour keys are not touched
//   summary  multipoles and opening radii, deepest level first (TreeSummary.cu)
//   force    the warp-per-group walk on the tree-order copy (TreeForces.cu); acceleration[permutation[slot]] gets the
//            slot's acceleration and, in w, the interactions its group's walk evaluated (the work weight of ORB)
// Two host synchronisations: after the scan, the host reads the build status (44 bytes: the non-finite count from
// the box pass and the number of cells per depth), and after the walk groups are counted, their total. Both counts are
// data-dependent and size arrays (grown by a sixteenth when too small, never shrunk) and later launches, so no kernel
// needs a worst-case allocation or a device-side count; the GPU waits for the host for one launch latency each, a few
// microseconds against milliseconds of work. The same read is where non-finite positions stop the evaluation: before
// any cell is built, with every kernel before it safe on any input (a NaN coordinate gets key 0). Determinism: every
// kernel's result is a pure function of its input (sorts are stable, summaries and walks visit in fixed orders, atomics
// only count integers), so equal inputs give bit-identical trees and forces. Memory: 13 bytes per body (sorted keys,
// the permutation, one byte of leaf depth in tree order) plus 87 bytes per cell (73 of DeviceOctree.hpp and 14 of build
// scratch), about 11 bytes per body for a Plummer sphere (0.12 cells per body, arrays grown with 1/16 to spare), and
// the walk groups, 8 bytes per group of about 76 bodies. The backend lends its 16-byte scratch array, which ends up
// holding the tree-order positions; until the gather it is free, so the radix sort's second key and index buffers (12
// bytes per body) and then the per-body cell counts and their scan (8 bytes) live in it. That is why the gather comes
// after the cells and groups are built, and why a sort that ends in its second buffers (CUB picks the side by its pass
// count) is copied back.
#include "device/cuda/CudaStream.hpp"
#include "device/cuda/DeviceBodies.hpp"
#include "device/cuda/DeviceBuffer.hpp"
#include "device/cuda/DeviceTargets.hpp"
#include "device/cuda/PhaseTimeline.hpp"
#include "tree/TreeMath.hpp"
#include "tree/cuda/DeviceOctree.hpp"
#include "tree/cuda/TreeKernels.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <cstdint>
#include <vector>

namespace gravlab {

/// How an evaluation opens cells: the geometric criterion at openingAngle, or (relativeForceAccuracy > 0) the relative
/// criterion with that alpha, which reads the previous accelerations in bodies.acceleration (TreeMath.hpp).
struct TreeOpening {
    float openingAngle = 0.5f;
    float relativeForceAccuracy = 0.0f;

    /// The theta of the radii the summary stores: the user's, or the relative criterion's safety angle.
    float summaryOpeningAngle() const {
        return relativeForceAccuracy > 0.0f ? kRelativeOpeningSafetyAngle : openingAngle;
    }
};

class DeviceTree {
public:
    /// Which PhaseTimeline phase each part of an evaluation is booked to.
    struct PhaseMarks {
        std::size_t box, build, sort, summary, force;
    };

    DeviceTree();

    /// Builds and summarises the octree of bodies.positionMass for opening and writes, for every body i,
    /// bodies.acceleration[i] = (acceleration with G, interactions its walk evaluated); nothing else in bodies
    /// changes. Under the relative criterion, bodies.acceleration must hold each body's previous acceleration.
    /// bodyScratch must hold bodies.size() elements; it holds the positions in tree order until the evaluation's work
    /// on the stream is done, and nothing reads it afterwards. Returns 0, or the number of bodies with a non-finite
    /// position, in which case no tree was built and no acceleration written. Synchronises the stream once.
    unsigned computeAccelerations(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch, const GravityParams& gravity,
                                  const TreeOpening& opening, cudaStream_t stream, PhaseTimeline& timeline,
                                  const PhaseMarks& phases);

    /// As computeAccelerations() for the bodies targets lists: the tree is built over all bodies, and only the walk
    /// groups holding a target are walked (their other bodies are rewritten too and counted in targets.surplusBodies).
    unsigned computeAccelerationsOf(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch,
                                    const GravityParams& gravity, const TreeOpening& opening,
                                    const DeviceTargets& targets, cudaStream_t stream, PhaseTimeline& timeline,
                                    const PhaseMarks& phases);
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
    /// The opening angle the built tree's cell radii stand for (the geometric criterion of writePotentials). Under the
    /// relative criterion it is the safety angle, not the user's theta.
    float cellOpeningAngle() const { return m_cellOpeningAngle; }
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
    const unsigned* treeOrder() const { return m_bodyIndices.data(); }
    /// Sorts the keys and indices in m_keys and m_bodyIndices, with the sort's second buffers in scratch.
    void sortKeys(float4* scratch, cudaStream_t stream);
    TreeBuildStatus readStatus(cudaStream_t stream) const;
    void buildCells(unsigned bodyCount, const unsigned* firstCell, cudaStream_t stream);
    void formWalkGroups(cudaStream_t stream);
    /// kWalkGroupSize once the bodies fill the chip with such groups, else kSmallWalkGroupSize (DeviceOctree.hpp).
    unsigned walkGroupCapacity() const;
    void summarize(const float4* positionMass, float openingAngle, cudaStream_t stream);
    /// The build of an evaluation (build() for the bodies after the softening and scratch checks); returns build()'s.
    unsigned buildForWalk(DeviceBodies& bodies, DeviceBuffer<float4>& bodyScratch, const GravityParams& gravity,
                          const TreeOpening& opening, cudaStream_t stream, PhaseTimeline& timeline,
                          const PhaseMarks& phases);
    /// Queues the force walk over the groups of queue and marks the tree built.
    void walk(const WalkQueue& queue, DeviceBodies& bodies, const DeviceBuffer<float4>& bodyScratch,
              const GravityParams& gravity, const TreeOpening& opening, cudaStream_t stream, PhaseTimeline& timeline,
              const PhaseMarks& phases);
    OctreeView view() const;
    void collectLevels(const TreeCellQuery& query, std::vector<TreeCellBox>& out, cudaStream_t stream) const;
    void collectPath(const TreeCellQuery& query, std::vector<TreeCellBox>& out, cudaStream_t stream) const;

    // Per body.
    DeviceBuffer<std::uint64_t> m_keys;     ///< Morton keys, sorted
    DeviceBuffer<unsigned> m_bodyIndices;   ///< sort values: the permutation (tree slot -> caller's body index)
    DeviceBuffer<std::uint8_t> m_leafDepth; ///< per tree slot
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
    DeviceBuffer<float> m_relativeErrorScale;
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
    float m_cellOpeningAngle = 0.0f;
    bool m_built = false;
    // Overlay queries.
    mutable DeviceBuffer<TreeCellBox> m_boxes;
    mutable DeviceBuffer<unsigned> m_boxCount;
};

} // namespace gravlab
