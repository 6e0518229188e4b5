#pragma once
// Per-body gravitational potentials from the CPU octree, O(N log N): the energy diagnostics' cheap W and the
// potential colour map's values.
//
// Design note: each body walks the summarized tree as the force walk does (TreeMath.hpp's opening criterion, so the
// same cells are accepted) and adds TreeMath's multipolePotential for accepted cells and the softened monopole
// -m / sqrt(r^2 + eps^2) for the bodies of opened leaves, skipping its own slot: unlike the acceleration, a body's own
// softened potential term is not zero (-m / eps), and the direct sum W = -G sum_{i<j} excludes it. A cell containing
// the body is never accepted (theta is capped at kLargestSelfSafeOpeningAngle), so the self term can only appear in an
// opened leaf. Each body's terms are summed in double in walk order (a few hundred terms; the float terms' rounding
// stays far below the expansion's error) and stored as float; the caller reduces W = 1/2 sum m_i phi_i in fp64.
// Work per body: ~15 flops per visited cell for the test, ~35 per accepted cell, 10 per body of an opened leaf.
#include "tree/OctreeCpu.hpp"
#include "tree/TreeForcesCpu.hpp"

#include <vector>

namespace gravlab {

/// phi_i (with G) of every body of tree, which must have been built and summarized, in the order of the bodies given
/// to OctreeCpu::build (out is resized to N). params.multipoleOrder chooses the cells' terms as for the forces.
void computeTreePotentialsCpu(const OctreeCpu& tree, const TreeForceParams& params, std::vector<float>& out);

} // namespace gravlab
