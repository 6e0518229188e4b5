#pragma once
// Migration between ORB domains on the CPU: the reference for the CUDA migration (OrbMigrationGpu) and the fallback's
// own way of keeping domains between re-partitions.
//
// Design note: the body arrays are domain-major (leaf k's bodies are the range [begin, end) of cell array leaf k),
// and after a drift some bodies lie outside their leaf. migrateOrbCpu:
//   1. detects them with OrbLocate.hpp's stay test and finds each one's destination leaf by descent;
//   2. appends each leaver to its destination's buffer (the CPU's push_back is the GPU's atomicAdd on that buffer's
//      counter; here leavers are visited in index order, so each buffer is in index order);
//   3. gives every domain its new range (stayers + arrivals, ranges consecutive in domain order) and moves every
//      body there, one body array at a time through one scratch array: first a domain's stayers in their old order,
//      then its arrivals in buffer order;
//   4. updates begin/end of every cell from the new domain ranges (a cell's range is its leaves' ranges joined) and
//      grows the root's outer faces to cover bodies that drifted out of the root box.
// Nothing is lost or duplicated: the move is a permutation (every old index is written to exactly one new slot,
// which a test checks on a collapsing cluster over 1000 steps).
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Orb.hpp>

#include <cstdint>
#include <vector>

namespace gravlab {

/// Moves bodies that left their leaf of cells into the leaf that holds them now, permuting bodies (and work, per-body
/// weights, when not empty) and updating cells in place. Returns the number of bodies that changed domain.
/// Throws std::invalid_argument when cells do not describe these bodies (root range other than [0, N)) or work has the
/// wrong length; positions must be finite (the backends check after every step).
std::uint64_t migrateOrbCpu(std::vector<OrbCell>& cells, Bodies& bodies, std::vector<float>& work);

} // namespace gravlab
