#pragma once
// A robust centre and radius of a body cloud, for framing the camera.
//
// Design note: merging galaxies fling a few bodies far away; fitting the camera to the full extent would shrink the
// galaxies to a dot. The centre is therefore the per-axis median and the radius a quantile (90% by default) of the
// distances from it, so outliers move neither. At most kBoundsSampleCount evenly strided bodies are looked at, which
// keeps a fit of a million bodies well under a millisecond's worth of sorting; non-finite positions are skipped.
#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <glm/glm.hpp>
#include <span>

namespace gravlab {

struct SceneBounds {
    glm::vec3 centre{0.0f};
    float radius = 1.0f; ///< N-body length units, > 0
};

inline constexpr std::size_t kBoundsSampleCount = 1 << 16;

/// Median centre and the given quantile (0, 1] of distances from it; radius 1 around the origin when no vertex has a
/// finite position.
SceneBounds robustBounds(std::span<const RenderVertex> vertices, float radiusQuantile = 0.9f);

} // namespace gravlab
