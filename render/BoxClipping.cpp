// Intersecting a box with the region of interest, remembering which faces the region supplied.
#include <gravlab/render/BoxClipping.hpp>

namespace gravlab {

AxisBox regionOfInterest(const SceneBounds& bounds, float radii) {
    const glm::vec3 half(radii * bounds.radius);
    return {bounds.centre - half, bounds.centre + half};
}

std::optional<ClippedBox> clipBoxToRegion(const AxisBox& box, const AxisBox& region) {
    ClippedBox clipped{box, 0};
    for (int axis = 0; axis < 3; ++axis) {
        const float lower = box.lower[axis];
        const float upper = box.upper[axis];
        // A flat box (lower == upper) survives when its plane lies inside the region, faces included; a thick one
        // must overlap the region with positive length, so a box merely touching a face of the region is dropped.
        const bool outside = lower == upper ? (lower < region.lower[axis] || lower > region.upper[axis])
                                            : (upper <= region.lower[axis] || lower >= region.upper[axis]);
        if (outside)
            return std::nullopt;
        if (lower < region.lower[axis]) {
            clipped.box.lower[axis] = region.lower[axis];
            clipped.cutFaces |= faceBit(axis, false);
        }
        if (upper > region.upper[axis]) {
            clipped.box.upper[axis] = region.upper[axis];
            clipped.cutFaces |= faceBit(axis, true);
        }
    }
    return clipped;
}

} // namespace gravlab
