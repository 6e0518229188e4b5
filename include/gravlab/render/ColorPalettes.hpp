#pragma once
// The palettes that turn a body's colour scalar into a colour, on the CPU, for the overlays that must match the bodies.
//
// Design note: bodies are coloured in particles.vert; the ORB overlay colours each domain's box like that domain's
// bodies, so the same palettes exist here in C++. The two must agree: ColorPalettesTest renders bodies through the
// shader into a float buffer and compares the light with these functions. Two palettes:
//   CoolWarm  : blue (0) through white (0.5) to orange (1), for the scenario's components, leaf depths and the
//               per-body quantities (speed, density, ...), where the scalar is ordered; a negative scalar
//               (kUnsampledColorScalar) is a dim grey, for bodies the colour map has no value for.
//   DomainHues: a cyclic hue wheel, 0.5 + 0.45 cos(2 pi (t - k/3)) per channel k, for ORB domains. orbDomainColorScalar
//               gives domains k and k + 1 scalars 0.38 or 0.62 apart, a golden-angle step (137.5 degrees) round the
//               wheel, so neighbouring domains get clearly different hues. The ramp cannot promise that: two scalars
//               0.38 apart either side of its white middle are two pale tints, and dense regions, whose summed light
//               saturates towards white, make pale tints indistinguishable.
#include <gravlab/sim/ColorScale.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <glm/glm.hpp>

namespace gravlab {

/// Grey level of bodies without a value (all three channels): dim beside every colour of the ramp.
inline constexpr float kUnsampledGrey = 0.25f;

enum class BodyPalette {
    CoolWarm = 0,   ///< ordered scalars: components, leaf depth (the shader's u_palette 0)
    DomainHues = 1, ///< ORB domains: cyclic hues (the shader's u_palette 1)
};

/// The colour of scalar t (clamped to [0, 1] for CoolWarm, grey below 0; taken modulo 1 for DomainHues), channels
/// in [0, 1]. The colour bar draws its gradient with this.
glm::vec3 paletteColor(BodyPalette palette, float t);

/// The palette for bodies in colour mode mode: DomainHues only while the backend really writes domain scalars
/// (orbActive: its orbStatus() reports domains), since ColorMode::OrbDomain falls back to component colours otherwise.
BodyPalette bodyPaletteFor(ColorMode mode, bool orbActive);

} // namespace gravlab
