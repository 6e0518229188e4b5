#pragma once
// The CPU octree's walk from the root for one target point: the potential walk's (TreePotentialCpu.cpp). The force walk
// (TreeForcesCpu.cpp) walks groups of bodies with the same criterion and shares the stack bound and RelativeOpening.
//
// Design note: the walk decides and its callers evaluate. A cell whose centre of mass lies beyond its opening radius
// (TreeMath's criterion, precomputed per cell) acts as one multipole, handed to acceptCell with the offset from it;
// otherwise a leaf is handed to openLeaf (its bodies interact one by one) and an inner cell's children are visited,
// first child first. The force walk accepts, for each body, these cells or descendants of them (its group's box lies
// nearer every cell than the body), so a body's forces and potential no longer come from exactly the same cells; the
// forces' set is the finer one. The stack holds at most 7 siblings per level plus the 8 children of the deepest cell,
// so 8 (kOctreeMaxDepth + 1) entries always suffice.
// Under the relative criterion (TreeMath.hpp) the caller passes the target's inverse tolerance, and a cell's radius is
// accepted when it lies beyond its stored (safety) radius and the relative criterion holds; 0 keeps the stored radius
// alone.
#include "tree/OctreeCpu.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace gravlab {

inline constexpr std::size_t kTreeWalkStackCapacity = 8 * (kOctreeMaxDepth + 1);

/// The relative criterion's part of a walk: the target's inverse tolerance and eps^2; inverseTolerance 0 (the
/// default) walks by the stored radii alone.
struct RelativeOpening {
    float inverseTolerance = 0;
    float eps2 = 0;
};

/// acceptCell(const CellMultipole&, float dx, float dy, float dz), with d = target - centre of mass;
/// openLeaf(const OctreeCell&).
template <typename AcceptCell, typename OpenLeaf>
inline void walkTreeFrom(const OctreeCpu& tree, float x, float y, float z, AcceptCell&& acceptCell, OpenLeaf&& openLeaf,
                         RelativeOpening relative = {}) {
    const std::vector<OctreeCell>& cells = tree.cells();
    const std::vector<CellMultipole>& multipoles = tree.multipoles();
    const std::vector<float>& openingRadiusSquared = tree.openingRadiusSquared();
    std::array<std::int32_t, kTreeWalkStackCapacity> stack;
    std::size_t top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const auto index = std::size_t(stack[--top]);
        const CellMultipole& multipole = multipoles[index];
        const float dx = x - multipole.comX, dy = y - multipole.comY, dz = z - multipole.comZ;
        const float distance2 = dx * dx + dy * dy + dz * dz;
        if (distance2 > openingRadiusSquared[index] &&
            (relative.inverseTolerance == 0 ||
             relativeCriterionAccepts(tree.relativeErrorScales()[index], relative.inverseTolerance, distance2,
                                      relative.eps2))) {
            acceptCell(multipole, dx, dy, dz);
            continue;
        }
        const OctreeCell& cell = cells[index];
        if (cell.isLeaf()) {
            openLeaf(cell);
            continue;
        }
        for (std::int32_t child = cell.firstChild + cell.childCount - 1; child >= cell.firstChild; --child)
            stack[top++] = child;
    }
}

} // namespace gravlab
