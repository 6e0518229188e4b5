#pragma once
// Barnes-Hut accelerations on the CPU: one walk of the summarized octree per group of nearby bodies, SIMD evaluation
// of the group's interaction lists, OpenMP over groups.
//
// Design note (the CPU form of the CUDA tree's group walk, after Barnes 1990 and Bonsai): bodies are taken in walk
// groups of up to walkGroupCapacity nearby bodies (TreeWalkGroups.hpp, consecutive in tree order). A group walks the
// tree once from the root with an explicit stack: a cell whose centre of mass lies beyond its opening radius (TreeMath:
// side / theta + the centre-of-mass offset) from every point of the group's bounding box contributes its softened
// multipole expansion to every body of the group; otherwise a leaf contributes its bodies one by one (a body's own term
// is zero, as in the direct sum: d = 0 with eps^2 > 0), and an inner cell pushes its children. The box test is the
// per-body test at the box's nearest point, so every cell accepted for a body of the group is one its own per-body walk
// would accept or a descendant of one: at least as exact. The criterion and the arithmetic are TreeMath's, shared with
// the CUDA tree. The group's list is then evaluated for each of its bodies with SIMD (TreeListsSimd.hpp). Each body's
// sum runs in one thread in a fixed order, so the result is bit-identical for any thread count.
// Relative criterion: a group takes its smallest previous |a| (at least 1% of its largest) as every body's reference,
// as the CUDA walk does, so the error bound holds for each body of the group.
// Work weights (ORB's balance by work): each body is charged its group's list length, the accepted cells plus the
// bodies of the opened leaves (its own group's included); on request they are returned per body.
#include "tree/OctreeCpu.hpp"

#include <gravlab/sim/Bodies.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace gravlab {

/// Leaves of at most this many bodies are always taken body by body, never expanded: a quadrupole term costs about two
/// softened monopoles, and the direct sum is exact (as in the CUDA walk).
inline constexpr std::uint32_t kTreeTinyLeafMaxBodies = 2;
/// Default walk group size of the CPU tree.
inline constexpr std::uint32_t kTreeWalkGroupCapacity = 128;

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
    /// to OctreeCpu::build, and alpha. Null: the geometric criterion of the radii the summary stored. The tree must
    /// then have been summarized at kRelativeOpeningSafetyAngle. May be the output array itself.
    const Vec3Arrays<float>* previousAccelerations = nullptr;
    float forceAccuracy = 0;
    /// Bodies per walk group (>= 1; 1 walks per body). Measured on a 2-core Zen 5 (see TreeForcesCpu.cpp).
    std::uint32_t walkGroupCapacity = kTreeWalkGroupCapacity;
};

/// Accelerations (with G) of every body of tree, which must have been built and summarized, in the order of the bodies
/// given to OctreeCpu::build (out is resized to N). When work is given, it is resized to N and (*work)[i] is the
/// number of interactions (accepted cells plus bodies of opened leaves) of body i's group's list, in the same order.
void computeTreeAccelerationsCpu(const OctreeCpu& tree, const TreeForceParams& params, Vec3Arrays<float>& out,
                                 std::vector<float>* work = nullptr);

/// As above for the bodies listed in targets only (distinct indices in build order): out and work must hold N entries
/// and are written at the listed indices, kept elsewhere (hierarchical time steps' active bodies). Only the groups
/// holding a target walk, with their whole box, so a target's result equals that of the full evaluation.
void computeTreeAccelerationsCpu(const OctreeCpu& tree, const TreeForceParams& params,
                                 std::span<const std::uint32_t> targets, Vec3Arrays<float>& out,
                                 std::vector<float>& work);

} // namespace gravlab
