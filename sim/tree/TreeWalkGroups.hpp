#pragma once
// Walk groups of the CPU octree: runs of up to G nearby bodies (tree order) for which the force walk traverses the tree
// once (TreeForcesCpu.cpp).
//
// Design note (the CPU twin of the CUDA tree's TreeGroups.cu, after Bonsai, Bedorf et al. 2012): a group must be
// spatially compact, since the walk opens every cell near any point of its bounding box. G consecutive bodies in Morton
// order are not always compact (the curve jumps between big cells), so groups follow the tree: the children of each
// inner cell of more than G bodies are packed in order, consecutive children of at most G bodies together while the
// pack holds at most G bodies and the bounding box of its octants covers no crowded sibling (one of more than G bodies:
// children 1 and 2 are consecutive but diagonal, and their box covers octants 0 and 3, where a galaxy's core may sit).
// A crowded child packs its own children, unless it is a leaf at the deepest level, which is cut into chunks of G (its
// bodies coincide). A root of at most G bodies is one group. Unlike the GPU packs, a child is never split between two
// packs: a pack's box is then the union of whole cells, and the GPU's reason (full warps) does not apply to SIMD
// loops over the list. Every body is in exactly one group, and the groups are in tree order.
#include "tree/OctreeCpu.hpp"

#include <cstdint>
#include <vector>

namespace gravlab {

/// Tree-order slots [firstBody, firstBody + bodyCount) walked together.
struct TreeWalkGroup {
    std::uint32_t firstBody;
    std::uint32_t bodyCount;
};

/// The walk groups of a built tree with at most capacity (>= 1) bodies each, in tree order; out is cleared first.
void formTreeWalkGroups(const OctreeCpu& tree, std::uint32_t capacity, std::vector<TreeWalkGroup>& out);

} // namespace gravlab
