#version 450 core
// Softened direct-sum accelerations, the classic tiled all-pairs scheme (Nyland, Harris and Prins, GPU Gems 3,
// ch. 31) as the CUDA kernel (sim/direct/cuda/DirectForces.cu) runs it: each work group of kThreads invocations owns
// kThreads * kTargetsPerThread targets, kTargetsPerThread per invocation (strided by the group size, so loads and
// stores coalesce) held in registers with their sums, and walks the sources one tile of kThreads bodies at a time:
// every invocation loads one body into shared memory, and after the barrier all read the tile in the same order, so
// each 16-byte shared load feeds kTargetsPerThread interactions. The next tile's load is issued before the current
// tile is consumed, so its latency hides behind arithmetic.
// a_i = G sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2). Bodies past N are massless bodies at the origin, so
// the inner loop has no branch; with eps > 0 (the GL backend requires it) padding and the target itself add exactly
// zero. Range guard (ForceMath.cuh explains it): positions are scaled by 2^-20 when loaded, eps^2 by 2^-40 and the sum
// by 2^40 at the end, all exact powers of two, so the cubed factor m / r'^3 stays inside float's range for separations
// from the softening length out to about 4e18. Work per interaction: 3 subtractions, 3 multiply-adds for r^2 + eps^2,
// one inversesqrt, 3 multiplies, 3 multiply-adds (20 flops by the customary count bench reports); one 16-byte shared
// load per source per invocation; 16 bytes per source per work group from the storage buffer.
const uint kThreads = 128;
const uint kTargetsPerThread = 4; // GlComputeBackend.cpp sizes the dispatch with the same number
const float kPositionScale = 1.0 / 1048576.0;        // 2^-20
const float kAccelerationUnscale = 1.0 / 1099511627776.0; // 2^-40: undoes the scaling of m d' / r'^3
layout(local_size_x = kThreads) in;

layout(std430, binding = 0) readonly buffer Positions {
    vec4 positions[]; // xyz: position, w: mass
};
layout(std430, binding = 2) writeonly buffer Accelerations {
    vec4 accelerations[]; // xyz: acceleration with G, w: 0
};

uniform uint u_bodyCount;
uniform uint u_firstTarget;       // the dispatch's first target: long sums are split into dispatches of bounded work
uniform float u_softeningSquared; // unscaled: eps^2
uniform float u_gravitationalConstant;

shared vec4 tile[kThreads];

/// The body at index with its position scaled, or a massless body at the origin past the end.
vec4 scaledOrMassless(uint index) {
    return index < u_bodyCount ? vec4(positions[index].xyz * kPositionScale, positions[index].w) : vec4(0.0);
}

void main() {
    const uint firstTarget = u_firstTarget + gl_WorkGroupID.x * (kThreads * kTargetsPerThread) + gl_LocalInvocationID.x;
    const float scaledSoftening2 = u_softeningSquared * (kPositionScale * kPositionScale);
    vec3 target[kTargetsPerThread];
    vec3 sum[kTargetsPerThread];
    for (uint k = 0; k < kTargetsPerThread; ++k) {
        target[k] = scaledOrMassless(firstTarget + k * kThreads).xyz;
        sum[k] = vec3(0.0);
    }
    vec4 next = scaledOrMassless(gl_LocalInvocationID.x);
    for (uint tileBegin = 0; tileBegin < u_bodyCount; tileBegin += kThreads) {
        tile[gl_LocalInvocationID.x] = next;
        barrier();
        next = scaledOrMassless(tileBegin + kThreads + gl_LocalInvocationID.x);
        for (uint source = 0; source < kThreads; ++source) {
            const vec4 body = tile[source];
            for (uint k = 0; k < kTargetsPerThread; ++k) {
                const vec3 d = body.xyz - target[k];
                const float distance2 = fma(d.x, d.x, fma(d.y, d.y, fma(d.z, d.z, scaledSoftening2)));
                const float inverseDistance = inversesqrt(distance2);
                const float factor = (body.w * inverseDistance) * (inverseDistance * inverseDistance);
                sum[k] = fma(vec3(factor), d, sum[k]);
            }
        }
        barrier();
    }
    for (uint k = 0; k < kTargetsPerThread; ++k) {
        const uint index = firstTarget + k * kThreads;
        if (index < u_bodyCount)
            accelerations[index] = vec4((sum[k] * kAccelerationUnscale) * u_gravitationalConstant, 0.0);
    }
}
