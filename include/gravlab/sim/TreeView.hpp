#pragma once
// What the viewer may ask of a tree-building solver: cell boxes for the overlay, and the colour mode of the bodies.
//
// Design note: the overlay draws octree cells as wireframe boxes. Backends hand out plain boxes (centre, half size,
// depth) filtered by depth, optionally only the cells containing one point (the path from the root to a picked
// body's leaf: a point, not a body index, since the body moves on and ORB may reorder the body arrays, while the point
// names one leaf of whatever tree is current). Solvers that build no tree
// return no cells. ColorMode chooses what a body's colour scalar means; LeafDepth maps the depth of the body's leaf
// to [0, 1] (depth / kMaxTreeDepthForColor, clamped); the per-body quantities (speed to force error) are mapped
// through a ColorScale (ColorScale.hpp).
#include <gravlab/sim/EnumNames.hpp>

#include <array>
#include <cstddef>
#include <optional>

namespace gravlab {

/// One octree cell, cubic.
struct TreeCellBox {
    float centerX, centerY, centerZ; ///< N-body length units
    float halfSize;                  ///< half the cell's side
    int depth;                       ///< 0 for the root
};

struct TreeCellQuery {
    int minDepth = 0; ///< cells shallower than this are left out
    int maxDepth = 6; ///< cells deeper than this are left out
    /// When set, only cells containing this point (the path to the leaf holding it).
    std::optional<std::array<float, 3>> containingPoint;
    /// At most this many cells are returned (the shallowest first), so a deep range cannot stall a frame.
    std::size_t maxCells = std::size_t{1} << 18;
};

enum class ColorMode {
    Component,     ///< the scenario's colour key (which galaxy or component)
    LeafDepth,     ///< depth of the body's octree leaf (tree solver only; others fall back to Component)
    OrbDomain,     ///< the body's ORB domain, through orbDomainColorScalar() (falls back to Component when ORB is off)
    Speed,         ///< |v|
    Acceleration,  ///< |a| of the last force evaluation
    Density,       ///< local mass density, from a uniform grid over the bodies (DensityGrid.hpp)
    Potential,     ///< gravitational potential per body (falls back to Component while no potential source is wired in)
    ForceError,    ///< |a_tree - a_direct| / |a_direct| (tree solver only; others fall back to Component)
    TimeStepLevel, ///< the body's hierarchical time-step level (hierarchical steps only; others fall back to Component)
};

template <> struct EnumNames<ColorMode> {
    static constexpr std::string_view field = "color";
    static constexpr std::array entries{
        EnumName<ColorMode>{ColorMode::Component, "component", "the scenario's colours"},
        EnumName<ColorMode>{ColorMode::LeafDepth, "leaf-depth", "depth of each body's octree leaf, tree solver only"},
        EnumName<ColorMode>{ColorMode::OrbDomain, "orb-domain", "each body's ORB domain"},
        EnumName<ColorMode>{ColorMode::Speed, "speed", "each body's speed |v|"},
        EnumName<ColorMode>{ColorMode::Acceleration, "acceleration", "|a| of the last force evaluation"},
        EnumName<ColorMode>{ColorMode::Density, "density", "local mass density (mass per cell of a uniform grid)"},
        EnumName<ColorMode>{ColorMode::Potential, "potential", "gravitational potential of each body"},
        EnumName<ColorMode>{ColorMode::ForceError, "force-error",
                            "relative error of the tree force against the direct sum, tree solver only"},
        EnumName<ColorMode>{ColorMode::TimeStepLevel, "time-step-level",
                            "each body's time-step level (its step is dt / 2^level)"}};
};

/// Leaf depth that maps to colour scalar 1 in ColorMode::LeafDepth: typical leaves (depth 6 to 12 for 10^4 to 10^7
/// bodies) then span most of the palette; deeper leaves saturate.
inline constexpr int kMaxTreeDepthForColor = 16;

} // namespace gravlab
