#pragma once
// What the viewer shows besides the simulation, as plain values: the camera's pose, the octree and ORB overlays, and
// the ranges each of them allows.
//
// Design note: these values are GL-free (no glm, no render/ header) so that the session library, which saves and loads
// them in session files (SessionFile.hpp), can hold them next to SimParams. ViewSettings.hpp adds what needs the
// renderer (the tree query, the conversion to and from OrbitCamera) and checks at compile time that the defaults and
// ranges here are render/'s; CameraState{} equals the state of a fresh OrbitCamera (tested in tests/app). Angles are
// radians, as the camera keeps them; a session file shows them in degrees. Each range is a ParamRange, whose name
// is the setting as the command line or a session file spells it.
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <array>

namespace gravlab {

/// Deepest cell depth the overlay offers: the depth at which the leaf-depth colour saturates. A float32 octree over a
/// scene of size ~100 reaches the positions' resolution (~1e-5) near there; deeper cells only hold near-coincident
/// bodies.
inline constexpr int kMaxOverlayDepth = kMaxTreeDepthForColor;

inline constexpr ParamRange kOverlayDepthRange{"overlay-depth", 0.0, double(kMaxOverlayDepth), true,
                                               "octree depth, 0 = root"};
inline constexpr ParamRange kOverlayOpacityRange{"opacity", 0.05, 1.0, true, "alpha of the overlay's edges"};
inline constexpr ParamRange kStepsPerFrameRange{"steps-per-frame", 1.0, 1e4, true, "simulation steps per frame"};

/// An inclusive range of octree depths, 0 being the root.
struct TreeDepthRange {
    int min = 0;
    int max = 4;
    bool operator==(const TreeDepthRange&) const = default;
};

struct TreeOverlaySettings {
    bool enabled = false;        ///< draw octree cells at all
    TreeDepthRange depths;       ///< which depths to draw, within kOverlayDepthRange
    bool onlyPickedPath = false; ///< only the cells containing the picked point (the path to its leaf)
    float opacity = 0.55f;       ///< alpha of the shallowest cells' edges, in kOverlayOpacityRange
    bool operator==(const TreeOverlaySettings&) const = default;
};

struct OrbOverlaySettings {
    bool showCells = false;  ///< draw the ORB cells (the domains) as wireframe boxes
    bool innerCells = false; ///< also the inner cells of the bisection tree, faint
    float opacity = 0.85f;   ///< alpha of the domains' edges, in kOverlayOpacityRange
    bool operator==(const OrbOverlaySettings&) const = default;
};

/// degrees in radians, computed as glm::radians computes it for a float, so the defaults below are the camera's own.
constexpr float radiansFromDegrees(float degrees) {
    return degrees * 0.01745329251994329576923690768489f;
}

/// The pose of the orbit camera (render/OrbitCamera.hpp): the eye sits at distance from target, at yaw round +z and
/// pitch above the xy plane.
struct CameraState {
    std::array<float, 3> target{0.0f, 0.0f, 0.0f};         ///< N-body length units
    float distance = 10.0f;                                ///< N-body length units, kCameraDistanceRange
    float yaw = radiansFromDegrees(-90.0f);                ///< radians; -pi/2: the eye on the -y side
    float pitch = radiansFromDegrees(30.0f);               ///< radians, kCameraPitchDegreesRange
    float verticalFieldOfView = radiansFromDegrees(45.0f); ///< radians, kFieldOfViewDegreesRange
    bool operator==(const CameraState&) const = default;
};

inline constexpr ParamRange kCameraDistanceRange{"distance", 1e-4, 1e6, true, "N-body length units"};
/// The camera keeps its pitch within +-89 degrees (so the view never flips over the pole); a pose saved anywhere in
/// that range reads back within this one whatever the rounding of its degrees.
inline constexpr ParamRange kCameraPitchDegreesRange{"pitchDegrees", -90.0, 90.0, true, "degrees above the xy plane"};
inline constexpr ParamRange kFieldOfViewDegreesRange{"verticalFieldOfViewDegrees", 1.0, 170.0, true,
                                                     "vertical field of view in degrees"};

} // namespace gravlab
