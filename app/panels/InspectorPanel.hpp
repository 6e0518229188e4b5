#pragma once
// The inspector panel: the picked body looked at closely (id, component, position, velocity, acceleration, specific
// energy, ORB domain, octree leaf), the follow toggle and the list of trails.
//
// Design note: display and edit only, like the other panels: it shows a BodyInspector reading and the trail list
// and returns requests (follow on or off, start a trail for the picked body, remove one); the viewer applies them.
// The reading is tracked by the body's id, so the numbers stay with the body while ORB reorders the arrays. Values are
// in the simulation's units (N-body units unless a snapshot brought physical ones).
#include "../BodyInspector.hpp"

#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gravlab {

struct InspectorPanelView {
    std::optional<BodyIdentity> picked; ///< the body being inspected; empty: nothing picked
    const InspectorReading& reading;
    bool following = false;
    std::vector<BodyIdentity> trails; ///< bodies with a trail, in the order they were added
    std::size_t maxTrails = 0;
};

struct InspectorPanelRequests {
    std::optional<bool> follow;               ///< switch following the picked body on or off
    bool addTrail = false;                    ///< start a trail for the picked body
    std::optional<std::uint64_t> removeTrail; ///< id whose trail goes
    bool clearTrails = false;
};

InspectorPanelRequests drawInspectorPanel(const InspectorPanelView& view);

} // namespace gravlab
