#version 450 core
// Wireframe box edges: the colour chosen per box, alpha-blended over the tone-mapped image.

in vec4 v_color;
out vec4 o_color;

void main() {
    o_color = v_color;
}
