// Leapfrog kernels: one thread per body, memory-bound (a few flops per 16-byte access).
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceLeapfrog.hpp"
#include "device/cuda/LaunchSize.hpp"

namespace gravlab {
namespace {

// Work per body: 6 FFMA; 48 bytes read (position, velocity, acceleration), 32 bytes written.
__global__ void kickDriftKernel(float4* __restrict__ positionMass, float4* __restrict__ velocityColor,
                                const float4* __restrict__ acceleration, unsigned bodyCount, float halfStep,
                                float timeStep) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const float4 a = acceleration[i];
    float4 v = velocityColor[i];
    float4 p = positionMass[i];
    v.x = fmaf(a.x, halfStep, v.x);
    v.y = fmaf(a.y, halfStep, v.y);
    v.z = fmaf(a.z, halfStep, v.z);
    p.x = fmaf(v.x, timeStep, p.x);
    p.y = fmaf(v.y, timeStep, p.y);
    p.z = fmaf(v.z, timeStep, p.z);
    velocityColor[i] = v;
    positionMass[i] = p;
}

// Work per body: 3 FFMA and six finiteness tests; 48 bytes read, 16 bytes written, one atomic per warp that found a
// non-finite body.
__global__ void kickAndCountNonFiniteKernel(const float4* __restrict__ positionMass, float4* __restrict__ velocityColor,
                                            const float4* __restrict__ acceleration, unsigned bodyCount, float halfStep,
                                            unsigned* __restrict__ nonFiniteCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    bool nonFinite = false;
    if (i < bodyCount) {
        const float4 a = acceleration[i];
        const float4 p = positionMass[i];
        float4 v = velocityColor[i];
        v.x = fmaf(a.x, halfStep, v.x);
        v.y = fmaf(a.y, halfStep, v.y);
        v.z = fmaf(a.z, halfStep, v.z);
        velocityColor[i] = v;
        nonFinite =
            !(isfinite(p.x) && isfinite(p.y) && isfinite(p.z) && isfinite(v.x) && isfinite(v.y) && isfinite(v.z));
    }
    // Every lane reaches the ballot (no early return above), so the full mask is exact.
    const unsigned warpCount = __popc(__ballot_sync(0xffffffffu, nonFinite));
    if (warpCount != 0 && threadIdx.x % 32 == 0)
        atomicAdd(nonFiniteCount, warpCount);
}

// Work per body: 16 bytes read, three finiteness tests, one atomic per warp that found a non-finite body.
__global__ void countNonFinitePositionsKernel(const float4* __restrict__ positionMass, unsigned bodyCount,
                                              unsigned* __restrict__ nonFiniteCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    bool nonFinite = false;
    if (i < bodyCount) {
        const float4 p = positionMass[i];
        nonFinite = !(isfinite(p.x) && isfinite(p.y) && isfinite(p.z));
    }
    const unsigned warpCount = __popc(__ballot_sync(0xffffffffu, nonFinite));
    if (warpCount != 0 && threadIdx.x % 32 == 0)
        atomicAdd(nonFiniteCount, warpCount);
}

// Work per body: 16 bytes read, 16 bytes written.
__global__ void negateVelocitiesKernel(float4* __restrict__ velocityColor, unsigned bodyCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    float4 v = velocityColor[i];
    v.x = -v.x;
    v.y = -v.y;
    v.z = -v.z;
    velocityColor[i] = v;
}

} // namespace

void launchKickDrift(float4* positionMass, float4* velocityColor, const float4* acceleration, std::size_t bodyCount,
                     float halfStep, float timeStep, cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    const LaunchSize size = launchSize1d(bodyCount);
    kickDriftKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        positionMass, velocityColor, acceleration, static_cast<unsigned>(bodyCount), halfStep, timeStep);
    checkLaunch("kickDriftKernel");
}

void launchKickAndCountNonFinite(const float4* positionMass, float4* velocityColor, const float4* acceleration,
                                 std::size_t bodyCount, float halfStep, unsigned* nonFiniteCount, cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    const LaunchSize size = launchSize1d(bodyCount);
    kickAndCountNonFiniteKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        positionMass, velocityColor, acceleration, static_cast<unsigned>(bodyCount), halfStep, nonFiniteCount);
    checkLaunch("kickAndCountNonFiniteKernel");
}

void launchCountNonFinitePositions(const float4* positionMass, std::size_t bodyCount, unsigned* nonFiniteCount,
                                   cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    const LaunchSize size = launchSize1d(bodyCount);
    countNonFinitePositionsKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        positionMass, static_cast<unsigned>(bodyCount), nonFiniteCount);
    checkLaunch("countNonFinitePositionsKernel");
}

void launchNegateVelocities(float4* velocityColor, std::size_t bodyCount, cudaStream_t stream) {
    if (bodyCount == 0)
        return;
    const LaunchSize size = launchSize1d(bodyCount);
    negateVelocitiesKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(velocityColor,
                                                                             static_cast<unsigned>(bodyCount));
    checkLaunch("negateVelocitiesKernel");
}

} // namespace gravlab
