#pragma once
// Load imbalance of ORB leaves, from the cell array alone, so it serves a fresh partition and one that migration has
// changed alike.
#include <gravlab/sim/Orb.hpp>

#include <span>

namespace gravlab {

/// Memory imbalance of the leaves of cells and work imbalance under weights (indexed like the bodies; empty: every
/// body weighs 1, and work equals memory). All-zero weights count as unknown work: work is then reported equal to
/// memory. Throws std::invalid_argument when cells is empty or holds no body.
OrbImbalance orbImbalance(std::span<const OrbCell> cells, std::span<const float> weights = {});

} // namespace gravlab
