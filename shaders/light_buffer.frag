#version 450 core
// Adds light splatted by CUDA (DeviceParticleLight.hpp) into the HDR buffer: one RGBA32F texel per pixel, row 0 at
// the bottom, read at this fragment's pixel; drawn with additive blending over a full-screen triangle.

layout(std430, binding = 0) readonly buffer Light {
    vec4 u_texels[];
};
uniform int u_width;
out vec4 o_light;

void main() {
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    o_light = vec4(u_texels[pixel.y * u_width + pixel.x].rgb, 0.0);
}
