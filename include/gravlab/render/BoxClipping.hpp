#pragma once
// Clipping overlay boxes to a region of interest around the bodies, so that a few escaped bodies cannot stretch a
// drawn box across the whole image.
//
// Design note: the ORB root cell is the bounding box of every body, so one body flung hundreds of units away makes
// the outer domains' boxes hundreds of units long, and their edges cross the image as long parallel lines while the
// galaxies, where the interesting cuts are, stay small. The decomposition is right; only the drawing is changed. Each
// box is intersected with a region of interest: the cube of half-size kRegionRadii x the robust radius around the
// robust centre (SceneBounds, the estimate the camera is fitted to). Why 1.25: the camera frames a sphere of
// kFitMargin (1.1) radii in its narrowest half-angle, so a cube of half-size 1.25 contains everything the fitted view
// shows around the target, and 90% of the bodies by construction of the radius. The fitted eye is only
// 1.1 / sin(22.5 deg) = 2.9 radii from the centre, however: with 2 radii the cube's near corners (3.5 radii out) pass
// behind the eye and its near faces, magnified by perspective, still sweep long lines across the image (seen on the
// galaxy collision); at 1.25 the corners (2.2 radii) stay in front of the eye. A domain reaching 100 radii is cut
// back to 1.25. A box that
// does not reach into the region is dropped (touching a face only counts as outside); a box that was cut remembers
// which faces are the region's rather than its own (cutFaces), so the renderer can draw the edges lying on those
// faces differently and the user sees that the domain continues beyond the region.
#include <gravlab/render/SceneBounds.hpp>

#include <cstdint>
#include <glm/glm.hpp>
#include <optional>

namespace gravlab {

/// An axis-aligned box, N-body length units; lower <= upper on every axis.
struct AxisBox {
    glm::vec3 lower{0.0f};
    glm::vec3 upper{0.0f};
    bool operator==(const AxisBox&) const = default;
};

/// Bit of face (axis, side) in a cut-face mask: bit 2 axis for the lower face, bit 2 axis + 1 for the upper face.
constexpr std::uint32_t faceBit(int axis, bool upperSide) {
    return 1u << (2 * axis + (upperSide ? 1 : 0));
}

/// A box after clipping: the part inside the region, and which of its faces are the region's (faceBit mask).
struct ClippedBox {
    AxisBox box;
    std::uint32_t cutFaces = 0;
    bool operator==(const ClippedBox&) const = default;
};

/// Half-size of the region of interest in robust radii (see the design note for the choice).
inline constexpr float kRegionRadii = 1.25f;

/// The cube of half-size radii x bounds.radius around bounds.centre.
AxisBox regionOfInterest(const SceneBounds& bounds, float radii = kRegionRadii);

/// box intersected with region; nullopt when they share no volume (a box flat along an axis, such as the cell of
/// bodies on one plane, is kept when that plane crosses the region). A face is cut when the region's face replaced it.
std::optional<ClippedBox> clipBoxToRegion(const AxisBox& box, const AxisBox& region);

} // namespace gravlab
