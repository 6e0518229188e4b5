// The body palettes in C++ (mirrors of particles.vert; see ColorPalettes.hpp).
#include <gravlab/render/ColorPalettes.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace gravlab {

namespace {

glm::vec3 coolWarm(float t) {
    if (t < 0.0f)
        return glm::vec3(kUnsampledGrey);
    const glm::vec3 cool(0.40f, 0.58f, 1.00f);
    const glm::vec3 white(1.00f, 0.95f, 0.88f);
    const glm::vec3 warm(1.00f, 0.55f, 0.22f);
    t = std::clamp(t, 0.0f, 1.0f);
    return t < 0.5f ? glm::mix(cool, white, 2.0f * t) : glm::mix(white, warm, 2.0f * t - 1.0f);
}

glm::vec3 domainHues(float t) {
    const float turn = 2.0f * std::numbers::pi_v<float> * (t - std::floor(t));
    const glm::vec3 phase(0.0f, 2.0f * std::numbers::pi_v<float> / 3.0f, 4.0f * std::numbers::pi_v<float> / 3.0f);
    return glm::vec3(0.5f) + 0.45f * glm::cos(glm::vec3(turn) - phase);
}

} // namespace

glm::vec3 paletteColor(BodyPalette palette, float t) {
    return palette == BodyPalette::DomainHues ? domainHues(t) : coolWarm(t);
}

BodyPalette bodyPaletteFor(ColorMode mode, bool orbActive) {
    return mode == ColorMode::OrbDomain && orbActive ? BodyPalette::DomainHues : BodyPalette::CoolWarm;
}

} // namespace gravlab
