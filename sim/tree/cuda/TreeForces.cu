// Barnes-Hut forces on the GPU: one warp walks the octree for a group of up to kWalkGroupSize (96) nearby bodies
// (tree order), one, two or three bodies per lane.
//
// Design note (after Bonsai, Bedorf, Gaburov & Portegies Zwart 2012, and Nyland, Harris & Prins' tiled direct sum):
//   Groups: up to 96 bodies that lie inside one small cell (TreeGroups.cu); lane l owns the group's bodies l, l + 32
//   and l + 64 (as many as the group has: the kernel picks the walk for 1, 2 or 3 bodies per lane by the group's size,
//   so every body-interaction costs the same while the traversal, the ring loads and the shared-memory reads of each
//   entry are shared by up to 3 bodies per lane). The warp reduces the group's bounding box once and tests each cell
//   against the box: a cell whose centre of mass lies farther than its opening radius (TreeMath.hpp, computed by the
//   summary) from every point of the box is accepted for all the group's bodies. A cell that fails the box test
//   (and is no tiny leaf) is then tested against every body of the group, one such cell at a time across the warp:
//   the box of a large group has empty corners, and a cell beside one of them is still accepted when each body's own
//   criterion holds. So every decision is warp-uniform and the per-body criterion holds for each body. Warps take
//   groups from a queue.
//   Walk: depth first, 32 cells at a time. The stack in shared memory holds ranges of sibling cells (children are
//   contiguous in the breadth-first layout), packed as (first << 3 | count - 1). Each round the lanes take the next
//   up to 32 cells from the topmost ranges, test one cell each, and sort them with ballots into
//     accepted          -> the cell ring (its multipole is copied to shared memory),
//     opened leaves     -> the body ring (the leaf's bodies are gathered, 32 per load round); leaves of one or two
//                          bodies always go here, where they cost less than a quadrupole term and are exact,
//     opened inner cells -> one pushed range of children.
//   Far cells: a cell accepted by the box test whose quadrupole and softening terms are, for every point of the box,
//   below the octupole-order truncation the expansion already accepts (TreeMath's monopoleSuffices with the box
//   distance and kappa = kMonopoleOnlyKappa: one decision per cell for the warp) goes to the body ring as its mass at
//   its centre of mass: its softened monopole costs what a body costs (14 instructions against the quadrupole term's
//   40) and batches with the bodies, so no lane branches per entry. It still counts as one interaction.
//   Whenever a ring holds a batch of 32, all lanes evaluate it: every lane reads each entry as a shared-memory
//   broadcast and adds its interaction with each of its bodies (TreeMath's softened quadrupole expansion for cells, the
//   softened monopole, i.e. the direct solvers' Plummer term, for bodies). Rings have 64 slots: fewer than 32 entries
//   wait, at most 32 arrive per round.
//   Stack bound: each round pushes at most 32 ranges of one depth more than the popped cells, so the stack holds at
//   most about 32 ranges per level, 32 * 22 < kRangeStackCapacity. Should a push still not fit, the cell's bodies go
//   to the body ring instead (an exact direct sum over that cell): slower, never wrong, never out of bounds.
//   Independent thread scheduling: loop counters (stack top, ring heads and fills) are computed from ballots and
//   shuffles, so they are equal in all lanes; every write to shared memory that other lanes read is followed by
//   __syncwarp() before the read, and every read before the slot is written again. All 32 lanes run every iteration
//   (a lane's targets past the group's last body are copies of it and store nothing), so full-mask warp intrinsics
//   are exact.
//   Work weights: the warp evaluates one interaction list for its whole group, so each body of the group is charged
//   the list's length (accepted cells plus bodies of opened leaves, counted warp-uniformly as the rings fill), which
//   the kernel stores in acceleration.w for ORB's work balance.
//   Bodies: the walk reads positions in tree order (DeviceTree's gathered copy: a group and a leaf are contiguous
//   slots) and writes each result to its body's place in the caller's order through the tree permutation, one
//   scattered 16-byte store per body.
//   Relative criterion (TreeMath.hpp): the group reads its bodies' previous accelerations before it overwrites them
//   and takes the smallest magnitude (but at least kRelativeToleranceFloor of the largest) as every body's reference:
//   a cell's radius is then the larger of its stored safety radius and the relative criterion's, and the tests above
//   run unchanged on it. The floor keeps one body of nearly cancelling forces (a system's centre) from turning its
//   whole group's walk into a direct sum; for that body alone the bound is then loose.
// Softening: r^2 + eps^2 with the unscaled eps^2 of TreeMath.hpp (the CPU tree uses the same expressions).
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceAttributes.hpp"
#include "tree/TreeMath.hpp"
#include "tree/cuda/TreeKernels.hpp"

