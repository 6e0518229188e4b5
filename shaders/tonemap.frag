#version 450 core
// Maps accumulated particle light to display colours: 1 - exp(-exposure * L) is linear for faint light, saturates
// smoothly in dense cores and keeps empty sky exactly black; the 1/2.2 display gamma then lifts faint outskirts the
// way a screen (sRGB) expects, instead of leaving them crushed into the black.

layout(binding = 0) uniform sampler2D u_light;
uniform float u_exposure;
uniform ivec2 u_origin; // the target rectangle's lower-left corner: the light buffer starts there

out vec4 o_color;

void main() {
    vec3 light = texelFetch(u_light, ivec2(gl_FragCoord.xy) - u_origin, 0).rgb;
    vec3 mapped = vec3(1.0) - exp(-u_exposure * max(light, vec3(0.0)));
    o_color = vec4(pow(mapped, vec3(1.0 / 2.2)), 1.0);
}
