#pragma once
// Render vertices straight from device body state: the CUDA side of CUDA-GL interop.
#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <cuda_runtime_api.h>
#include <vector_types.h>

namespace gravlab {

/// vertices[i] = (x, y, z, colorKey) for every body. vertices is a device pointer to bodyCount RenderVertex, 16-byte
/// aligned (a mapped GL buffer or a DeviceBuffer); throws std::invalid_argument when it is not.
void launchWriteRenderVertices(const float4* positionMass, const float4* velocityColor, RenderVertex* vertices,
                               std::size_t bodyCount, cudaStream_t stream);

} // namespace gravlab
