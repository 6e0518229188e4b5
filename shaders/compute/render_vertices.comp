#version 450 core
// The renderer's vertices straight from the GL backend's state: position and colour key (RenderVertex: x, y, z,
// colour scalar), one invocation per body, written into the particle renderer's vertex buffer. 32 bytes read, 16
// written per body.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Positions {
    vec4 positions[];
};
layout(std430, binding = 1) readonly buffer Velocities {
    vec4 velocities[]; // w: colour key
};
layout(std430, binding = 3) writeonly buffer Vertices {
    vec4 vertices[];
};

uniform uint u_bodyCount;

void main() {
    const uint body = gl_GlobalInvocationID.x;
    if (body < u_bodyCount)
        vertices[body] = vec4(positions[body].xyz, velocities[body].w);
}
