#pragma once
// When ORB domains are rebuilt and when bodies only migrate: the policy both backends follow, kept apart from how
// either of them moves bodies.
//
// Design note: domains are brought up to date once per step, after the drift and before the force evaluation (as a
// distributed code exchanges bodies after its drift), so the forces, the tree and the cached accelerations always see
// the body order that the next step starts from. A full re-partition runs when ORB is switched on, when the domain
// count, the balance or the body count changed, when the domains no longer describe the arrays (load, a rolled-back
// step), every rebuildInterval steps, and as soon as the balanced quantity's imbalance after a migration passes
// imbalanceLimit. Every other step migrates. rebuildInterval = 1 therefore re-partitions every step.
#include <gravlab/sim/Orb.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <cstddef>
#include <cstdint>

namespace gravlab {

class OrbSchedule {
public:
    enum class Action {
        Off,       ///< ORB is off: nothing to keep
        Rebuild,   ///< a full re-partition
        Migrate,   ///< move the bodies that left their cell
    };

    /// What this step does, for these settings and this many bodies.
    Action next(const OrbParams& params, std::size_t bodyCount);
    /// Whether the current domains were built with params' domain count and balance for this many bodies (or ORB is
    /// off and params keep it off), so that without a drift nothing needs to change.
    bool upToDate(const OrbParams& params, std::size_t bodyCount) const;
    /// Record a full re-partition that took milliseconds, with the imbalance it left.
    void rebuilt(const OrbParams& params, std::size_t bodyCount, double milliseconds, const OrbImbalance& imbalance);
    /// Record a migration; returns whether the imbalance it left calls for a full re-partition now.
    bool migrated(const OrbParams& params, std::uint64_t bodiesMoved, const OrbImbalance& imbalance);
    /// The domains no longer describe the body arrays (new bodies, a restored state): the next step rebuilds.
    void invalidate() { m_valid = false; }

    bool active() const { return m_valid && m_status.domainCount > 0; }
    const OrbStatus& status() const { return m_status; }

private:
    OrbStatus m_status;
    OrbParams m_builtWith;
    std::size_t m_builtForBodies = 0;
    std::uint64_t m_stepsSinceRebuild = 0;
    bool m_valid = false;
};

} // namespace gravlab
