#pragma once
// Barnes-Hut accelerations on the CPU: one walk of the summarized octree per body (OpenMP over bodies).
//
// Design note: each body walks the tree from the root with an explicit stack of cell indices. A cell whose centre of
// mass is farther than its opening radius (TreeMath.hpp: side / theta + the centre-of-mass offset) contributes its
// softened multipole expansion; otherwise a leaf contributes its bodies one by one (the body's own term is zero,
// as in the direct sum: d = 0 with eps^2 > 0), and an inner cell pushes its children. The criterion and the arithmetic
// are TreeMath's, shared with the CUDA tree, so both trees judge cells alike and sum the same series.
// Bodies are visited in tree order (neighbours walk nearly the same cells, which keeps them in cache) and results are
// written to the caller's order. Each body's sum runs in one thread in a fixed order, so the result is bit-identical
// for any thread count.
// The CUDA tree walks groups of up to 96 nearby bodies and accepts a cell only when the criterion holds for the whole
// group's box or for every body of the group: every cell it accepts for a body is one the CPU accepts for it or a
// descendant of one, so it is at least as exact.
// Work weights (ORB's balance by work): a body's interactions are the accepted cells plus the bodies of the opened
// leaves (itself included), the length of its interaction list; on request they are returned per body.
#include "tree/OctreeCpu.hpp"

#include <gravlab/sim/Bodies.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace gravlab {

/// Terms of the cell expansion used for accepted cells.
enum class MultipoleOrder {
    Monopole,   ///< mass at the centre of mass only (for comparisons)
    Quadrupole, ///< monopole plus traceless quadrupole: what the solver uses
};

struct TreeForceParams {
    double gravitationalConstant; ///< G, N-body units
    double softeningLength;       ///< Plummer epsilon, N-body length units
    MultipoleOrder multipoleOrder = MultipoleOrder::Quadrupole;
    /// Under the relative criterion (TreeMath.hpp): each body's previous acceleration, in the order of the bodies given
    /// to OctreeCpu::build, and alpha. Null: the geometric criterion of the radii the summary stored. The tree must then
    /// have been summarized at kRelativeOpeningSafetyAngle. May be the output array itself.
    const Vec3Arrays<float>* previousAccelerations = nullptr;
    float forceAccuracy = 0;
};

/// Accelerations (with G) of every body of tree, which must have been built and summarized, in the order of the bodies
/// given to OctreeCpu::build (out is resized to N). When work is given, it is resized to N and (*work)[i] is the
/// number of interactions (accepted cells plus bodies of opened leaves) body i's walk evaluated, in the same order.
void computeTreeAccelerationsCpu(const OctreeCpu& tree, const TreeForceParams& params, Vec3Arrays<float>& out,
                                 std::vector<float>* work = nullptr);

/// As above for the bodies listed in targets only (distinct indices in build order), walked in tree order: out and work
/// must hold N entries and are written at the listed indices, kept elsewhere (hierarchical time steps' active bodies).
void computeTreeAccelerationsCpu(const OctreeCpu& tree, const TreeForceParams& params,
                                 std::span<const std::uint32_t> targets, Vec3Arrays<float>& out,
                                 std::vector<float>& work);

} // namespace gravlab
