#pragma once
// What the viewer shows besides the bodies: their colour mode, the octree overlay and the ORB cells, with the names,
// the parsing and the ORB defaults that the command line and the panels share.
//
// Design note: these are view settings, not simulation parameters: they change what is drawn, never the physics, so
// they live in the app next to the camera instead of in SimParams. Text forms follow the command line
// (--color component|leaf-depth|orb-domain, --overlay-depth MIN:MAX); a bad text throws InvalidParameterError naming
// the flag, so the command line reports it exactly like a bad simulation value (exit status 2, one sentence).
// ORB defaults: asking to see ORB domains (--color orb-domain, --orb-cells, the panel's colour combo or "show cells")
// while ORB is off switches it on with defaultOrbDomainCount(N) domains, one rule for the command line and the panel
// (session/OrbDefaults.hpp, GL-free, so that the session controller shares it).
#include "session/OrbDefaults.hpp"

#include <gravlab/render/OrbOverlayRenderer.hpp>
#include <gravlab/render/TreeOverlayRenderer.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gravlab {

/// Deepest cell depth the overlay offers: the depth at which the leaf-depth colour saturates. A float32 octree over a
/// scene of size ~100 reaches the positions' resolution (~1e-5) near there; deeper cells only hold near-coincident
/// bodies.
inline constexpr int kMaxOverlayDepth = kMaxTreeDepthForColor;

/// An inclusive range of octree depths, 0 being the root.
struct TreeDepthRange {
    int min = 0;
    int max = 4;
    bool operator==(const TreeDepthRange&) const = default;
};

struct TreeOverlaySettings {
    bool enabled = false;                       ///< draw octree cells at all
    TreeDepthRange depths;                      ///< which depths to draw, within [0, kMaxOverlayDepth]
    bool onlyPickedPath = false;                ///< only the cells containing the picked point (the path to its leaf)
    float opacity = TreeOverlayStyle{}.opacity; ///< alpha of the shallowest cells' edges, in [0.05, 1]
    bool operator==(const TreeOverlaySettings&) const = default;
};

struct OrbOverlaySettings {
    bool showCells = false;                    ///< draw the ORB cells (the domains) as wireframe boxes
    bool innerCells = false;                   ///< also the inner cells of the bisection tree, faint
    float opacity = OrbOverlayStyle{}.opacity; ///< alpha of the domains' edges, in [0.05, 1]
    bool operator==(const OrbOverlaySettings&) const = default;
};

/// "component", "leaf-depth" or "orb-domain".
std::string_view toString(ColorMode mode);
/// Parses toString's names; throws InvalidParameterError (field "color") listing them.
ColorMode parseColorMode(std::string_view name);
/// Parses "MIN:MAX" with whole numbers 0 <= MIN <= MAX <= kMaxOverlayDepth; throws InvalidParameterError (field
/// "overlay-depth") saying what was wrong and what is allowed.
TreeDepthRange parseTreeDepthRange(std::string_view text);
/// The backend query for these settings; pickedPoint restricts it to one path when onlyPickedPath is set.
TreeCellQuery treeCellQueryFor(const TreeOverlaySettings& settings,
                               const std::optional<std::array<float, 3>>& pickedPoint);

} // namespace gravlab
