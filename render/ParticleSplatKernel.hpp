#pragma once
// The CUDA kernel behind ParticleSplatter, declared without CUDA types (see DeviceParticleLight.hpp's design note).
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/VisualSource.hpp>

#include <cstddef>

namespace gravlab {

/// Everything the sprite of one body depends on, as particles.vert reads it from its uniforms.
struct SplatParameters {
    float viewProjection[16]; ///< column-major, as glm stores it: clip = viewProjection * (x, y, z, 1)
    float viewDepthRow[4];    ///< third row of the view matrix: view-space z = dot(row, (x, y, z, 1))
    float pixelsPerUnitAtUnitDepth;
    float spriteWorldSize;
    float brightness;
    float minPixelSize;
    float maxPixelSize;
    int palette; ///< BodyPalette as an int
    int width;
    int height;
};

/// Queues on stream: light (width * height RGBA32F, as float[4] per pixel) += every vertex's sprite.
void launchParticleSplat(const RenderVertex* vertices, std::size_t count, const SplatParameters& parameters,
                         float* light, StreamHandle stream);

} // namespace gravlab
