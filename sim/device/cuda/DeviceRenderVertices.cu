#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceRenderVertices.hpp"
#include "device/cuda/LaunchSize.hpp"

#include <cstdint>
#include <stdexcept>

namespace gravlab {
namespace {

// Work per body: no arithmetic; 32 bytes read (position, velocity lane w holds the colour key), 16 bytes written as
// one vector store (RenderVertex has the layout of a float4).
__global__ void writeRenderVerticesKernel(const float4* __restrict__ positionMass,
                                          const float4* __restrict__ velocityColor, float4* __restrict__ vertices,
                                          unsigned bodyCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const float4 p = positionMass[i];
    vertices[i] = make_float4(p.x, p.y, p.z, velocityColor[i].w);
}

} // namespace

void launchWriteRenderVertices(const float4* positionMass, const float4* velocityColor, RenderVertex* vertices,
                               std::size_t bodyCount, cudaStream_t stream) {
    static_assert(sizeof(RenderVertex) == sizeof(float4));
    if (bodyCount == 0)
        return;
    if (reinterpret_cast<std::uintptr_t>(vertices) % alignof(float4) != 0)
        throw std::invalid_argument("launchWriteRenderVertices: the vertex pointer is not 16-byte aligned");
    const LaunchSize size = launchSize1d(bodyCount);
    writeRenderVerticesKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        positionMass, velocityColor, reinterpret_cast<float4*>(vertices), static_cast<unsigned>(bodyCount));
    checkLaunch("writeRenderVerticesKernel");
}

} // namespace gravlab
