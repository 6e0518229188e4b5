// Walk groups: the sets of up to G bodies (G = the capacity DeviceTree picks, at most kWalkGroupSize = 96) for which
// one warp walks the tree together.
//
// Design note: a group must be spatially compact, because the walk opens every cell near any point of the group's
// bounding box, down to single bodies where the box touches a dense region. G consecutive bodies in
// Morton order usually are compact, but not where the curve jumps between two large cells: such a run spans half the
// system and its warp does the work of thousands (measured: one such warp set the whole step's time for a Plummer
// sphere). So groups follow the tree (as Bonsai's do): the children of every inner cell holding more than G bodies
// are packed in order, consecutive children of at most G bodies together (a child that does not fit is split at the
// G-th body, so packs are full) while the bounding box of the pack's octants holds no crowded sibling (one of more
// than G bodies): children 1 and 2 are consecutive in Morton order but diagonal, and their box covers octants 0 and
// 3, where a galaxy's core may sit. A crowded child packs its own children, unless it is a leaf at the deepest level,
// which is cut into chunks of G (its bodies coincide, its box is a point). A root of at most G bodies is one group.
// Every body is in exactly one group, and each group is a contiguous range of tree-order bodies. Two passes over the
// cells with a scan between them: count the groups of each cell, then write them.
// Hierarchical time steps walk only the groups holding at least one active body (a third pass, one thread per group,
// appending such groups to a second queue); the walk then recomputes the group's inactive bodies too, which is harmless
// (their next kick is preceded by their own evaluation) and is counted as surplus work.
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "tree/OctantSpan.hpp"
#include "tree/cuda/TreeKernels.hpp"
#include "tree/cuda/TreeKeys.cuh"

