// One thread per body: the body's point sprite, as particles.vert sizes and particles.frag shades it, added into the
// light buffer with atomics (see DeviceParticleLight.hpp's design note).
#include "BodyPaletteMath.hpp"
#include "CudaErrors.hpp"
#include "ParticleSplatKernel.hpp"

#include <cuda_runtime.h>

namespace gravlab {

using namespace interop; // CudaErrors.hpp
namespace {

constexpr int kThreadsPerBlock = 256;

__device__ float row(const float* columnMajor, int r, float x, float y, float z) {
    return columnMajor[r] * x + columnMajor[4 + r] * y + columnMajor[8 + r] * z + columnMajor[12 + r];
}

__global__ void splatKernel(const float4* __restrict__ vertices, std::size_t count, SplatParameters p,
                            float4* __restrict__ light) {
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const float4 v = vertices[i];
    const float clipW = row(p.viewProjection, 3, v.x, v.y, v.z);
    const float clipX = row(p.viewProjection, 0, v.x, v.y, v.z);
    const float clipY = row(p.viewProjection, 1, v.x, v.y, v.z);
    const float clipZ = row(p.viewProjection, 2, v.x, v.y, v.z);
    // GL discards a point whose centre lies outside the clip volume; so does this.
    if (!(clipW > 0.0f) || fabsf(clipX) > clipW || fabsf(clipY) > clipW || fabsf(clipZ) > clipW)
        return;
    const float centreX = (0.5f * clipX / clipW + 0.5f) * float(p.width);
    const float centreY = (0.5f * clipY / clipW + 0.5f) * float(p.height);

    const float viewZ = p.viewDepthRow[0] * v.x + p.viewDepthRow[1] * v.y + p.viewDepthRow[2] * v.z + p.viewDepthRow[3];
    const float depth = fmaxf(-viewZ, 1e-6f);
    const float projectedSize = p.spriteWorldSize * p.pixelsPerUnitAtUnitDepth / depth;
    const float drawnSize = fminf(fmaxf(projectedSize, p.minPixelSize), p.maxPixelSize);
    const float areaRatio = fminf(1.0f, (projectedSize * projectedSize) / (drawnSize * drawnSize));
    const PaletteRgb colour = bodyPaletteRgb(p.palette, v.w);
    const float scale = p.brightness * areaRatio;

    // The pixels whose centres lie inside the sprite's square, as GL rasterizes a point.
    const float half = 0.5f * drawnSize;
    const int x0 = max(0, int(ceilf(centreX - half - 0.5f)));
    const int x1 = min(p.width - 1, int(floorf(centreX + half - 0.5f)));
    const int y0 = max(0, int(ceilf(centreY - half - 0.5f)));
    const int y1 = min(p.height - 1, int(floorf(centreY + half - 0.5f)));
    const float inverseSize = 2.0f / drawnSize;
    for (int y = y0; y <= y1; ++y) {
        const float dy = (float(y) + 0.5f - centreY) * inverseSize;
        for (int x = x0; x <= x1; ++x) {
            const float dx = (float(x) + 0.5f - centreX) * inverseSize;
            const float r2 = dx * dx + dy * dy;
            if (r2 >= 1.0f)
                continue;
            const float falloff = scale * (1.0f - r2) * (1.0f - r2);
            float4* texel = light + std::size_t(y) * std::size_t(p.width) + std::size_t(x);
            atomicAdd(&texel->x, colour.r * falloff);
            atomicAdd(&texel->y, colour.g * falloff);
            atomicAdd(&texel->z, colour.b * falloff);
        }
    }
}

} // namespace

void launchParticleSplat(const RenderVertex* vertices, std::size_t count, const SplatParameters& parameters,
                         float* light, StreamHandle stream) {
    static_assert(sizeof(RenderVertex) == sizeof(float4), "a vertex is read as one float4");
    if (count == 0)
        return;
    const std::size_t blocks = (count + kThreadsPerBlock - 1) / kThreadsPerBlock;
    splatKernel<<<unsigned(blocks), kThreadsPerBlock, 0, cudaStreamOf(stream)>>>(
        reinterpret_cast<const float4*>(vertices), count, parameters, reinterpret_cast<float4*>(light));
    throwOnCudaError(cudaGetLastError(), "launching the particle splat kernel");
}

} // namespace gravlab
