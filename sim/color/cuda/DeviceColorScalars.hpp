#pragma once
// The per-body colour quantities on the device: speed, |a|, grid density, the tree force's error against an fp32
// direct sum, the sample gathers for the robust range, and the vertex write that maps values to colour scalars.
//
// Design note: one float per body in a device buffer, written by one kernel per quantity (the density by two: a mass
// deposit with atomic adds into the DensityGrid's cells, then a read of each body's cell). The force error's direct
// sum reuses the direct solvers' fp32 arithmetic with its range guard (ForceMath.cuh: scaled positions, tiles of
// sources in shared memory); fp32's relative error there (about 1e-6) is far below the tree errors it measures
// (1e-5 to 1e-2). All pointers are device pointers; work is queued on stream.
#include "color/DensityGrid.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/VisualSource.hpp>

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector_types.h>

namespace gravlab {

/// out[i] = |v_i| (velocity in velocityColor.xyz).
void launchSpeeds(const float4* velocityColor, float* out, std::size_t bodyCount, cudaStream_t stream);

/// out[i] = |a_i| (acceleration.xyz).
void launchAccelerationMagnitudes(const float4* acceleration, float* out, std::size_t bodyCount, cudaStream_t stream);

/// cellMass (grid.cellCount() floats, zeroed here) gets the mass of the bodies in each cell; out[i] the density of
/// body i's cell, 0 outside the grid.
void launchGridDensity(const float4* positionMass, const DensityGrid& grid, float* cellMass, float* out,
                       std::size_t bodyCount, cudaStream_t stream);

/// out[i] = NaN for every body, then out[t] = |a_t - a_direct,t| / |a_direct,t| for each of the targetCount bodies
/// listed in targets, a_direct summed over all bodies in fp32 with gravity's G and softening.
void launchTreeForceErrors(const float4* positionMass, const float4* acceleration, const std::uint32_t* targets,
                           std::size_t targetCount, float* out, std::size_t bodyCount, const GravityParams& gravity,
                           cudaStream_t stream);

/// sample[k] = values[sampledBodyIndex(k, sampleCount, bodyCount)].
void launchGatherSample(const float* values, float* sample, std::size_t sampleCount, std::size_t bodyCount,
                        cudaStream_t stream);

/// out[indices[k]] = values[k] for k < count (indices a permutation of [0, count)).
void launchScatterIndexed(const float* values, const std::uint32_t* indices, float* out, std::size_t count,
                          cudaStream_t stream);

/// sample[k] = values[indices[k]].
void launchGatherIndexed(const float* values, const std::uint32_t* indices, float* sample, std::size_t sampleCount,
                         cudaStream_t stream);

/// sample[k] = positionMass[sampledBodyIndex(k, sampleCount, bodyCount)].
void launchGatherPositionSample(const float4* positionMass, float4* sample, std::size_t sampleCount,
                                std::size_t bodyCount, cudaStream_t stream);

/// vertices[i] = (position of body i, mapToColorScalar(values[i], low, high, logarithmic)).
void launchWriteScalarVertices(const float4* positionMass, const float* values, float low, float high, bool logarithmic,
                               RenderVertex* vertices, std::size_t bodyCount, cudaStream_t stream);

} // namespace gravlab
