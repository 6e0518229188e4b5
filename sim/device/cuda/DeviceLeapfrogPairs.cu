// Leapfrog kernels on float-float pairs: one thread per body, memory-bound (a few fp64 flops per 16-byte access).
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceLeapfrogPairs.hpp"
#include "device/cuda/LaunchSize.hpp"

namespace gravlab {
namespace {

/// high + low += rate * duration in double, split back into a float and its remainder.
__device__ inline void advance(float& high, float& low, double rate, double duration) {
    const double sum = fma(rate, duration, double(high) + double(low));
    high = float(sum);
    low = float(sum - double(high));
}

__device__ inline double joined(float high, float low) {
    return double(high) + double(low);
}

/// v += a * halfStep on body i's pairs (a's low parts when the solver gave them).
__device__ inline void kickPairs(float4& v, float4& vLow, const DevicePairState& state, unsigned i, double halfStep) {
    const float4 a = state.acceleration[i];
    const float4 aLow = state.accelerationLow ? state.accelerationLow[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    advance(v.x, vLow.x, joined(a.x, aLow.x), halfStep);
    advance(v.y, vLow.y, joined(a.y, aLow.y), halfStep);
    advance(v.z, vLow.z, joined(a.z, aLow.z), halfStep);
}

// Work per body: 12 DFMA/DADD and 12 conversions; 96 bytes read (position, velocity, acceleration and their low
// parts), 64 bytes written.
__global__ void kickDriftPairsKernel(DevicePairState state, unsigned bodyCount, double halfStep, double timeStep) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    float4 v = state.velocityColor[i], vLow = state.velocityLow[i];
    float4 p = state.positionMass[i], pLow = state.positionLow[i];
    kickPairs(v, vLow, state, i, halfStep);
    advance(p.x, pLow.x, joined(v.x, vLow.x), timeStep);
    advance(p.y, pLow.y, joined(v.y, vLow.y), timeStep);
    advance(p.z, pLow.z, joined(v.z, vLow.z), timeStep);
    state.velocityColor[i] = v;
    state.velocityLow[i] = vLow;
    state.positionMass[i] = p;
    state.positionLow[i] = pLow;
}

// Work per body: 6 DFMA/DADD and six finiteness tests; 80 bytes read, 32 bytes written, one atomic per warp that
// found a non-finite body.
__global__ void kickPairsAndCountNonFiniteKernel(DevicePairState state, unsigned bodyCount, double halfStep,
                                                 unsigned* __restrict__ nonFiniteCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    bool nonFinite = false;
    if (i < bodyCount) {
        const float4 p = state.positionMass[i];
        float4 v = state.velocityColor[i], vLow = state.velocityLow[i];
        kickPairs(v, vLow, state, i, halfStep);
        state.velocityColor[i] = v;
        state.velocityLow[i] = vLow;
        // The high parts carry any NaN or inf of the pair (the low part of a finite sum is finite).
        nonFinite =
            !(isfinite(p.x) && isfinite(p.y) && isfinite(p.z) && isfinite(v.x) && isfinite(v.y) && isfinite(v.z));
    }
    // Every lane reaches the ballot (no early return above), so the full mask is exact.
    const unsigned warpCount = __popc(__ballot_sync(0xffffffffu, nonFinite));
    if (warpCount != 0 && threadIdx.x % 32 == 0)
        atomicAdd(nonFiniteCount, warpCount);
}

} // namespace

void launchKickDriftPairs(const DevicePairState& state, double halfStep, double timeStep, cudaStream_t stream) {
    if (state.bodyCount == 0)
        return;
    const LaunchSize size = launchSize1d(state.bodyCount);
    kickDriftPairsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(state, unsigned(state.bodyCount), halfStep,
                                                                           timeStep);
    checkLaunch("kickDriftPairsKernel");
}

void launchKickPairsAndCountNonFinite(const DevicePairState& state, double halfStep, unsigned* nonFiniteCount,
                                      cudaStream_t stream) {
    if (state.bodyCount == 0)
        return;
    const LaunchSize size = launchSize1d(state.bodyCount);
    kickPairsAndCountNonFiniteKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(state, unsigned(state.bodyCount),
                                                                                       halfStep, nonFiniteCount);
    checkLaunch("kickPairsAndCountNonFiniteKernel");
}

} // namespace gravlab
