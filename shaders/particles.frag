#version 450 core
// A soft round sprite: light falls off as (1 - r^2)^2 from the centre to zero at the rim, so overlapping sprites sum
// to a smooth glow and no square corners show.

in vec3 v_light;
out vec4 o_light;

void main() {
    vec2 fromCentre = 2.0 * gl_PointCoord - 1.0;
    float r2 = dot(fromCentre, fromCentre);
    if (r2 >= 1.0)
        discard;
    float falloff = (1.0 - r2) * (1.0 - r2);
    o_light = vec4(v_light * falloff, 0.0);
}
