// The body palettes on the host: BodyPaletteMath.hpp's arithmetic (mirrored by particles.vert; see ColorPalettes.hpp).
#include "BodyPaletteMath.hpp"

#include <gravlab/render/ColorPalettes.hpp>

namespace gravlab {

static_assert(kUnsampledGrey == kUnsampledGreyLevel, "the host and device palettes draw unsampled bodies alike");

glm::vec3 paletteColor(BodyPalette palette, float t) {
    const PaletteRgb rgb = bodyPaletteRgb(static_cast<int>(palette), t);
    return {rgb.r, rgb.g, rgb.b};
}

BodyPalette bodyPaletteFor(ColorMode mode, bool orbActive) {
    return mode == ColorMode::OrbDomain && orbActive ? BodyPalette::DomainHues : BodyPalette::CoolWarm;
}

} // namespace gravlab