#include <algorithm>

namespace gravlab {
namespace {

constexpr int kWarpsPerBlock = 4;
constexpr int kThreads = 32 * kWarpsPerBlock;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr unsigned kRingSlots = 64;
constexpr unsigned kRangeStackCapacity = 768;
static_assert(kRangeStackCapacity >= 32 * kTreeLevelCount, "room for a full push on every level");
/// kappa of TreeMath's monopoleSuffices: an accepted cell is evaluated as its monopole alone when its quadrupole and
/// softening terms are below kappa (b / r)^3 of its monopole (b^2 = T / M, r from the group's box). H100, Plummer,
/// theta 0.5 (2026-11-22): kappa 1, 2, 4, 8 take the 1M step from 8.0 ms to 7.84, 7.65, 7.17, 6.52 and the 16M step
/// from 140.4 ms to 116.2, 105.5, 94.5, 86.5; from kappa 2 on, the 99th-percentile error at theta 0.5 exceeds 1e-3
/// (Plummer, 1M bodies: 6.3e-4 at kappa 1, 1.1e-3 at 2; 4.0e-4 with every cell expanded).
constexpr float kMonopoleOnlyKappa = 1.0f;
/// The relative criterion's reference acceleration of a group is its smallest |a|, but at least this fraction of its
/// largest (see the design note).
constexpr float kRelativeToleranceFloor = 0.01f;

struct WarpWorkspace {
    unsigned ranges[kRangeStackCapacity];
    float4 cellMonopole[kRingSlots];
    float4 cellQuadrupole[kRingSlots];
    float4 cellQuadrupoleMixedTrace[kRingSlots];
    float4 bodies[kRingSlots];
};

struct Target {
    float x, y, z;
    float ax, ay, az; ///< without G
};

struct GroupBox {
    float lowX, lowY, lowZ, highX, highY, highZ;
};

/// Entries waiting in a ring: slots head .. head + fill - 1 (mod kRingSlots). Equal in all lanes. Batches of 32 are
/// taken from head, so head is always 0 or 32.
struct Ring {
    unsigned head = 0;
    unsigned fill = 0;
};

__device__ __forceinline__ unsigned laneIndex() {
    return threadIdx.x % 32u;
}

__device__ __forceinline__ unsigned lanesBelowMask() {
    return (1u << laneIndex()) - 1u;
}

__device__ unsigned inclusiveWarpSum(unsigned value) {
    for (unsigned distance = 1; distance < 32; distance *= 2) {
        const unsigned other = __shfl_up_sync(kFullMask, value, distance);
        if (laneIndex() >= distance)
            value += other;
    }
    return value;
}

/// The largest lane whose exclusiveOffset is <= position; offsets must not decrease with the lane, lane 0's is 0.
__device__ unsigned sourceLane(unsigned exclusiveOffset, unsigned position) {
    unsigned lane = 0;
    for (unsigned step = 16; step > 0; step /= 2)
        if (__shfl_sync(kFullMask, exclusiveOffset, lane + step) <= position)
            lane += step;
    return lane;
}

/// The box of all lanes' boxes.
__device__ GroupBox warpBoundingBox(GroupBox box) {
    for (int offset = 16; offset > 0; offset /= 2) {
        box.lowX = fminf(box.lowX, __shfl_xor_sync(kFullMask, box.lowX, offset));
        box.lowY = fminf(box.lowY, __shfl_xor_sync(kFullMask, box.lowY, offset));
        box.lowZ = fminf(box.lowZ, __shfl_xor_sync(kFullMask, box.lowZ, offset));
        box.highX = fmaxf(box.highX, __shfl_xor_sync(kFullMask, box.highX, offset));
        box.highY = fmaxf(box.highY, __shfl_xor_sync(kFullMask, box.highY, offset));
        box.highZ = fmaxf(box.highZ, __shfl_xor_sync(kFullMask, box.highZ, offset));
    }
    return box;
}

__device__ float distance2ToBox(const float4& point, const GroupBox& box) {
    const float dx = fmaxf(fmaxf(box.lowX - point.x, point.x - box.highX), 0.0f);
    const float dy = fmaxf(fmaxf(box.lowY - point.y, point.y - box.highY), 0.0f);
    const float dz = fmaxf(fmaxf(box.lowZ - point.z, point.z - box.highZ), 0.0f);
    return dx * dx + dy * dy + dz * dz;
}

/// Whether this lane's cell (one of the lanes in candidates) lies beyond its opening radius from every target of
/// the warp: the box test's refinement for cells near the group, which the box's empty corners would open. The
/// candidates are tested one after another, each against all targets at once. Equal to the per-body criterion
/// applied to every body of the group, so each body's own criterion still holds.
template <unsigned kTargets>
__device__ bool allTargetsBeyond(unsigned candidates, const float4& monopole, float radius2,
                                 const Target (&targets)[kTargets]) {
    bool beyond = false;
    while (candidates != 0) {
        const unsigned source = unsigned(__ffs(candidates)) - 1u;
        candidates &= candidates - 1u;
        const float x = __shfl_sync(kFullMask, monopole.x, source);
        const float y = __shfl_sync(kFullMask, monopole.y, source);
        const float z = __shfl_sync(kFullMask, monopole.z, source);
        const float r2 = __shfl_sync(kFullMask, radius2, source);
        bool far = true;
#pragma unroll
        for (unsigned t = 0; t < kTargets; ++t) {
            const float dx = targets[t].x - x, dy = targets[t].y - y, dz = targets[t].z - z;
            far = far && dx * dx + dy * dy + dz * dz > r2;
        }
        if (__all_sync(kFullMask, far) && laneIndex() == source)
            beyond = true;
    }
    return beyond;
}

// Work per entry and lane: TreeMath's quadrupole term, about 50 flops (one rsqrt); 40 bytes of shared-memory
// broadcast reads. A batch never wraps around the ring (head is 0 or 32, count at most 32), so slots are head + j.
template <unsigned kTargets>
__device__ void evaluateCells(const WarpWorkspace& workspace, unsigned head, unsigned count, float softening2,
                              Target (&targets)[kTargets]) {
#pragma unroll(kTargets == 1 ? 4 : kTargets == 2 ? 2 : 1)
    for (unsigned j = 0; j < count; ++j) {
        const unsigned slot = head + j;
        const float4 mono = workspace.cellMonopole[slot];
        const float4 q = workspace.cellQuadrupole[slot];
        const float4 mixed = workspace.cellQuadrupoleMixedTrace[slot];
        const CellMultipole cell{mono.w, mono.x, mono.y, mono.z, q.x, q.y, q.z, q.w, mixed.x, mixed.y, mixed.z};
#pragma unroll
        for (unsigned t = 0; t < kTargets; ++t)
            addMultipoleAcceleration(targets[t].x - mono.x, targets[t].y - mono.y, targets[t].z - mono.z, cell,
                                     softening2, targets[t].ax, targets[t].ay, targets[t].az);
    }
}

// Work per entry and lane: the softened monopole, 20 flops (one rsqrt); a 16-byte shared-memory broadcast read.
// Slots are head + j, as for the cells.
template <unsigned kTargets>
__device__ void evaluateBodies(const WarpWorkspace& workspace, unsigned head, unsigned count, float softening2,
                               Target (&targets)[kTargets]) {
#pragma unroll(kTargets == 1 ? 8 : kTargets == 2 ? 4 : 2)
    for (unsigned j = 0; j < count; ++j) {
        const float4 body = workspace.bodies[head + j];
#pragma unroll
        for (unsigned t = 0; t < kTargets; ++t)
            addBodyAcceleration(targets[t].x - body.x, targets[t].y - body.y, targets[t].z - body.z, body.w, softening2,
                                targets[t].ax, targets[t].ay, targets[t].az);
    }
}

/// Evaluates the cell ring's full batches; the ring's new entries must have been written.
template <unsigned kTargets>
__device__ void drainCells(const WarpWorkspace& workspace, Ring& ring, float softening2, Target (&targets)[kTargets]) {
    __syncwarp();
    while (ring.fill >= 32) {
        evaluateCells(workspace, ring.head, 32, softening2, targets);
        ring.head = (ring.head + 32) % kRingSlots;
        ring.fill -= 32;
    }
    __syncwarp();
}

template <unsigned kTargets>
__device__ void drainBodies(const WarpWorkspace& workspace, Ring& ring, float softening2, Target (&targets)[kTargets]) {
    __syncwarp();
    while (ring.fill >= 32) {
        evaluateBodies(workspace, ring.head, 32, softening2, targets);
        ring.head = (ring.head + 32) % kRingSlots;
        ring.fill -= 32;
    }
    __syncwarp();
}

/// Appends every lane's body range (first, count) to the body ring in order, 32 bodies per round, evaluating full
/// batches as they form; returns how many bodies were appended (equal in all lanes). Ranges belong to disjoint cells,
/// so their total is at most the body count.
template <unsigned kTargets>
__device__ unsigned appendBodies(WarpWorkspace& workspace, Ring& ring, uint2 range,
                                 const float4* __restrict__ positionMass, float softening2,
                                 Target (&targets)[kTargets]) {
    const unsigned inclusive = inclusiveWarpSum(range.y);
    const unsigned exclusive = inclusive - range.y;
    const unsigned total = __shfl_sync(kFullMask, inclusive, 31);
    for (unsigned chunk = 0; chunk < total; chunk += 32) {
        const unsigned position = chunk + laneIndex();
        const unsigned source = sourceLane(exclusive, position);
        const unsigned first = __shfl_sync(kFullMask, range.x, source);
        const unsigned sourceOffset = __shfl_sync(kFullMask, exclusive, source);
        if (position < total)
            workspace.bodies[(ring.head + ring.fill + laneIndex()) % kRingSlots] =
                positionMass[first + (position - sourceOffset)];
        ring.fill += min(32u, total - chunk);
        drainBodies(workspace, ring, softening2, targets);
    }
    return total;
}

/// The next up to 32 cells from the topmost ranges of the stack, one per lane (lane >= the returned count gets none).
/// Ranges taken whole leave the stack; a range cut by the 32-cell limit keeps its untaken tail in place.
__device__ unsigned popCells(WarpWorkspace& workspace, unsigned& top, unsigned& cell) {
    const unsigned lane = laneIndex();
    const unsigned visible = min(top, 32u);
    const unsigned packed = lane < visible ? workspace.ranges[top - 1 - lane] : 0u;
    const unsigned count = lane < visible ? (packed & 7u) + 1u : 0u;
    const unsigned inclusive = inclusiveWarpSum(count);
    const unsigned exclusive = inclusive - count;
    const unsigned taken = min(__shfl_sync(kFullMask, inclusive, 31), 32u);

    const unsigned source = sourceLane(exclusive, lane);
    const unsigned sourceFirst = __shfl_sync(kFullMask, packed >> 3, source);
    const unsigned sourceOffset = __shfl_sync(kFullMask, exclusive, source);
    cell = sourceFirst + (lane - sourceOffset);

    const unsigned whole = __popc(__ballot_sync(kFullMask, count > 0 && inclusive <= taken));
    __syncwarp(); // every lane has read its stack entry before the stack changes
    if (count > 0 && exclusive < taken && inclusive > taken) {
        const unsigned used = taken - exclusive;
        workspace.ranges[top - 1 - lane] = ((packed >> 3) + used) << 3 | (count - used - 1u);
    }
    top -= whole;
    __syncwarp();
    return taken;
}

/// Loads this lane's targets, tree slots group.x + lane + 32 t clamped to the group's last body, and their bodies'
/// places in the caller's order; returns the group's bounding box (equal in all lanes).
template <unsigned kTargets>
__device__ __forceinline__ GroupBox loadTargets(uint2 group, const float4* __restrict__ positionMass,
                                                const unsigned* __restrict__ treeOrder, Target (&targets)[kTargets],
                                                unsigned (&body)[kTargets]) {
    const unsigned lane = laneIndex();
    float lowX = INFINITY, lowY = INFINITY, lowZ = INFINITY, highX = -INFINITY, highY = -INFINITY, highZ = -INFINITY;
#pragma unroll
    for (unsigned t = 0; t < kTargets; ++t) {
        const unsigned ownSlot = group.x + min(lane + 32 * t, group.y - 1);
        const float4 own = positionMass[ownSlot];
        // Loaded now, so its latency hides behind the walk instead of stalling the store at the end.
        body[t] = treeOrder[ownSlot];
        targets[t] = Target{own.x, own.y, own.z, 0.0f, 0.0f, 0.0f};
        lowX = fminf(lowX, own.x);
        lowY = fminf(lowY, own.y);
        lowZ = fminf(lowZ, own.z);
        highX = fmaxf(highX, own.x);
        highY = fmaxf(highY, own.y);
        highZ = fmaxf(highZ, own.z);
    }
    return warpBoundingBox(GroupBox{lowX, lowY, lowZ, highX, highY, highZ});
}

/// The relative criterion's inverse tolerance of the group (TreeMath.hpp), from its bodies' previous accelerations,
/// which must be read before the group stores its results; equal in all lanes.
template <unsigned kTargets>
__device__ float groupInverseTolerance(const unsigned (&body)[kTargets], const float4* __restrict__ acceleration,
                                       float gravitationalConstant, float forceAccuracy) {
    float smallest = INFINITY, largest = 0.0f;
#pragma unroll
    for (unsigned t = 0; t < kTargets; ++t) {
        const float4 previous = acceleration[body[t]]; // copies past the group's end read its last body
        const float magnitude = sqrtf(previous.x * previous.x + previous.y * previous.y + previous.z * previous.z);
        smallest = fminf(smallest, magnitude);
        largest = fmaxf(largest, magnitude);
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        smallest = fminf(smallest, __shfl_xor_sync(kFullMask, smallest, offset));
        largest = fmaxf(largest, __shfl_xor_sync(kFullMask, largest, offset));
    }
    const float reference = fmaxf(smallest, kRelativeToleranceFloor * largest);
    return relativeInverseTolerance(gravitationalConstant, forceAccuracy, reference);
}

/// Stores each of this lane's accelerations (times G, with the group's interaction count as its work weight) at its
/// body's place in the caller's order; copies past the group's last body store nothing.
template <unsigned kTargets>
__device__ __forceinline__ void storeAccelerations(uint2 group, const Target (&targets)[kTargets],
                                                   const unsigned (&body)[kTargets], unsigned interactions,
                                                   float gravitationalConstant, float4* __restrict__ acceleration) {
    const unsigned lane = laneIndex();
#pragma unroll
    for (unsigned t = 0; t < kTargets; ++t)
        if (lane + 32 * t < group.y)
            acceleration[body[t]] =
                make_float4(gravitationalConstant * targets[t].ax, gravitationalConstant * targets[t].ay,
                            gravitationalConstant * targets[t].az, float(interactions));
}

/// Starts a walk: the range stack holds the root alone.
__device__ __forceinline__ void pushRoot(WarpWorkspace& workspace) {
    __syncwarp(); // the previous group's last reads are done
    if (laneIndex() == 0)
        workspace.ranges[0] = 0u; // the root: first cell 0, one cell
    __syncwarp();
}

/// The quadrupole terms of an accepted cell (its monopole is loaded for the opening test).
__device__ __forceinline__ void loadQuadrupole(const OctreeView& tree, unsigned cell, float4& quadrupole,
                                               float4& mixedTrace) {
    quadrupole = tree.quadrupole[cell];
    mixedTrace = tree.quadrupoleMixedTrace[cell];
}

/// A cell's multipole as TreeMath.hpp takes it, from the tree's float4 arrays.
__device__ __forceinline__ CellMultipole multipoleOf(const float4& monopole, const float4& quadrupole,
                                                     const float4& mixedTrace) {
    return CellMultipole{monopole.w,   monopole.x,   monopole.y,   monopole.z,   quadrupole.x, quadrupole.y,
                         quadrupole.z, quadrupole.w, mixedTrace.x, mixedTrace.y, mixedTrace.z};
}

/// This lane's slot among the entries that the lanes in mask append to the ring this round.
__device__ __forceinline__ unsigned ringSlot(const Ring& ring, unsigned mask) {
    return (ring.head + ring.fill + __popc(mask & lanesBelowMask())) % kRingSlots;
}

/// Copies an accepted cell's multipole into a slot of the cell ring.
__device__ __forceinline__ void writeCellEntry(WarpWorkspace& workspace, unsigned slot, const float4& monopole,
                                               const float4& quadrupole, const float4& mixedTrace) {
    workspace.cellMonopole[slot] = monopole;
    workspace.cellQuadrupole[slot] = quadrupole;
    workspace.cellQuadrupoleMixedTrace[slot] = mixedTrace;
}

/// Pushes the children of each lane's split cell as one range, (first child << 3 | count - 1); returns whether this
/// lane's range fitted on the stack.
__device__ __forceinline__ bool pushChildren(WarpWorkspace& workspace, unsigned& top, bool split, uint2 content) {
    const unsigned splitMask = __ballot_sync(kFullMask, split);
    const unsigned pushSlot = top + __popc(splitMask & lanesBelowMask());
    const bool pushed = split && pushSlot < kRangeStackCapacity;
    if (pushed)
        workspace.ranges[pushSlot] = content.x << 3 | (content.y - 1u);
    top = min(top + __popc(splitMask), kRangeStackCapacity);
    return pushed;
}

/// The walk for one group of at most 32 * kTargets bodies: lane l owns tree slots group.x + l + 32 t, t < kTargets,
/// those below group.x + group.y (for the others it walks with a copy of the last body and stores nothing). Leaves
/// the workspace free for the next group.
template <unsigned kTargets, bool kRelative>
__device__ void walkGroup(const OctreeView& tree, uint2 group, const float4* __restrict__ positionMass,
                          const unsigned* __restrict__ treeOrder, float4* __restrict__ acceleration, float softening2,
                          float gravitationalConstant, float forceAccuracy, WarpWorkspace& workspace) {
    const unsigned lane = laneIndex();
    Target targets[kTargets];
    unsigned body[kTargets];
    const GroupBox box = loadTargets(group, positionMass, treeOrder, targets, body);
    float inverseTolerance = 0.0f;
    if constexpr (kRelative)
        inverseTolerance = groupInverseTolerance(body, acceleration, gravitationalConstant, forceAccuracy);

    Ring cells, bodies;
    unsigned interactions = 0; // cells accepted plus bodies appended: equal in all lanes
    unsigned top = 1;
    pushRoot(workspace);
    while (top > 0) {
        unsigned cell = 0;
        const unsigned taken = popCells(workspace, top, cell);
        bool accept = false, boxAccept = false, undecided = false, openLeaf = false, split = false, leaf = false;
        float4 monopole{};
        uint2 content{};
        float radius2 = 0.0f, boxDistance2 = 0.0f;
        if (lane < taken) {
            monopole = tree.monopole[cell];
            content = tree.content[cell];
            radius2 = tree.openingRadius2[cell];
            if constexpr (kRelative)
                radius2 = fmaxf(radius2, relativeOpeningRadius2(tree.relativeErrorScale[cell], inverseTolerance,
                                                                softening2));
            leaf = (content.y & kLeafFlag) != 0;
            const bool tinyLeaf = leaf && (content.y & ~kLeafFlag) <= kTreeDirectLeafMaxBodies;
            boxDistance2 = distance2ToBox(monopole, box);
            boxAccept = !tinyLeaf && boxDistance2 > radius2;
            accept = boxAccept;
            undecided = !tinyLeaf && !accept;
        }
        accept |= allTargetsBeyond(__ballot_sync(kFullMask, undecided), monopole, radius2, targets);
        openLeaf = lane < taken && !accept && leaf;
        split = lane < taken && !accept && !leaf;

        float4 quadrupole{}, mixedTrace{};
        bool monopoleOnly = false;
        if (accept) {
            loadQuadrupole(tree, cell, quadrupole, mixedTrace);
            // Only cells the box test accepted: the box distance of one accepted by the per-body check underestimates
            // its targets' distances, so b / r, and with it the tolerance, would be unbounded.
            monopoleOnly = boxAccept && monopoleSuffices(multipoleOf(monopole, quadrupole, mixedTrace), boxDistance2,
                                                         softening2, kMonopoleOnlyKappa);
        }
        const unsigned acceptMask = __ballot_sync(kFullMask, accept);
        const unsigned monopoleMask = __ballot_sync(kFullMask, monopoleOnly);
        const unsigned expandMask = acceptMask & ~monopoleMask;
        if (accept && !monopoleOnly)
            writeCellEntry(workspace, ringSlot(cells, expandMask), monopole, quadrupole, mixedTrace);
        if (monopoleOnly) // (com, mass) is a body's (position, mass); the ring holds fewer than 32 entries here
            workspace.bodies[ringSlot(bodies, monopoleMask)] = monopole;
        cells.fill += __popc(expandMask);
        bodies.fill += __popc(monopoleMask);
        interactions += __popc(acceptMask);
        drainCells(workspace, cells, softening2, targets);
        drainBodies(workspace, bodies, softening2, targets);

        const bool pushed = pushChildren(workspace, top, split, content);
        uint2 range = make_uint2(0u, 0u);
        if (openLeaf)
            range = make_uint2(content.x, content.y & ~kLeafFlag);
        else if (split && !pushed)
            range = tree.bodyRange[cell];
        interactions += appendBodies(workspace, bodies, range, positionMass, softening2, targets);
        __syncwarp();
    }
    evaluateCells(workspace, cells.head, cells.fill, softening2, targets);
    evaluateBodies(workspace, bodies.head, bodies.fill, softening2, targets);
    storeAccelerations(group, targets, body, interactions, gravitationalConstant, acceleration);
}

// A persistent grid: each warp takes the next group from the queue until none is left, so warps that drew cheap
// groups (the halo) take more of them and no multiprocessor idles behind a few expensive ones (the core).
// Work per group: the walk tests each visited cell once (28 bytes of cell data, ~15 flops), a cell that fails that
// box test again against every body (~9 flops per body, 4 shuffles per cell across the warp), and evaluates every
// accepted cell (~50 flops per body, 40 bytes loaded once into shared memory) and every body of an opened leaf
// (20 flops per body, 16 bytes loaded once) for all its bodies. 20 bytes per body read (position, permutation), 16
// written (scattered: one 32-byte sector per store in a random caller order).
template <bool kRelative>
__global__ void __launch_bounds__(kThreads)
    treeForcesKernel(OctreeView tree, WalkQueue queue, const float4* __restrict__ positionMass,
                     const unsigned* __restrict__ treeOrder, float4* __restrict__ acceleration, float softening2,
                     float gravitationalConstant, float forceAccuracy) {
    __shared__ WarpWorkspace workspaces[kWarpsPerBlock];
    WarpWorkspace& workspace = workspaces[threadIdx.x / 32];
    const unsigned groupTotal = *queue.groupTotal;
    for (;;) {
        unsigned group = 0;
        if (laneIndex() == 0)
            group = atomicAdd(queue.nextGroup, 1u);
        group = __shfl_sync(kFullMask, group, 0);
        if (group >= groupTotal)
            return; // the whole warp
        // Warp-uniform: a group walks with as few bodies per lane as hold it, so no lane evaluates a copy of a body
        // for nothing where the group is small.
        static_assert(kWalkGroupSize <= 3 * 32, "walk groups of up to three bodies per lane");
        const uint2 range = queue.groups[group];
        if (range.y > 64)
            walkGroup<3, kRelative>(tree, range, positionMass, treeOrder, acceleration, softening2,
                                    gravitationalConstant, forceAccuracy, workspace);
        else if (range.y > 32)
            walkGroup<2, kRelative>(tree, range, positionMass, treeOrder, acceleration, softening2,
                                    gravitationalConstant, forceAccuracy, workspace);
        else
            walkGroup<1, kRelative>(tree, range, positionMass, treeOrder, acceleration, softening2,
                                    gravitationalConstant, forceAccuracy, workspace);
    }
}

} // namespace

void launchTreeForces(const OctreeView& tree, const WalkQueue& queue, const float4* treeOrderedPositionMass,
                      const unsigned* treeOrder, float4* acceleration, float softening2, float gravitationalConstant,
                      float relativeForceAccuracy, cudaStream_t stream) {
    const bool relative = relativeForceAccuracy > 0.0f;
    const auto kernel = relative ? treeForcesKernel<true> : treeForcesKernel<false>;
    const int blocksPerMultiprocessor = residentBlocksPerMultiprocessor(kernel, kThreads);
    const unsigned blocks = unsigned(multiprocessorCount() * std::max(blocksPerMultiprocessor, 1));
    kernel<<<blocks, kThreads, 0, stream>>>(tree, queue, treeOrderedPositionMass, treeOrder, acceleration, softening2,
                                            gravitationalConstant, relativeForceAccuracy);
    checkLaunch("treeForcesKernel");
}

} // namespace gravlab
