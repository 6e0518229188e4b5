#pragma once
// Keeps a headless run's still camera on the bodies, and tells a frame with nothing lit from one with something on it.
//
// Design note: a movie needs a still camera (a camera refitted every frame would hide the motion, and the particle
// size follows the fit), so the camera stays put while the bulk of the mass stays in the view and is refitted at once
// when it has left it: its robust centre (SceneBounds, which ignores the few bodies flung far away) projects outside
// the frustum, or its robust radius has grown past kGrowthLimit times, or shrunk below 1 / kShrinkLimit of, the
// radius the view frames. The bounds come from the host vertices: free on the host-copy path, where they are checked
// after every step; on the CUDA-GL interop path they cost a full device-to-host copy, so they are checked every
// kInteropCheckInterval frames and right after a dark frame. Dark frames are found on the read-back pixels, which the
// writers need on the host anyway: a frame is lit when any pixel's colour channel exceeds the black background by
// more than kLitThreshold (a full scan: a few megabytes, cheap next to encoding the PNG).
#include <gravlab/render/Image.hpp>
#include <gravlab/render/OrbitCamera.hpp>
#include <gravlab/render/SceneBounds.hpp>

#include <cstddef>
#include <cstdint>

namespace gravlab {

inline constexpr float kGrowthLimit = 2.0f;
inline constexpr float kShrinkLimit = 8.0f;
inline constexpr std::size_t kInteropCheckInterval = 10;
/// Out of 255: above the rounding of a tone-mapped black background, below any drawn body.
inline constexpr std::uint8_t kLitThreshold = 4;

/// The radius of the sphere around the camera's target that fills the narrower side of the view (aspect = w / h).
float framedRadius(const OrbitCamera& camera, float aspect);
/// Whether bulk has left camera's view: centre outside the frustum, or radius beyond the growth or shrink limits.
bool bulkLeftView(const OrbitCamera& camera, float aspect, const SceneBounds& bulk);
/// Whether any pixel's red, green or blue exceeds the black background by more than kLitThreshold.
bool hasLitPixel(const ImageRgba8& image);

} // namespace gravlab
