#version 450 core
// Softened direct-sum accelerations, one invocation per target, sources staged through shared-memory tiles (the
// scheme of Nyland, Harris and Prins, GPU Gems 3, ch. 31): each work group loads one tile of kTile source bodies,
// every invocation of the group sums the tile against its target, and the group moves on to the next tile.
// a_i = G sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2). The last tile is padded with bodies of mass 0 at the
// origin, so every tile runs the same unrolled loop; with eps > 0 (the GL backend requires it) a padding body and the
// target itself add exactly zero. Work per target: 20 flops per source (the count bench reports), 16 bytes read per
// source from shared memory; 16 bytes per source per work group from the storage buffer.
const uint kTile = 256;
layout(local_size_x = kTile) in;

layout(std430, binding = 0) readonly buffer Positions {
    vec4 positions[]; // xyz: position, w: mass
};
layout(std430, binding = 2) writeonly buffer Accelerations {
    vec4 accelerations[]; // xyz: acceleration with G, w: 0
};

uniform uint u_bodyCount;
uniform float u_softeningSquared;
uniform float u_gravitationalConstant;

shared vec4 tile[kTile];

void main() {
    const uint target = gl_GlobalInvocationID.x;
    const vec3 position = target < u_bodyCount ? positions[target].xyz : vec3(0.0);
    vec3 acceleration = vec3(0.0);
    for (uint start = 0; start < u_bodyCount; start += kTile) {
        const uint source = start + gl_LocalInvocationID.x;
        tile[gl_LocalInvocationID.x] = source < u_bodyCount ? positions[source] : vec4(0.0);
        barrier();
        for (uint k = 0; k < kTile; ++k) {
            const vec3 d = tile[k].xyz - position;
            const float inverseDistance = inversesqrt(dot(d, d) + u_softeningSquared);
            acceleration += (tile[k].w * inverseDistance * inverseDistance * inverseDistance) * d;
        }
        barrier();
    }
    if (target < u_bodyCount)
        accelerations[target] = vec4(u_gravitationalConstant * acceleration, 0.0);
}
