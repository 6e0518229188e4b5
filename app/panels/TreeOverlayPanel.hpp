#pragma once
// The octree panel: which octree cells are drawn, and the picked body whose path is shown (the colour mode, leaf
// depth among them, is chosen in the colours panel, ColorPanel.hpp).
//
// Design note: a second ImGui window beside the simulation panel, display and edit only: it shows a read-only view
// and returns the edited settings; the viewer applies them (a changed depth range or pick changes the overlay's
// query, and TreeOverlayFeed fetches the cells again). When the running solver builds no tree, the panel says so
// instead of showing an empty overlay without a reason.
#include "ViewSettings.hpp"

#include <gravlab/sim/Bodies.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace gravlab {

/// The point whose octree path the overlay can show: where the picked body is, moved with it by id as it steps.
struct PickedPoint {
    std::array<float, 3> position;
    std::uint64_t step;    ///< simulation step of position
    BodyIdentity identity; ///< the picked body's stable id and component
};

struct TreeOverlayPanelView {
    const TreeOverlaySettings& settings;
    const SolverInfo& solver;
    std::optional<PickedPoint> picked;
    std::size_t cellCount = 0; ///< cells the last query returned
    bool capped = false;       ///< the last query hit its cell cap
};

struct TreeOverlayPanelRequests {
    std::optional<TreeOverlaySettings> settings; ///< edited overlay settings
    bool clearPick = false;
};

TreeOverlayPanelRequests drawTreeOverlayPanel(const TreeOverlayPanelView& view);

} // namespace gravlab
