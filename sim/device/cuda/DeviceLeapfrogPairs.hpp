#pragma once
// Kick-drift-kick leapfrog on the device in double precision: the same steps as DeviceLeapfrog.hpp on float-float
// pairs (Precision.hpp), each coordinate joined to a double, updated in double and split back.
//
// Design note: the pair kernels mirror the float ones (one pass for kick and drift, one for the last kick and the
// non-finite count) and read the low parts from their own float4 arrays (DeviceBodies.hpp), so the float arrays keep
// the rounded state that the solvers, ORB and the renderer read. accelerationLow is null for float solvers (their
// accelerations are float) and the low parts of an fp64 solver's accelerations otherwise.
#include <cstddef>
#include <cuda_runtime_api.h>
#include <vector_types.h>

namespace gravlab {

/// The state's pairs and the accelerations, as the pair kernels read them.
struct DevicePairState {
    float4* positionMass;
    float4* positionLow;
    float4* velocityColor;
    float4* velocityLow;
    const float4* acceleration;
    const float4* accelerationLow; ///< null: the accelerations are float
    std::size_t bodyCount;
};

/// v += a * halfStep; x += v * timeStep, in double on the pairs (masses and colour keys are kept).
void launchKickDriftPairs(const DevicePairState& state, double halfStep, double timeStep, cudaStream_t stream);

/// v += a * halfStep in double on the pairs; then *nonFiniteCount += number of bodies whose position or velocity
/// holds a NaN or inf.
void launchKickPairsAndCountNonFinite(const DevicePairState& state, double halfStep, unsigned* nonFiniteCount,
                                      cudaStream_t stream);

} // namespace gravlab
