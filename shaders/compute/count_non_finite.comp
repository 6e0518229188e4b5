#version 450 core
// Counts bodies whose position or velocity is NaN or infinite into one counter (the step's finiteness check), one
// invocation per body. 32 bytes read per body; one atomic add per non-finite body.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Positions {
    vec4 positions[];
};
layout(std430, binding = 1) readonly buffer Velocities {
    vec4 velocities[];
};
layout(std430, binding = 4) buffer NonFiniteCount {
    uint nonFiniteCount;
};

uniform uint u_bodyCount;

bool finite3(vec3 v) {
    return !any(isnan(v)) && !any(isinf(v));
}

void main() {
    const uint body = gl_GlobalInvocationID.x;
    if (body < u_bodyCount && !(finite3(positions[body].xyz) && finite3(velocities[body].xyz)))
        atomicAdd(nonFiniteCount, 1u);
}
