#version 450 core
// Trail vertices: a position and a straight RGBA whose alpha already fades from the trail's oldest sample to its
// newest (see include/gravlab/render/TrailRenderer.hpp).

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec4 a_color;

uniform mat4 u_viewProjection;

out vec4 v_color;

void main() {
    gl_Position = u_viewProjection * vec4(a_position, 1.0);
    v_color = a_color;
}
