#pragma once
// The CPU backend's ORB domains: a full re-partition (OrbCpu) or a migration (migrateOrbCpu) per step, as OrbSchedule
// decides, over the backend's own body arrays, which are domain-major while ORB is on.
#include "orb/OrbCpu.hpp"
#include "orb/OrbSchedule.hpp"

#include <gravlab/sim/Bodies.hpp>

#include <span>
#include <vector>

namespace gravlab {

class OrbDomainsCpu {
public:
    /// Brings the domains up to params for the bodies' current positions, permuting bodies and work (per-body weights
    /// from the last force evaluation, permuted with their bodies; empty or all zero: work balance falls back to
    /// count balance). Returns whether the bodies were permuted (cached per-body results are then stale).
    bool update(Bodies& bodies, std::vector<float>& work, const OrbParams& params);
    /// Without a drift: rebuilds (or switches off) only when params' layout differs from the current domains'.
    /// Returns whether the bodies were permuted.
    bool refresh(Bodies& bodies, std::vector<float>& work, const OrbParams& params);
    /// The domains no longer describe the body arrays (see OrbSchedule::invalidate).
    void invalidate() { m_schedule.invalidate(); }

    bool active() const { return m_schedule.active(); }
    /// Cells breadth first (OrbCpu's layout, with migration's ranges and outer faces); empty while ORB is off.
    const std::vector<OrbCell>& cells() const { return m_cells; }
    /// Status with the imbalance of the current cells under work, per-body weights in the bodies' current order (the
    /// last force evaluation's; empty: work imbalance reported equal to memory imbalance).
    OrbStatus status(std::span<const float> work) const;
    /// out[i].colorScalar = orbDomainColorScalar(domain of body i); requires active() and out.size() == N.
    void writeDomainColors(std::span<RenderVertex> out) const;

private:
    void rebuild(Bodies& bodies, std::vector<float>& work, const OrbParams& params);

    OrbCpu m_orb;
    OrbSchedule m_schedule;
    std::vector<OrbCell> m_cells;
};

/// orb.update, also returning order[k], the index before the update of the body now at k: for the per-body values a
/// backend keeps beside the bodies (accelerations, time-step levels). Meanwhile each body's id array holds its index;
/// the real ids are put back in the new order, also when the update throws. O(N).
bool updateOrbReportingOrder(OrbDomainsCpu& orb, Bodies& bodies, std::vector<float>& work, const OrbParams& params,
                             std::vector<std::uint32_t>& order);

/// values[k] = the value before at order[k], for each of the three arrays.
void permuteAccelerations(Vec3Arrays<float>& values, const std::vector<std::uint32_t>& order);

} // namespace gravlab
