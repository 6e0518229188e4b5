#pragma once
// What the viewer shows of the ranks' domains in a run across ranks: per-rank colours and the ORB status line.
//
// Design note: both distributed backends hand the viewer every body in rank order (rank r's bodies follow those of the
// ranks before it), so colouring by rank needs only the bodies per rank, and the status is the ranks' domains read as
// ORB domains. Written once here for both.
#include "distributed/DistributedOrb.hpp"

#include <gravlab/sim/Orb.hpp>
#include <gravlab/sim/VisualSource.hpp>

#include <cstdint>
#include <span>

namespace gravlab {

/// Why a run across ranks shows component colours for a colour mode it does not draw.
inline constexpr const char* kRankColorModesNote =
    "a run across MPI ranks draws component and rank-domain colours only";

/// vertices[i].colorScalar = the ORB domain colour of the rank body i belongs to, bodies in rank order.
void colorVerticesByRank(std::span<RenderVertex> vertices, std::span<const std::uint64_t> bodiesPerRank);

/// The ranks' domains as an ORB status: imbalance of bodies and work, migration and re-partitions.
OrbStatus rankDomainStatus(const RankDomains& domains, std::uint64_t migratedLastStep, std::uint64_t repartitions,
                           double lastRepartitionMilliseconds);

} // namespace gravlab
