#pragma once
// The ORB tree over the bodies of every rank, cut collectively: the cuts OrbCpu finds on the union of the bodies,
// found without gathering them.
//
// Design note: the tree is built level by level in OrbCpu's breadth-first layout, with its longest-side axes, global
// count or work targets and midpoint cut positions (Orb.hpp), so cell k here is cell k of an OrbCpu build of the same
// bodies. What differs is the selection of a cut's split rank. Bodies are ordered along the cut axis by a 160-bit
// key: the coordinate's bits mapped to an unsigned integer of the same order, then the 64-bit id, then the rank and
// the local index (so every key is unique and ties on a cut plane go by id; OrbCpu breaks them by index, which is the
// id order when its input is sorted by id, since its stable partitions keep each cell in input order). A radix
// select finds the split one 8-bit digit at a time: every rank counts, and sums the weights of, its bodies whose key
// begins with the digits chosen so far, per value of the next digit; one allReduceSum of these histograms (all cells of
// the level together) lets every rank choose the same next digit:
//   count balance: the bin holding the k-th key of the cell, k = floor(N (f + l) / np) - begin;
//   work balance:  the bin holding body J, the first whose cumulative weight reaches the target; OrbCpu's rule (a body
//                  goes left while the weight before it plus half its own lies below the target) then sends J left or
//                  right, and every body after J right.
// The search of a cell ends as soon as the split falls on a bin boundary or its bin holds one body: a few digits of
// the coordinate for distinct positions, the id's digits only for bodies on one plane. One allReduceMax per level then
// gives the largest coordinate left and the smallest right of each cut, whose midpoint is the cut. Cell ranges
// [begin, end) count the bodies of all ranks as if concatenated in domain order, as OrbCpu's do after its partitions.
// Cost per level: a few passes over the local bodies and a few reductions of 4 KiB per cell being cut.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Communicator.hpp>
#include <gravlab/sim/Orb.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace gravlab {

struct CollectiveOrb {
    std::vector<OrbCell> cells;              ///< OrbCpu's breadth-first layout; the same on every rank
    std::vector<std::uint32_t> domainOfBody; ///< the domain (leaf) of each local body, indexed like the local bodies
};

/// Cuts the bodies of all ranks into domainCount domains under balance. weights: one per local body (finite, >= 0,
/// with a positive sum over all ranks) under work balance, ignored under count balance. Collective. Inputs must be
/// valid on every rank (finite positions, consistent arrays: DistributedOrb checks them collectively); throws
/// InvalidParameterError (field "orb-domains") on every rank when domainCount lies outside [1, N], N the bodies of all
/// ranks.
CollectiveOrb cutOrbAcrossRanks(Communicator& communicator, const Bodies& local, std::span<const float> weights,
                                OrbBalance balance, std::uint32_t domainCount);

/// The bounding box of the bodies of all ranks (a rank may hold none; with no body at all lower > upper). Collective.
void boundingBoxAcrossRanks(Communicator& communicator, const Bodies& local, float lower[3], float upper[3]);

} // namespace gravlab
