#pragma once
// The camera and the overlays' settings as JSON objects: the "camera" and "view" parts of a session file.
//
// Design note: floats (positions, distance, opacities) are written as the decimal with the fewest significant digits
// that reads back as the same float, so a file shows 0.55 where the float holds 0.550000011920929, and loads bit for
// bit. Angles are written in degrees, which people edit more easily, chosen the same way: the fewest digits whose
// conversion back to radians gives the camera's float again. Reading checks each value against its range in
// ViewState.hpp and throws JsonFieldError naming the key path; a key left out keeps the default.
#include "JsonReader.hpp"
#include "ViewState.hpp"

namespace gravlab {

/// {"target": [x, y, z], "distance": d, "yawDegrees": ..., "pitchDegrees": ..., "verticalFieldOfViewDegrees": ...}
Json cameraToJson(const CameraState& camera);
/// The camera in reader's object, CameraState{}'s values where a key is absent.
CameraState readCamera(JsonObjectReader& reader);

/// {"enabled": ..., "minDepth": ..., "maxDepth": ..., "onlyPickedPath": ..., "opacity": ...}
Json treeOverlayToJson(const TreeOverlaySettings& overlay);
TreeOverlaySettings readTreeOverlay(JsonObjectReader& reader);

/// {"showCells": ..., "innerCells": ..., "opacity": ...}
Json orbOverlayToJson(const OrbOverlaySettings& overlay);
OrbOverlaySettings readOrbOverlay(JsonObjectReader& reader);

} // namespace gravlab
