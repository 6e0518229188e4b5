#version 450 core
// One axis-aligned box -> the 12 edges of its wireframe as 24 line vertices (instanced: one instance per box). The
// corner of each vertex comes from gl_VertexID, choosing the lower or upper coordinate per axis, so no vertex buffer
// holds the box's shape; only its corners, colour and cut-face mask are per instance (see include/gravlab/render/WireBoxes.hpp). An
// edge lies on the two faces perpendicular to the axes it does not run along; when either of them is a cut face (the
// box was clipped there, include/gravlab/render/BoxClipping.hpp) the edge is the clip region's, drawn fainter and dashed.

layout(location = 0) in vec3 a_lower;
layout(location = 1) in vec3 a_upper;
layout(location = 2) in vec4 a_color; // straight RGBA
layout(location = 3) in uint a_cutFaces; // bit 2 axis: lower face cut, bit 2 axis + 1: upper face cut

uniform mat4 u_viewProjection;
uniform float u_opacity; // scales every box's alpha

out vec4 v_color;
out float v_alongEdge;  // world coordinate along the edge's axis, for dashing
flat out int v_onCutFace;

const float kCutEdgeAlpha = 0.5; // mirrors kCutEdgeAlpha in include/gravlab/render/WireBoxes.hpp

// Corner index bits: x = bit 0, y = bit 1, z = bit 2 (set: upper, clear: lower). Edges along x, then y, then z.
const int kEdgeCorners[24] = int[24](0, 1, 2, 3, 4, 5, 6, 7,  // along x
                                     0, 2, 1, 3, 4, 6, 5, 7,  // along y
                                     0, 4, 1, 5, 2, 6, 3, 7); // along z

void main() {
    int corner = kEdgeCorners[gl_VertexID];
    bvec3 upper = bvec3((corner & 1) != 0, (corner & 2) != 0, (corner & 4) != 0);
    vec3 position = mix(a_lower, a_upper, upper);
    gl_Position = u_viewProjection * vec4(position, 1.0);
    int edgeAxis = gl_VertexID / 8;
    bool onCutFace = false;
    for (int axis = 0; axis < 3; ++axis)
        if (axis != edgeAxis)
            onCutFace = onCutFace || (a_cutFaces & (1u << uint(2 * axis + (upper[axis] ? 1 : 0)))) != 0u;
    v_alongEdge = position[edgeAxis];
    v_onCutFace = onCutFace ? 1 : 0;
    float alpha = a_color.a * u_opacity * (onCutFace ? kCutEdgeAlpha : 1.0);
    v_color = vec4(a_color.rgb, clamp(alpha, 0.0, 1.0));
}
