#pragma once
// Gravitational accelerations of all bodies on the device: the two direct-sum solvers.
//
// Both compute a_i = G sum_{j != i} m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2) in fp32 (Plummer softening, as
// the CPU reference in DirectSumCpu.hpp; eps = 0, the Newtonian sum, in a variant that reports coincident pairs) and
// write it to acceleration[i].xyz, and to acceleration[i].w the body's work weight for ORB's balance: the interactions
// its sum used, N for every body (every pair, itself included, as the tree solver counts its own leaf). Pointers are
// device pointers to bodyCount elements; work is queued on stream.
//   direct            all N^2 ordered pairs, bodies tiled through shared memory (DirectForces.cu)
//   direct-symmetric  each unordered pair once, applied to both bodies (DirectSymmetricForces.cu)
#include "direct/cuda/CoincidenceRecord.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector_types.h>

namespace gravlab {

/// Bodies per group side of the pair-once solver's triangular grid (B in DirectSymmetricForces.cu): a diagonal block
/// covers the pairs of B + 1 consecutive bodies, so N = B - 1, B, B + 1 and B + 2 are its edge cases.
inline constexpr unsigned kSymmetricGroupSize = 512;
/// Targets per block of the tiled solver (threads times targets per thread).
inline constexpr unsigned kDirectTargetsPerBlock = 512;

/// With gravity.softeningLength == 0 the kernels' Newtonian variant runs: a body's own term adds nothing, and the first
/// pair of distinct bodies at r^2 == 0 (which then add nothing to each other either) is written to coincidence,
/// which must name a record; with eps > 0 coincidence is not read.
void launchDirectForces(const float4* positionMass, float4* acceleration, std::size_t bodyCount,
                        const GravityParams& gravity, const CoincidenceOutput& coincidence, cudaStream_t stream);

/// The tiled sum for the targetCount bodies listed in targetIndex (a device array of distinct body indices) against
/// all bodies: acceleration[targetIndex[k]] is written, every other entry kept. Both direct solvers use it for the
/// partial sets of hierarchical time steps (the pair-once sum pays off only when every body is a target).
void launchDirectForcesOf(const float4* positionMass, float4* acceleration, std::size_t bodyCount,
                          const std::uint32_t* targetIndex, std::size_t targetCount, const GravityParams& gravity,
                          const CoincidenceOutput& coincidence, cudaStream_t stream);

void launchDirectSymmetricForces(const float4* positionMass, float4* acceleration, std::size_t bodyCount,
                                 const GravityParams& gravity, const CoincidenceOutput& coincidence,
                                 cudaStream_t stream);

/// acceleration[i] = (0, 0, 0, workPerBody) for every body: the zeroed sums that the atomic paths of both solvers add
/// into (their vector atomics add 0 to w), with the work weight in place (DirectForces.cu).
void launchResetAccelerations(float4* acceleration, std::size_t bodyCount, float workPerBody, cudaStream_t stream);

/// Scaled eps^2 as the kernels use it (see ForceMath.cuh); throws std::invalid_argument unless 0 <= eps < 1e18.
float scaledSoftening2(const GravityParams& gravity);

} // namespace gravlab
