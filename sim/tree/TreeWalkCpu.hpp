#pragma once
// The CPU octree's walk from the root for one target point, shared by the force walk and the potential walk.
//
// Design note: the walk decides and its callers evaluate. A cell whose centre of mass lies beyond its opening radius
// (TreeMath's criterion, precomputed per cell) acts as one multipole, handed to acceptCell with the offset from it;
// otherwise a leaf is handed to openLeaf (its bodies interact one by one) and an inner cell's children are visited,
// first child first. One walk, so the forces and the potentials of a body come from the same set of cells. The stack
// holds at most 7 siblings per level plus the 8 children of the deepest cell, so 8 (kOctreeMaxDepth + 1) entries
// always suffice.
#include "tree/OctreeCpu.hpp"

#include <array>
#include <cstddef>
#include <cstdint>

namespace gravlab {

inline constexpr std::size_t kTreeWalkStackCapacity = 8 * (kOctreeMaxDepth + 1);

/// acceptCell(const CellMultipole&, float dx, float dy, float dz), with d = target - centre of mass;
/// openLeaf(const OctreeCell&).
template <typename AcceptCell, typename OpenLeaf>
inline void walkTreeFrom(const OctreeCpu& tree, float x, float y, float z, AcceptCell&& acceptCell,
                         OpenLeaf&& openLeaf) {
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
        if (dx * dx + dy * dy + dz * dz > openingRadiusSquared[index]) {
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
