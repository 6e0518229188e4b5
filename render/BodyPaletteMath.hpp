#pragma once
// The body palettes as plain arithmetic, shared by ColorPalettes.cpp on the host and the particle splat kernel on the
// device, so the two cannot drift apart; particles.vert holds the GLSL copy and a render test checks it against this.
#include <gravlab/sim/HostDevice.hpp>

#include <cmath>

namespace gravlab {

struct PaletteRgb {
    float r, g, b;
};

/// Grey of a body a colour map has no value for (a negative colour scalar; see ColorScale.hpp).
inline constexpr float kUnsampledGreyLevel = 0.25f;

/// Cool blue (t = 0) through white (0.5) to warm orange (1), for ordered scalars; t above 1 is clamped, a negative t
/// is the grey of a body without a value.
GRAVLAB_HOST_DEVICE PaletteRgb coolWarmRgb(float t) {
    if (t < 0.0f)
        return {kUnsampledGreyLevel, kUnsampledGreyLevel, kUnsampledGreyLevel};
    t = t > 1.0f ? 1.0f : t;
    const PaletteRgb cool{0.40f, 0.58f, 1.00f};
    const PaletteRgb white{1.00f, 0.95f, 0.88f};
    const PaletteRgb warm{1.00f, 0.55f, 0.22f};
    const PaletteRgb& from = t < 0.5f ? cool : white;
    const PaletteRgb& to = t < 0.5f ? white : warm;
    const float s = t < 0.5f ? 2.0f * t : 2.0f * t - 1.0f;
    return {from.r + (to.r - from.r) * s, from.g + (to.g - from.g) * s, from.b + (to.b - from.b) * s};
}

/// A cyclic hue wheel for ORB domains: only the fractional part of t matters.
GRAVLAB_HOST_DEVICE PaletteRgb domainHuesRgb(float t) {
    constexpr float kTwoPi = 6.283185307179586f;
    const float turn = kTwoPi * (t - floorf(t));
    return {0.5f + 0.45f * cosf(turn), 0.5f + 0.45f * cosf(turn - kTwoPi / 3.0f),
            0.5f + 0.45f * cosf(turn - 2.0f * kTwoPi / 3.0f)};
}

/// palette: BodyPalette as an int (1: domain hues, otherwise cool-warm), as the shader's u_palette.
GRAVLAB_HOST_DEVICE PaletteRgb bodyPaletteRgb(int palette, float t) {
    return palette == 1 ? domainHuesRgb(t) : coolWarmRgb(t);
}

} // namespace gravlab
