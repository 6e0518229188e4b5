#version 450 core
// Trail line fragments: the interpolated colour, alpha-blended over the tone-mapped image.

in vec4 v_color;
out vec4 o_color;

void main() {
    o_color = v_color;
}
