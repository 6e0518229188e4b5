#pragma once
// What the viewer shows besides the bodies: their colour mode, the octree overlay, the ORB cells and the camera, with
// the names, the parsing and the ORB defaults that the command line and the panels share. The values themselves are
// GL-free (session/ViewState.hpp), so session files can hold them; this header ties them to the renderer.
//
// Design note: these are view settings, not simulation parameters: they change what is drawn, never the physics, so
// they live in the app next to the camera instead of in SimParams. Text forms follow the command line
// (--color component|leaf-depth|orb-domain, --overlay-depth MIN:MAX); a bad text throws InvalidParameterError naming
// the flag, so the command line reports it exactly like a bad simulation value (exit status 2, one sentence).
// ORB defaults: asking to see ORB domains (--color orb-domain, --orb-cells, the panel's colour combo or "show cells")
// while ORB is off switches it on with defaultOrbDomainCount(N) domains, one rule for the command line and the panel
// (session/OrbDefaults.hpp, GL-free, so that the session controller shares it).
#include "session/OrbDefaults.hpp"
#include "session/ViewState.hpp"

#include <gravlab/render/OrbOverlayRenderer.hpp>
#include <gravlab/render/OrbitCamera.hpp>
#include <gravlab/render/TreeOverlayRenderer.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gravlab {

// The defaults and ranges of the GL-free view state are the renderer's.
static_assert(TreeOverlaySettings{}.opacity == TreeOverlayStyle{}.opacity);
static_assert(OrbOverlaySettings{}.opacity == OrbOverlayStyle{}.opacity);
static_assert(float(kCameraDistanceRange.min) == OrbitCamera::kMinDistance);
static_assert(float(kCameraDistanceRange.max) == OrbitCamera::kMaxDistance);
static_assert(float(kFieldOfViewDegreesRange.min) == OrbitCamera::kMinFieldOfViewDegrees);
static_assert(float(kFieldOfViewDegreesRange.max) == OrbitCamera::kMaxFieldOfViewDegrees);

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

/// The camera's pose, as a session file saves it.
CameraState cameraStateOf(const OrbitCamera& camera);
/// Puts state's pose into camera, which keeps distance, pitch and field of view within its own limits.
void applyCameraState(const CameraState& state, OrbitCamera& camera);

} // namespace gravlab
