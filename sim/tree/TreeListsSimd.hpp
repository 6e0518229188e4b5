#pragma once
// SIMD evaluation of a walk group's interaction lists for its targets (Google Highway, dispatched at run time).
//
// Design note: the lists (TreeInteractionLists.hpp) are vectorised over their entries, a vector of sources at a time,
// each vector loaded once and used by several targets (4 per pass for point sources, 2 for cells, whose 11 components
// and 3 accumulators per target fill the registers), with one horizontal sum per target and list. The other layout,
// vectors of targets with each source broadcast (2 vectors of 16 targets per pass for cells, 2 or 4 for bodies, masked
// at the group's end), wastes the lanes a group's last vector leaves empty: measured 7-13% slower on a 2-core Zen 5
// (AVX-512; 100k-body Plummer sphere and disk, theta 0.5, groups of up to 128, one thread: 126 ms against 136-143, 78
// against 83). Arithmetic: TreeMath.hpp's expressions for the softened monopole and the quadrupole term, term for term,
// with fused multiply-adds; 1 / sqrt is the hardware estimate (12 bits on AVX2, 14 on AVX-512) refined by one Newton
// step to about float precision, so results match the scalar and GPU trees within float rounding. Each target's sums
// run in a fixed order whatever the thread, so results are reproducible; they differ in the last bits between
// dispatched targets (vector width, estimate).
#include "tree/TreeInteractionLists.hpp"

#include <cstddef>

namespace gravlab {

/// The targets of one group: positions in, accelerations (without G) added to ax, ay, az.
struct ListTargets {
    const float *x, *y, *z;
    float *ax, *ay, *az;
    std::size_t count;
};

/// Adds every cell's softened quadrupole expansion (TreeMath's addMultipoleAcceleration) to each target.
void addCellListAccelerations(const CellListView& cells, const ListTargets& targets, float eps2);
/// Adds every point source's softened monopole (TreeMath's addBodyAcceleration) to each target.
void addSourceListAccelerations(const SourceListView& sources, const ListTargets& targets, float eps2);
/// The instruction set the dispatcher chose on this machine (e.g. "AVX3", "AVX2").
const char* treeListsSimdTarget();

} // namespace gravlab
