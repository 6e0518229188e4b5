#version 450 core
// Wireframe box edges: the colour chosen per box, alpha-blended over the tone-mapped image. Edges on a cut face (the
// box continues beyond the clip region there) are dashed in world units along the edge.

in vec4 v_color;
in float v_alongEdge;
flat in int v_onCutFace;
out vec4 o_color;

uniform float u_cutEdgeDashLength; // dash and gap length, N-body units; 0 draws cut edges solid

void main() {
    if (v_onCutFace != 0 && u_cutEdgeDashLength > 0.0 && fract(v_alongEdge / (2.0 * u_cutEdgeDashLength)) >= 0.5)
        discard;
    o_color = v_color;
}
