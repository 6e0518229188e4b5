#pragma once
// The ORB panel: whether and how the bodies are split into domains by orthogonal recursive bisection, whether the
// domains' cells are drawn, and how the current domains look (balance, migration, rebuilds).
//
// Design note: a third ImGui window beside the simulation and octree panels, display and edit only, like them. ORB
// settings are simulation parameters: they come back as an edited OrbParams that the viewer puts into SimParams and
// passes to Simulation::setParams (validated there), which brings the domains up to date at once, paused or not.
// Drawing the cells
// is a view setting and comes back separately. Switching ORB off sets the domain count to 0; the panel remembers the
// last count so that switching it on again restores it (defaultOrbDomainCount(N) the first time).
#include "../ViewSettings.hpp"

#include <gravlab/sim/Orb.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>

namespace gravlab {

struct OrbPanelView {
    const OrbParams& orb;              ///< the simulation's current ORB parameters
    std::uint64_t bodyCount = 0;       ///< caps the domain count
    const OrbOverlaySettings& overlay; ///< whether and how the cells are drawn
    OrbStatus status;                  ///< the current domains (Simulation::visuals().orbStatus())
    std::size_t boxCount = 0;          ///< boxes the overlay draws (the domains, and inner cells when shown)
};

struct OrbPanelRequests {
    std::optional<OrbParams> orb;              ///< edited ORB parameters, not yet validated
    std::optional<OrbOverlaySettings> overlay; ///< edited drawing settings
};

class OrbPanel {
public:
    OrbPanelRequests draw(const OrbPanelView& view);

private:
    bool drawPartitionControls(const OrbPanelView& view, OrbParams& edited);

    std::uint32_t m_domainCountWhenOn = 0; ///< restored when ORB is switched on again; 0 until ORB was seen on
};

/// One line describing status for the panel and logs: domains, imbalances, migration, rebuilds and their cost.
std::string describeOrbStatus(const OrbStatus& status);

} // namespace gravlab
