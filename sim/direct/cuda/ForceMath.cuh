#pragma once
// Device helpers shared by the direct-sum force kernels: fp32 Plummer interactions with a range guard.
//
// Design note (range guard): the pair factor m / (r^2 + eps^2)^(3/2) is a cube, and fp32 spans only about 1e-38 to
// 3e38. Cubing at the scale of the simulation's units would put the factor's whole exponent range on one side:
// with eps >= 1e-5 (SimParams' lower bound) the largest factor is 1e15, while separations beyond about 4e12 (or 4e10
// for bodies of mass 1e-6) already underflow into denormals and then to zero. So positions are scaled by
// kPositionScale = 2^-20 when a kernel loads them, eps^2 by 2^-40, and the accumulated sum by 2^40 once at the end:
//   sum' = sum_j m_j (x_j - x_i) 2^-20 / ((r^2 + eps^2) 2^-40)^(3/2) = 2^40 * sum_j m_j (x_j - x_i) / (r^2 +
//   eps^2)^(3/2)
// Powers of two scale exactly, so the result is bit-for-bit what unscaled arithmetic would give wherever that does not
// over- or underflow. The factor m (S/r)^3 now peaks at about 1e33 for eps = 1e-5 (overflow would need r below 6e-8,
// which softening rules out) and stays normal out to separations near 4e18, far past the point where the
// acceleration m/r^2 itself is below fp32's range. With eps = 0 (the exact Newtonian sum) a pair closer than about
// 6e-8 m^(1/3) does overflow: the acceleration becomes inf and the step's non-finite check reports it. The cost is
// three multiplies per body load, none per interaction. rsqrt.approx.ftz.f32 (MUFU.RSQ, relative error below 2^-22.9)
// is used directly: its argument is at least the scaled eps^2 (about 1e-22, a normal number; eps = 0 has its own
// variant below), so flushing denormals changes nothing, and plain rsqrtf() would add denormal-handling instructions to
// the hottest loop.
#include <cuda_runtime.h>

namespace gravlab::force {

inline constexpr float kPositionScale = 0x1p-20f;
/// Undoes the scaling of a sum of m * d' / r'^3 terms: multiply by this (exact) and then by G.
inline constexpr float kAccelerationUnscale = 0x1p-40f;

__device__ __forceinline__ float rsqrtApprox(float x) {
    float result;
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(result) : "f"(x));
    return result;
}

/// Position scaled for the force kernels; mass (w) unchanged.
__device__ __forceinline__ float4 scaledPositionMass(float4 body) {
    return make_float4(body.x * kPositionScale, body.y * kPositionScale, body.z * kPositionScale, body.w);
}

/// The body at index, scaled, or a massless body at the origin past the end: massless bodies exert no force, and
/// the forces on them are never stored, so tiles that run past the body count need no branch in the inner loop.
__device__ __forceinline__ float4 loadScaledOrMassless(const float4* __restrict__ positionMass, unsigned index,
                                                       unsigned end) {
    return index < end ? scaledPositionMass(positionMass[index]) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

/// sum += m_source (x_source - x_target) / (r^2 + eps^2)^(3/2), all in scaled units.
/// 3 FADD + 3 FFMA + 1 MUFU.RSQ + 3 FMUL + 3 FFMA = 13 instructions.
__device__ __forceinline__ void accumulateAttraction(float3 target, float4 source, float scaledSoftening2,
                                                     float3& sum) {
    const float dx = source.x - target.x;
    const float dy = source.y - target.y;
    const float dz = source.z - target.z;
    const float distance2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, scaledSoftening2)));
    const float inverseDistance = rsqrtApprox(distance2);
    const float factor = (source.w * inverseDistance) * (inverseDistance * inverseDistance);
    sum.x = fmaf(factor, dx, sum.x);
    sum.y = fmaf(factor, dy, sum.y);
    sum.z = fmaf(factor, dz, sum.z);
}

/// accumulateAttraction for eps = 0: a term with r^2 == 0 (the target itself, a massless padding body at its position
/// or another body there) is selected away instead of becoming 0 * inf; returns whether r^2 == 0, so the caller can
/// tell a coincident pair of distinct bodies from the target's own term. A denormal r^2 (|d| below about 1e-13
/// after scaling) is not 0 but is flushed by the rsqrt, so that pair gives inf, which the non-finite check reports.
/// 3 FADD + 2 FFMA + 1 FMUL + 1 MUFU.RSQ + FSETP + FSEL + 3 FMUL + 3 FFMA = 15 instructions.
__device__ __forceinline__ bool accumulateNewtonianAttraction(float3 target, float4 source, float3& sum) {
    const float dx = source.x - target.x;
    const float dy = source.y - target.y;
    const float dz = source.z - target.z;
    const float distance2 = fmaf(dx, dx, fmaf(dy, dy, dz * dz));
    const bool coincident = distance2 == 0.0f;
    const float inverseDistance = coincident ? 0.0f : rsqrtApprox(distance2);
    const float factor = (source.w * inverseDistance) * (inverseDistance * inverseDistance);
    sum.x = fmaf(factor, dx, sum.x);
    sum.y = fmaf(factor, dy, sum.y);
    sum.z = fmaf(factor, dz, sum.z);
    return coincident;
}

/// Converts a scaled sum to an acceleration: times 2^-40 (exact), then times G.
__device__ __forceinline__ float3 unscaledAcceleration(float3 sum, float gravitationalConstant) {
    return make_float3(sum.x * kAccelerationUnscale * gravitationalConstant,
                       sum.y * kAccelerationUnscale * gravitationalConstant,
                       sum.z * kAccelerationUnscale * gravitationalConstant);
}

/// acceleration[index] += value, as one vector atomic where the chip has it (sm_90), else three scalar ones.
__device__ __forceinline__ void atomicAddAcceleration(float4* acceleration, unsigned index, float3 value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    atomicAdd(&acceleration[index], make_float4(value.x, value.y, value.z, 0.0f));
#else
    atomicAdd(&acceleration[index].x, value.x);
    atomicAdd(&acceleration[index].y, value.y);
    atomicAdd(&acceleration[index].z, value.z);
#endif
}

} // namespace gravlab::force
