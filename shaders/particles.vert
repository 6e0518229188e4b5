#version 450 core
// One body -> one point sprite. Size: a world-size sprite projected with perspective, clamped to a pixel range;
// sprites below the minimum keep their total light by dimming with the area ratio. Colour: colorScalar through the
// palette u_palette selects: 0, cool to warm (0 blue, 0.5 white, 1 orange), for ordered scalars; 1, a cyclic hue wheel
// for ORB domains, whose neighbours' scalars lie 0.38 or 0.62 apart. A negative scalar (kUnsampledColorScalar,
// ColorScale.hpp: a body the colour map has no value for) is drawn dim grey by the cool-warm palette. render/ColorPalettes.cpp mirrors both for the
// overlays, and a render test checks that the two agree.

layout(location = 0) in vec4 a_positionAndColor; // xyz: position, w: colorScalar in [0, 1]

uniform mat4 u_view;
uniform mat4 u_projection;
uniform float u_pixelsPerUnitAtUnitDepth; // viewport height / (2 tan(fovy / 2))
uniform float u_spriteWorldSize;          // sprite diameter, N-body length units
uniform float u_brightness;
uniform float u_minPixelSize;
uniform float u_maxPixelSize;
uniform int u_palette; // BodyPalette: 0 cool-warm, 1 domain hues

out vec3 v_light;

vec3 coolWarm(float t) {
    if (t < 0.0)
        return vec3(0.25);
    const vec3 cool = vec3(0.40, 0.58, 1.00);
    const vec3 white = vec3(1.00, 0.95, 0.88);
    const vec3 warm = vec3(1.00, 0.55, 0.22);
    t = clamp(t, 0.0, 1.0);
    return t < 0.5 ? mix(cool, white, 2.0 * t) : mix(white, warm, 2.0 * t - 1.0);
}

vec3 domainHues(float t) {
    const float kTwoPi = 6.283185307179586;
    float turn = kTwoPi * fract(t);
    return vec3(0.5) + 0.45 * cos(vec3(turn) - vec3(0.0, kTwoPi / 3.0, 2.0 * kTwoPi / 3.0));
}

vec3 palette(float t) {
    return u_palette == 1 ? domainHues(t) : coolWarm(t);
}

void main() {
    vec4 viewPosition = u_view * vec4(a_positionAndColor.xyz, 1.0);
    gl_Position = u_projection * viewPosition;

    float depth = max(-viewPosition.z, 1e-6);
    float projectedSize = u_spriteWorldSize * u_pixelsPerUnitAtUnitDepth / depth;
    float drawnSize = clamp(projectedSize, u_minPixelSize, u_maxPixelSize);
    float areaRatio = min(1.0, (projectedSize * projectedSize) / (drawnSize * drawnSize));
    gl_PointSize = drawnSize;
    v_light = palette(a_positionAndColor.w) * (u_brightness * areaRatio);
}
