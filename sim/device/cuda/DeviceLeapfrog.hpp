#pragma once
// Kick-drift-kick leapfrog on the device, the same scheme as the CPU's (Leapfrog.hpp):
//   v += a(x) dt/2;  x += v dt;  a = a(x);  v += a(x) dt/2
// launchKickDrift does the first two updates in one pass; launchKickAndCountNonFinite does the last and counts the
// bodies whose position or velocity is no longer finite, so a blow-up (a time step far too large, say) is noticed
// in the step it happens without a second pass over the bodies; launchCountNonFinitePositions counts without stepping,
// for a drift that is not followed by that kick (a re-partition between the two). Accelerations are the ones the force
// solver left in the acceleration array, kept between steps so each step evaluates forces once. launchNegateVelocities
// reverses time: positions stay, so those accelerations remain the ones the next kick needs.
#include <cstddef>
#include <cuda_runtime_api.h>
#include <vector_types.h>

namespace gravlab {

/// v += a * halfStep; x += v * timeStep (positionMass.w, the mass, is kept).
void launchKickDrift(float4* positionMass, float4* velocityColor, const float4* acceleration, std::size_t bodyCount,
                     float halfStep, float timeStep, cudaStream_t stream);

/// v += a * halfStep; then *nonFiniteCount += number of bodies whose position or velocity holds a NaN or inf.
void launchKickAndCountNonFinite(const float4* positionMass, float4* velocityColor, const float4* acceleration,
                                 std::size_t bodyCount, float halfStep, unsigned* nonFiniteCount, cudaStream_t stream);

/// *nonFiniteCount += number of bodies whose position holds a NaN or inf.
void launchCountNonFinitePositions(const float4* positionMass, std::size_t bodyCount, unsigned* nonFiniteCount,
                                   cudaStream_t stream);

/// v = -v for every body (time reversal); velocityColor.w, the colour key, is kept.
void launchNegateVelocities(float4* velocityColor, std::size_t bodyCount, cudaStream_t stream);

} // namespace gravlab
