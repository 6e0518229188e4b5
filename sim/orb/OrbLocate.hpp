#pragma once
// Where a point belongs among ORB cells that were cut for other positions: the test and the descent that migration
// (OrbMigrationCpu, and its CUDA twin) applies to every body after a drift, shared by host and device.
//
// Design note: between full re-partitions the cells stay fixed while the bodies move.
//   Stay test: a body stays in its leaf while it lies in the leaf's closed box, where a face on the root's boundary
//   does not bound (the outer domains reach to infinity, so a body that drifts out of the root box keeps its domain
//   instead of having none). A body on a cut plane is inside both cells sharing it and so never migrates for it.
//   Descent: a body that fails the test walks down from the root, left when its coordinate along the cell's cut axis
//   is at most the cut (the left child's upper face), right otherwise; that finds the one leaf whose half-open slab
//   holds it, and, by the stay test's rule, that leaf's box holds it too.
//   After migration the root's outer faces move out to cover every body (growOuterFaces), so "every body lies inside
//   its cell's box" holds literally again; faces on the old root boundary are exact copies of the root's, which is
//   how they are recognised.
#include <gravlab/sim/HostDevice.hpp>
#include <gravlab/sim/Orb.hpp>

#include <cstdint>

namespace gravlab {

GRAVLAB_HOST_DEVICE float orbCoordinate(float x, float y, float z, int axis) {
    return axis == 0 ? x : axis == 1 ? y : z;
}

/// Whether (x, y, z) still belongs to leaf: inside its closed box, faces on the root's boundary not bounding.
GRAVLAB_HOST_DEVICE bool orbLeafHolds(const OrbCell& leaf, const OrbCell& root, float x, float y, float z) {
    for (int axis = 0; axis < 3; ++axis) {
        const float c = orbCoordinate(x, y, z, axis);
        if (leaf.lower[axis] != root.lower[axis] && c < leaf.lower[axis])
            return false;
        if (leaf.upper[axis] != root.upper[axis] && c > leaf.upper[axis])
            return false;
    }
    return true;
}

/// Index into cells of the leaf whose slab holds (x, y, z); cells[0] is the root.
GRAVLAB_HOST_DEVICE std::uint32_t orbDescend(const OrbCell* cells, float x, float y, float z) {
    std::uint32_t index = 0;
    while (cells[index].leftChild >= 0) {
        const OrbCell& cell = cells[index];
        const std::uint32_t left = std::uint32_t(cell.leftChild);
        const float cut = cells[left].upper[cell.cutAxis];
        index = orbCoordinate(x, y, z, cell.cutAxis) <= cut ? left : left + 1;
    }
    return index;
}

/// Moves every face of cell that lies on oldRoot's boundary to the matching face of newRoot (newRoot contains
/// oldRoot). Applied to every cell, with the root itself last, the cells keep tiling the new root exactly.
GRAVLAB_HOST_DEVICE void orbGrowOuterFaces(OrbCell& cell, const OrbCell& oldRoot, const float newLower[3],
                                           const float newUpper[3]) {
    for (int axis = 0; axis < 3; ++axis) {
        if (cell.lower[axis] == oldRoot.lower[axis])
            cell.lower[axis] = newLower[axis];
        if (cell.upper[axis] == oldRoot.upper[axis])
            cell.upper[axis] = newUpper[axis];
    }
}

} // namespace gravlab
