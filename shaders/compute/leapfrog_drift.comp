#version 450 core
// Leapfrog drift x += v * duration, one invocation per body (the CPU's driftCpu in float). 32 bytes read, 16 written.
layout(local_size_x = 256) in;

layout(std430, binding = 0) buffer Positions {
    vec4 positions[]; // xyz: position, w: mass (kept)
};
layout(std430, binding = 1) readonly buffer Velocities {
    vec4 velocities[];
};

uniform uint u_bodyCount;
uniform float u_duration;

void main() {
    const uint body = gl_GlobalInvocationID.x;
    if (body < u_bodyCount)
        positions[body].xyz += velocities[body].xyz * u_duration;
}
