#pragma once
// Particle light drawn by the GPU's compute units instead of the GL rasterizer, for vertices already on the device.
//
// Design note: drawing a million point sprites through GL costs 5 ms on an H100 (16M: 63 ms; measured with bench
// --frames), because a data-centre GPU keeps only a few of its processors wired for graphics, and a GL draw shares
// the GPU with the CUDA step by time slicing. The same sprites splatted by a CUDA kernel (one thread per body, the
// sprite's pixels added with atomics into an RGBA32F light buffer) run on every multiprocessor, in the simulation's
// own CUDA context, concurrently with a step in flight. The light buffer is a GL buffer the tone mapper reads, so
// what follows (tone mapping, overlays, ImGui) is unchanged. Sprites follow particles.vert/.frag exactly: the same
// projected size, clamp, area dimming, (1 - r^2)^2 falloff and palettes. The interface names no CUDA type, so
// SceneRenderer and the app include no CUDA header; BodyVertexFeed offers one when its vertices arrived through
// interop (CUDA builds only).
#include <gravlab/render/ColorPalettes.hpp>
#include <gravlab/render/ParticleRenderer.hpp>

#include <glad/gl.h>

namespace gravlab {

class DeviceParticleLight {
public:
    virtual ~DeviceParticleLight() = default;
    /// Adds the light of the device vertices seen through view into a width x height light buffer cleared first and
    /// returns that GL buffer: width * height RGBA32F texels, row 0 at the bottom, as gl_FragCoord counts them.
    virtual GLuint splat(const ParticleView& view, const ParticleStyle& style, BodyPalette palette, int width,
                         int height) = 0;
};

} // namespace gravlab
