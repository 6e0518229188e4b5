#version 450 core
// Leapfrog kick v += a * duration, one invocation per body (the CPU's kickCpu in float). 32 bytes read, 16 written.
layout(local_size_x = 256) in;

layout(std430, binding = 1) buffer Velocities {
    vec4 velocities[]; // xyz: velocity, w: colour key (kept)
};
layout(std430, binding = 2) readonly buffer Accelerations {
    vec4 accelerations[];
};

uniform uint u_bodyCount;
uniform float u_duration;

void main() {
    const uint body = gl_GlobalInvocationID.x;
    if (body < u_bodyCount)
        velocities[body].xyz += accelerations[body].xyz * u_duration;
}
