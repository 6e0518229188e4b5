// The body palettes: the ORB palette gives neighbouring domains clearly different colours, judged by the CIELAB colour
// difference computed here from the sRGB definition (independent of the code under test); the cool-warm ramp would
// not, which is why ORB domains have their own palette; and the shader's palettes, read back as light from a float
// framebuffer, equal the C++ mirrors that colour the ORB boxes.
#include "RenderTestSupport.hpp"

#include <gravlab/render/ColorPalettes.hpp>
#include <gravlab/render/ParticleRenderer.hpp>
#include <gravlab/sim/ColorScale.hpp>
#include <gravlab/sim/Orb.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <cmath>
#include <random>

namespace gravlab::test {
namespace {

/// CIELAB (D65) of an sRGB colour with channels in [0, 1].
glm::vec3 lab(const glm::vec3& srgb) {
    const auto linear = [](float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); };
    const glm::vec3 l(linear(srgb.r), linear(srgb.g), linear(srgb.b));
    const float x = (0.4124f * l.r + 0.3576f * l.g + 0.1805f * l.b) / 0.95047f;
    const float y = 0.2126f * l.r + 0.7152f * l.g + 0.0722f * l.b;
    const float z = (0.0193f * l.r + 0.1192f * l.g + 0.9505f * l.b) / 1.08883f;
    const auto f = [](float t) { return t > 0.008856f ? std::cbrt(t) : 7.787f * t + 16.0f / 116.0f; };
    return {116.0f * f(y) - 16.0f, 500.0f * (f(x) - f(y)), 200.0f * (f(y) - f(z))};
}

/// CIE76 colour difference: about 2.3 is just noticeable, above 50 reads as a different colour.
float deltaE(const glm::vec3& a, const glm::vec3& b) {
    return glm::length(lab(a) - lab(b));
}

/// The smallest colour difference between domains k and k + gap over the first kMaxOrbDomains domains.
float smallestDifference(BodyPalette palette, std::uint32_t gap) {
    float smallest = 1e9f;
    for (std::uint32_t k = 0; k + gap < kMaxOrbDomains; ++k)
        smallest = std::min(smallest, deltaE(paletteColor(palette, orbDomainColorScalar(k)),
                                             paletteColor(palette, orbDomainColorScalar(k + gap))));
    return smallest;
}

TEST(ColorPalettes, AdjacentOrbDomainsGetClearlyDifferentColours) {
    // Domains k and k + 1 are siblings or neighbours across a cut (Orb.hpp). The hue wheel puts them a golden angle
    // apart, about 94 CIELAB units at the least; the ramp manages 45, and only 27 for k and k + 2 (cousins, often
    // neighbours too). 70 and 40 separate the two with room for either palette's rounding.
    EXPECT_GT(smallestDifference(BodyPalette::DomainHues, 1), 70.0f);
    EXPECT_GT(smallestDifference(BodyPalette::DomainHues, 2), 40.0f);
    EXPECT_LT(smallestDifference(BodyPalette::CoolWarm, 1), 70.0f) << "the ramp needs no replacing after all?";
    EXPECT_LT(smallestDifference(BodyPalette::CoolWarm, 2), 40.0f);
}

TEST(ColorPalettes, DomainHuesAreCyclicAndChannelsStayInRange) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (int i = 0; i < 1000; ++i) {
        const float t = unit(random);
        const glm::vec3 c = paletteColor(BodyPalette::DomainHues, t);
        EXPECT_LT(glm::length(c - paletteColor(BodyPalette::DomainHues, t + 1.0f)), 1e-4f) << t;
        for (int channel = 0; channel < 3; ++channel) {
            EXPECT_GE(c[channel], 0.0f);
            EXPECT_LE(c[channel], 1.0f);
        }
    }
}

TEST(ColorPalettes, OrbColoursOnlyWhileTheBackendHasDomains) {
    EXPECT_EQ(bodyPaletteFor(ColorMode::OrbDomain, true), BodyPalette::DomainHues);
    EXPECT_EQ(bodyPaletteFor(ColorMode::OrbDomain, false), BodyPalette::CoolWarm);
    EXPECT_EQ(bodyPaletteFor(ColorMode::Component, true), BodyPalette::CoolWarm);
    EXPECT_EQ(bodyPaletteFor(ColorMode::LeafDepth, true), BodyPalette::CoolWarm);
}

using ShaderPalettes = HeadlessGlTest;

TEST_F(ShaderPalettes, LightOfOneBodyIsThePaletteColourOfItsScalar) {
    // One 9-pixel sprite at the centre of a 9x9 float framebuffer: the centre pixel's light is palette(t) x brightness
    // x falloff, and the falloff is exactly 1 at the sprite's centre. Float storage and GL_ONE blending onto zero keep
    // it exact up to fp32 rounding (1e-5), so 1e-3 only allows for the GPU's cos.
    constexpr int kSide = 9;
    GlTexture texture = createTexture(GL_TEXTURE_2D);
    glTextureStorage2D(texture.id(), 1, GL_RGBA32F, kSide, kSide);
    GlFramebuffer framebuffer = createFramebuffer();
    glNamedFramebufferTexture(framebuffer.id(), GL_COLOR_ATTACHMENT0, texture.id(), 0);
    ASSERT_EQ(glCheckNamedFramebufferStatus(framebuffer.id(), GL_FRAMEBUFFER), GLenum(GL_FRAMEBUFFER_COMPLETE));
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer.id());
    glViewport(0, 0, kSide, kSide);

    ParticleView view; // identity matrices: the body at (0, 0, -0.5) lands in the middle of the viewport
    view.viewportHeight = float(kSide);
    const ParticleStyle style{10.0f, 1.0f, float(kSide), float(kSide)}; // huge world size, clamped to 9 pixels
    ParticleRenderer particles;
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    for (const BodyPalette palette : {BodyPalette::CoolWarm, BodyPalette::DomainHues}) {
        for (int i = 0; i < 12; ++i) {
            const bool unsampled = i == 11 && palette == BodyPalette::CoolWarm;
            const float t = i < 4       ? orbDomainColorScalar(std::uint32_t(i))
                            : unsampled ? kUnsampledColorScalar
                                        : unit(random);
            const RenderVertex body{0.0f, 0.0f, -0.5f, t};
            particles.upload(std::span(&body, 1));
            const float clear[4] = {0, 0, 0, 0};
            glClearNamedFramebufferfv(framebuffer.id(), GL_COLOR, 0, clear);
            particles.draw(view, style, palette);
            float light[4] = {};
            glReadPixels(kSide / 2, kSide / 2, 1, 1, GL_RGBA, GL_FLOAT, light);
            const glm::vec3 expected = paletteColor(palette, t);
            for (int channel = 0; channel < 3; ++channel)
                EXPECT_NEAR(light[channel], expected[channel], 1e-3f)
                    << "palette " << int(palette) << ", t = " << t << ", channel " << channel;
        }
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

} // namespace
} // namespace gravlab::test
