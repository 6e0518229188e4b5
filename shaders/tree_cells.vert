#version 450 core
// One octree cell -> the 12 edges of its cube as 24 line vertices (instanced: one instance per cell). The corner of
// each vertex comes from gl_VertexID, so no vertex buffer holds the cube; only the per-cell centre, half size and depth
// are per instance. Colour runs over the depths on screen, shallow to deep: green, yellow, magenta; deeper cells are
// also fainter (down to kDeepestAlphaScale of the opacity), since they are many and small and would otherwise bury the
// bodies they hold under a solid block of lines.

layout(location = 0) in vec4 a_centreAndHalfSize; // xyz: cell centre, w: half the side
layout(location = 1) in int a_depth;               // 0 for the root

uniform mat4 u_viewProjection;
uniform vec2 u_depthSpan;   // shallowest and deepest depth among the drawn cells
uniform float u_opacity;    // alpha of the shallowest cells' edges
uniform int u_highlight;    // 1: draw in the highlight colour (the picked body's marker) instead of by depth

out vec4 v_color;

// Corner index bits: x = bit 0, y = bit 1, z = bit 2 (set: +halfSize, clear: -halfSize). Edges along x, then y, then z.
const int kEdgeCorners[24] = int[24](0, 1, 2, 3, 4, 5, 6, 7,  // along x
                                     0, 2, 1, 3, 4, 6, 5, 7,  // along y
                                     0, 4, 1, 5, 2, 6, 3, 7); // along z

const float kDeepestAlphaScale = 0.4;

vec3 depthColor(float t) {
    const vec3 shallow = vec3(0.30, 1.00, 0.45);
    const vec3 middle = vec3(1.00, 0.90, 0.25);
    const vec3 deep = vec3(1.00, 0.30, 0.85);
    t = clamp(t, 0.0, 1.0);
    return t < 0.5 ? mix(shallow, middle, 2.0 * t) : mix(middle, deep, 2.0 * t - 1.0);
}

void main() {
    int corner = kEdgeCorners[gl_VertexID];
    vec3 signs = vec3(float(corner & 1), float((corner >> 1) & 1), float((corner >> 2) & 1)) * 2.0 - 1.0;
    vec3 position = a_centreAndHalfSize.xyz + a_centreAndHalfSize.w * signs;
    gl_Position = u_viewProjection * vec4(position, 1.0);

    float span = max(u_depthSpan.y - u_depthSpan.x, 1.0);
    float t = clamp((float(a_depth) - u_depthSpan.x) / span, 0.0, 1.0);
    if (u_highlight != 0)
        v_color = vec4(1.0);
    else
        v_color = vec4(depthColor(t), u_opacity * mix(1.0, kDeepestAlphaScale, t));
}
