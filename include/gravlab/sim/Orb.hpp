#pragma once
// Orthogonal recursive bisection (ORB): the data model shared by the CPU reference (OrbCpu) and the GPU build.
//
// Design note (recursive bisection of the bodies into equal-count or equal-work domains):
//   ORB splits N bodies into np domains recursively. A cell holding d > 1 domains gives its left child
//   l = ceil(d / 2) domains and its right child r = d - l, and cuts perpendicular to its longest side (ties go to the
//   lowest axis, x before y before z) so that l/d of its bodies, or of their weight, lie left of the cut. Cells with
//   one domain are leaves; leaf k, counted left to right, is domain k.
//   Targets are global, not per cell: the cut of a cell whose first domain is f puts the boundary between domains
//   f + l - 1 and f + l where the whole set's balance wants it, i.e. at body index floor(N (f + l) / np) (count
//   balance) or at cumulative weight W (f + l) / np (work balance). Rounding errors therefore never compound down the
//   tree: every leaf holds floor(N / np) or ceil(N / np) bodies, and in work balance every domain boundary is within
//   half the largest body weight of its target, so every leaf weight is within one largest weight of W / np.
//   Ordering along the cut axis is by (coordinate, index in the body arrays before the cut): bodies exactly on the
//   cut plane are split by index, lower indices left, so many coincident coordinates cannot break the balance.
//   The cut position is the midpoint between the largest coordinate on the left and the smallest on the right (the
//   cell's lower or upper corner when one side is empty, which only work balance with very heavy bodies produces).
//   Children tile their parent exactly: they copy its corners and share the cut coordinate as a face. Boxes are
//   closed, so a body on the cut plane lies inside both children's boxes and inside the one that holds it.
//   The root cell is the bodies' bounding box. np must lie in [1, N]: more domains than bodies is refused (an
//   InvalidParameterError naming both numbers) rather than producing empty cells with undefined cut positions.
// Data layout: bodies are partitioned in place, so each cell owns the contiguous index range [begin, end) of the body
// arrays, and a cell's children split that range at one index. Cells live in one array, breadth first (each level a
// contiguous run, see levelBegin in OrbCpu); a cell's children are adjacent, right = left + 1. A tree with np leaves
// has 2 np - 1 cells and ceil(log2 np) + 1 levels; leaves may sit on different levels when np is not a power of two.
#include <gravlab/sim/HostDevice.hpp>

#include <cstdint>

namespace gravlab {

/// One ORB cell: a box, its bodies [begin, end) and its place in the tree. Plain data, so the GPU build can fill and
/// copy the same array.
struct OrbCell {
    float lower[3];            ///< lower corner (x, y, z), N-body length units
    float upper[3];            ///< upper corner (x, y, z), N-body length units
    std::uint32_t begin;       ///< first body index of the cell
    std::uint32_t end;         ///< one past the last body index
    std::int32_t leftChild;    ///< index of the left child (the right one is leftChild + 1); -1 for a leaf
    std::int32_t cutAxis;      ///< 0, 1 or 2: the axis the cut is perpendicular to; -1 for a leaf
    std::uint32_t firstDomain; ///< domain index of the cell's leftmost leaf; a leaf's own domain index
    std::uint32_t domainCount; ///< leaves under this cell (1 for a leaf)

    GRAVLAB_HOST_DEVICE bool isLeaf() const { return leftChild < 0; }
    GRAVLAB_HOST_DEVICE std::uint32_t bodyCount() const { return end - begin; }
};

/// The axis of the cell's longest side; ties go to the lowest axis, so the choice is the same on every device.
GRAVLAB_HOST_DEVICE int longestAxis(const OrbCell& cell) {
    int axis = 0;
    for (int candidate = 1; candidate < 3; ++candidate)
        if (cell.upper[candidate] - cell.lower[candidate] > cell.upper[axis] - cell.lower[axis])
            axis = candidate;
    return axis;
}

/// Domains given to the left child of a cell holding domainCount > 1 domains: ceil(domainCount / 2).
GRAVLAB_HOST_DEVICE std::uint32_t leftDomainCount(std::uint32_t domainCount) {
    return domainCount - domainCount / 2;
}

/// Body index where the domain `domain` begins under count balance: floor(N domain / np), in 64-bit arithmetic so
/// N up to 2^32 and np up to N cannot overflow.
GRAVLAB_HOST_DEVICE std::uint32_t countBalancedDomainBegin(std::uint64_t bodyCount, std::uint64_t domain,
                                                           std::uint64_t domainCount) {
    return std::uint32_t(bodyCount * domain / domainCount);
}

/// Throws std::invalid_argument when bodyCount lies outside [1, 2^32 - 1] (body indices are 32-bit), and
/// InvalidParameterError (field "orb-domains") when domainCount lies outside [1, bodyCount]: more domains than bodies
/// are refused rather than given empty cells with undefined cuts. The one check of both ORB builds.
void requireOrbSizes(std::uint64_t bodyCount, std::uint64_t domainCount);

/// Colour scalar in [0, 1) of domain `domain`: the fractional part of domain / golden ratio. Leaves are numbered left
/// to right, so domains k and k + 1 are siblings or neighbours across a cut; their scalars differ by 0.38 or 0.62 of
/// the palette, and no two of the first 1024 domains are closer than 1/2207 of it.
GRAVLAB_HOST_DEVICE float orbDomainColorScalar(std::uint32_t domain) {
    const double scaled = double(domain) * 0.6180339887498949;
    return float(scaled - double(std::uint64_t(scaled)));
}

/// How unevenly the domains are loaded: the largest domain over the mean (1 is perfect balance).
struct OrbImbalance {
    double memory = 1; ///< largest body count / mean body count
    double work = 1;   ///< largest weight sum / mean weight sum (equal to memory when every body weighs 1)
};

/// What a backend's ORB domains look like now (VisualSource::orbStatus()).
struct OrbStatus {
    std::uint32_t domainCount = 0;      ///< 0 when ORB is off
    OrbImbalance imbalance;             ///< of the current domains, after the last step's migration
    std::uint64_t migratedLastStep = 0; ///< bodies that changed domain by migration in the last step
    std::uint64_t rebuilds = 0;         ///< full re-partitions since load() or the last change of settings
    double lastRebuildMilliseconds = 0; ///< duration of the last full re-partition (device time on the GPU)
};

} // namespace gravlab
