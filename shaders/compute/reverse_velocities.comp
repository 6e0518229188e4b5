#version 450 core
// Time reversal: every velocity negated in place, colour keys kept. 16 bytes read and written per body.
layout(local_size_x = 256) in;

layout(std430, binding = 1) buffer Velocities {
    vec4 velocities[]; // xyz: velocity, w: colour key
};

uniform uint u_bodyCount;

void main() {
    const uint body = gl_GlobalInvocationID.x;
    if (body < u_bodyCount)
        velocities[body].xyz = -velocities[body].xyz;
}
