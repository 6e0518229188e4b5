#version 450 core
// One body -> one point sprite. Size: a world-size sprite projected with perspective, clamped to a pixel range;
// sprites below the minimum keep their total light by dimming with the area ratio. Colour: colorScalar through a
// cool-to-warm palette (0 blue, 0.5 white, 1 orange).

layout(location = 0) in vec4 a_positionAndColor; // xyz: position, w: colorScalar in [0, 1]

uniform mat4 u_view;
uniform mat4 u_projection;
uniform float u_pixelsPerUnitAtUnitDepth; // viewport height / (2 tan(fovy / 2))
uniform float u_spriteWorldSize;          // sprite diameter, N-body length units
uniform float u_brightness;
uniform float u_minPixelSize;
uniform float u_maxPixelSize;

out vec3 v_light;

vec3 palette(float t) {
    const vec3 cool = vec3(0.40, 0.58, 1.00);
    const vec3 white = vec3(1.00, 0.95, 0.88);
    const vec3 warm = vec3(1.00, 0.55, 0.22);
    t = clamp(t, 0.0, 1.0);
    return t < 0.5 ? mix(cool, white, 2.0 * t) : mix(white, warm, 2.0 * t - 1.0);
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