namespace gravlab {
namespace {

/// Which octant of its parent a cell is: three key bits of its first body.
__device__ unsigned octantOf(const OctreeView& tree, const std::uint64_t* keys, unsigned cell) {
    return unsigned(tree::keyPrefix(keys[tree.bodyRange[cell].x], tree.level[cell]) & 7u);
}

/// Calls emit(first body, body count) for each group cell packs; returns how many.
template <typename Emit>
__device__ unsigned packGroups(const OctreeView& tree, const std::uint64_t* keys, unsigned capacity, unsigned cell,
                               Emit&& emit) {
    const uint2 range = tree.bodyRange[cell];
    if (cell == 0 && range.y <= capacity) {
        emit(range.x, range.y);
        return 1;
    }
    const uint2 content = tree.content[cell];
    if ((content.y & kLeafFlag) != 0 || range.y <= capacity)
        return 0; // a leaf belongs to its parent's packs; a small inner cell too
    unsigned crowded = 0;
    for (unsigned child = content.x; child < content.x + content.y; ++child)
        if (tree.bodyRange[child].y > capacity)
            crowded |= 1u << octantOf(tree, keys, child);

    unsigned groups = 0, packFirst = 0, packCount = 0, packOctants = 0;
    const auto flush = [&] {
        if (packCount != 0) {
            emit(packFirst, packCount);
            ++groups;
            packCount = 0;
            packOctants = 0;
        }
    };
    for (unsigned child = content.x; child < content.x + content.y; ++child) {
        const uint2 bodies = tree.bodyRange[child];
        if (bodies.y > capacity) {
            flush();
            if ((tree.content[child].y & kLeafFlag) != 0) {
                for (unsigned offset = 0; offset < bodies.y; offset += capacity, ++groups)
                    emit(bodies.x + offset, min(capacity, bodies.y - offset));
            }
            continue;
        }
        const unsigned octant = 1u << octantOf(tree, keys, child);
        if ((octantsSpanned(packOctants | octant) & crowded) != 0)
            flush();
        // A child that does not fit is split between this pack and the next (groups are body ranges, not cells):
        // packs stay full, and the boxes are those of the same runs of children as before.
        for (unsigned taken = 0; taken < bodies.y;) {
            const unsigned part = min(bodies.y - taken, capacity - packCount);
            if (packCount == 0)
                packFirst = bodies.x + taken;
            packCount += part;
            packOctants |= octant;
            taken += part;
            if (packCount == capacity)
                flush();
        }
    }
    flush();
    return groups;
}

// Work per cell: about 40 integer ops per child; 17 bytes read per child (16 for an inner cell's own record), 4
// written.
__global__ void countWalkGroupsKernel(OctreeView tree, const std::uint64_t* __restrict__ keys, unsigned capacity,
                                      unsigned* __restrict__ groupCount) {
    const unsigned cell = blockIdx.x * blockDim.x + threadIdx.x;
    if (cell < tree.cellCount)
        groupCount[cell] = packGroups(tree, keys, capacity, cell, [](unsigned, unsigned) {});
}

// Work per cell: as the count, plus 8 bytes written per group; the last cell's thread writes the total.
__global__ void writeWalkGroupsKernel(OctreeView tree, const std::uint64_t* __restrict__ keys, unsigned capacity,
                                      const unsigned* __restrict__ groupCount, const unsigned* __restrict__ firstGroup,
                                      uint2* __restrict__ groups, unsigned* __restrict__ groupTotal) {
    const unsigned cell = blockIdx.x * blockDim.x + threadIdx.x;
    if (cell >= tree.cellCount)
        return;
    unsigned next = firstGroup[cell];
    packGroups(tree, keys, capacity, cell,
               [&](unsigned first, unsigned count) { groups[next++] = make_uint2(first, count); });
    if (cell == tree.cellCount - 1)
        *groupTotal = firstGroup[cell] + groupCount[cell];
}

// Work per group: one 4-byte load of the permutation and one byte of flag per body of the group; 8 bytes written per
// kept group; two atomics per warp (per group they would queue on the two counters' addresses).
__global__ void selectActiveWalkGroupsKernel(const uint2* __restrict__ groups, const unsigned* __restrict__ groupTotal,
                                             const unsigned* __restrict__ treeOrder,
                                             const std::uint8_t* __restrict__ isTarget, uint2* __restrict__ selected,
                                             unsigned* __restrict__ selectedTotal,
                                             unsigned long long* __restrict__ surplusBodies) {
    constexpr unsigned kAllLanes = 0xffffffffu;
    const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = g < *groupTotal;
    const uint2 group = valid ? groups[g] : make_uint2(0, 0);
    unsigned active = 0;
    for (unsigned slot = group.x; slot < group.x + group.y; ++slot)
        active += isTarget[treeOrder[slot]];
    const unsigned lane = threadIdx.x & 31u;
    const unsigned kept = __ballot_sync(kAllLanes, active != 0);
    unsigned long long surplus = active != 0 ? group.y - active : 0u;
    for (int offset = 16; offset > 0; offset /= 2)
        surplus += __shfl_xor_sync(kAllLanes, surplus, offset);
    unsigned first = 0;
    if (lane == 0 && kept != 0) {
        first = atomicAdd(selectedTotal, unsigned(__popc(kept)));
        if (surplusBodies != nullptr && surplus != 0)
            atomicAdd(surplusBodies, surplus);
    }
    first = __shfl_sync(kAllLanes, first, 0);
    if (active != 0)
        selected[first + unsigned(__popc(kept & ((1u << lane) - 1u)))] = group;
}

} // namespace

void launchSelectActiveWalkGroups(const uint2* groups, const unsigned* groupTotal, std::size_t groupCapacity,
                                  const unsigned* treeOrder, const std::uint8_t* isTarget, uint2* selected,
                                  unsigned* selectedTotal, unsigned long long* surplusBodies, cudaStream_t stream) {
    if (groupCapacity == 0)
        return;
    const LaunchSize size = launchSize1d(groupCapacity);
    selectActiveWalkGroupsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        groups, groupTotal, treeOrder, isTarget, selected, selectedTotal, surplusBodies);
    checkLaunch("selectActiveWalkGroupsKernel");
}

void launchCountWalkGroups(const OctreeView& tree, const std::uint64_t* sortedKeys, unsigned capacity,
                           unsigned* groupCount, cudaStream_t stream) {
    const LaunchSize size = launchSize1d(tree.cellCount);
    countWalkGroupsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(tree, sortedKeys, capacity, groupCount);
    checkLaunch("countWalkGroupsKernel");
}

void launchWriteWalkGroups(const OctreeView& tree, const std::uint64_t* sortedKeys, unsigned capacity,
                           const unsigned* groupCount, const unsigned* firstGroup, uint2* groups, unsigned* groupTotal,
                           cudaStream_t stream) {
    const LaunchSize size = launchSize1d(tree.cellCount);
    writeWalkGroupsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(tree, sortedKeys, capacity, groupCount,
                                                                            firstGroup, groups, groupTotal);
    checkLaunch("writeWalkGroupsKernel");
}

} // namespace gravlab
