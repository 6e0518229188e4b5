#pragma once
// Conserved quantities of the device bodies, computed on the GPU when asked (not every frame), accumulated in fp64.
//
// Design note: the same quantities as computeDiagnosticsCpu (Diagnostics.hpp), with the same softened potential
//   W = -G sum_{i<j} m_i m_j / sqrt(r_ij^2 + eps^2) = -(G/2) sum_i m_i sum_{j != i} m_j / sqrt(r_ij^2 + eps^2).
// Per-body sums (kinetic energy, linear and angular momentum) are one pass with a CUB block reduction of seven fp64
// values per block. The potential is an O(N^2) tiled pass: each pair term is computed in fp32 (rsqrt, relative error
// near 1e-7) and every thread adds its terms into an fp64 running sum. Accumulating in fp32 would lose about
// log2(N) bits over N terms (all of one sign, so nothing cancels the drift); Kahan summation in fp32 would cost four
// extra operations per term, while an fp64 add costs one instruction at half the fp32 rate on Hopper. Block results
// go through cub::BlockReduce, and the few hundred block partials are summed on the host in a fixed order, so the
// result does not depend on scheduling.
// In double precision (DeviceLowParts given) the state is read as float-float pairs: the body sums add the low parts,
// and the potential uses an fp64 pair kernel (DevicePairPotential.cu), since the fp32 pair terms above would show
// their 1e-7 rounding as an energy error of the fp64 state.
#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>

#include <cstddef>
#include <cuda_runtime_api.h>
#include <vector_types.h>

namespace gravlab {

/// The low parts of the state in double precision (DeviceBodies.hpp); both null in single precision.
struct DeviceLowParts {
    const float4* position = nullptr;
    const float4* velocity = nullptr;
};

/// Diagnostics of bodyCount bodies; waits for the result (stream is synchronised).
Diagnostics computeDiagnosticsDevice(const float4* positionMass, const float4* velocityColor, std::size_t bodyCount,
                                     const GravityParams& gravity, cudaStream_t stream, DeviceLowParts low = {});

/// Kinetic energy and momenta only (O(N)); the potential energy is left 0. Waits for the result.
Diagnostics computeBodySumsDevice(const float4* positionMass, const float4* velocityColor, std::size_t bodyCount,
                                  cudaStream_t stream, DeviceLowParts low = {});

/// Queues the fp64 pair potential sum_i m_i sum_{j != i} m_j / sqrt(r_ij^2 + eps^2) of the pair state, one partial per
/// block of kPairPotentialThreads targets, into blockSums (launchSize1d(bodyCount, kPairPotentialThreads) entries).
inline constexpr unsigned kPairPotentialThreads = 256;
void launchPairPotential(const float4* positionMass, const float4* positionLow, std::size_t bodyCount,
                         double softening2, double* blockSums, cudaStream_t stream);

/// W = 1/2 sum_i m_i phi_i in fp64 (CUB block sums added on the host in a fixed order) from device per-body
/// potentials; waits for the result.
double potentialEnergyFromDevicePotentials(const float4* positionMass, const float* potential, std::size_t bodyCount,
                                           cudaStream_t stream);

} // namespace gravlab
