#pragma once
// ORB domains across ranks: one domain per rank, cut collectively, bodies moved to the rank whose domain holds them.
//
// Design note: the decomposition of the design notes the ORB came from, now across processes. Each rank holds some
// bodies; a re-partition finds the cuts collectively (CollectiveOrbCuts: a radix select over per-rank histograms of
// the coordinate along the cut axis, summed over ranks, so the cuts equal OrbCpu's on the union of the bodies without
// gathering them) and sends every body to its domain's rank (one all-to-all of whole body records, BodyRecords: every
// array of Bodies, low parts included, and the work weight; bodies already on their rank stay in place). Between
// re-partitions the cuts stay and only the bodies that left their rank's domain move (the stay test and descent of
// OrbLocate.hpp, as migrateOrbCpu does on one process). Rank r owns domain r, the leaf numbered r.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Communicator.hpp>
#include <gravlab/sim/Orb.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <cstdint>
#include <vector>

namespace gravlab {

/// The domains of the ranks, the same on every rank after a re-partition.
struct RankDomains {
    std::vector<OrbCell> cells;               ///< the ORB tree over all bodies; leaf d is rank d's domain
    std::vector<std::uint64_t> bodiesPerRank; ///< after the last re-partition or migration
    std::vector<double> workPerRank;          ///< sum of the work weights per rank (the body count under count balance)
    OrbBalance balance = OrbBalance::Count;   ///< the balance the cuts were found with (Count when work fell back)
};

/// Per-body floats that travel with the bodies besides the work weight (the previous accelerations the relative opening
/// criterion reads, say): perBody values per body in one array, body-major; none when perBody is 0.
struct CarriedFloats {
    std::vector<float>* values = nullptr;
    std::size_t perBody = 0;
};

/// Bodies that changed rank in one migration, summed over ranks.
struct RankMigration {
    std::uint64_t bodiesMoved = 0;
};

/// Re-partitions the bodies spread over the ranks into communicator.size() domains (balance: count, or work with
/// localWork as the weights; work whose sum over all ranks is zero, as before the first force evaluation, falls back
/// to count balance, like OrbDomainsCpu) and moves every body, with its weight, to its domain's rank: afterwards the
/// local bodies are those of domain rank(), ordered by source rank, then in the sender's order. Collective: every
/// rank calls it. localWork has one entry per local body (any finite values under count balance); carried floats
/// move with their bodies. Invalid input on
/// any rank (arrays that differ in length, a position that is not finite, a weight that is negative or not finite
/// under work balance, low parts on some ranks only) throws std::invalid_argument on every rank, so none is left
/// waiting in a collective; more ranks than bodies throws InvalidParameterError (field "orb-domains") on every rank.
RankDomains repartitionAcrossRanks(Communicator& communicator, Bodies& local, std::vector<float>& localWork,
                                   OrbBalance balance, CarriedFloats carried = {});

/// Between re-partitions: moves every body that left this rank's domain to the rank whose domain holds it (the stay
/// test and descent of OrbLocate.hpp; cuts unchanged), then updates domains as migrateOrbCpu updates its cells (cell
/// ranges from the new bodies per rank, outer faces grown to cover every body) and the bodies and work per rank.
/// Collective; invalid input on any rank (as above, or domains not made for this many ranks) throws on every rank.
RankMigration migrateAcrossRanks(Communicator& communicator, RankDomains& domains, Bodies& local,
                                 std::vector<float>& localWork, CarriedFloats carried = {});

} // namespace gravlab
