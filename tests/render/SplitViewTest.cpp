// Drawing into part of a framebuffer (RenderTarget's offset), as the side-by-side comparison does: the picture in the
// right half is pixel for pixel the picture drawn alone into a target of the half's size, with its wireframe boxes,
// and the left half keeps what was there.
#include "RenderTestSupport.hpp"

#include <gravlab/render/OffscreenTarget.hpp>
#include <gravlab/render/SceneRenderer.hpp>

#include <random>

namespace gravlab::test {
namespace {

using SplitView = HeadlessGlTest;

/// Bodies and a box spread over the view, so both the particles and the overlay reach the half's edges.
void fillScene(SceneRenderer& renderer, std::mt19937_64& random) {
    std::uniform_real_distribution<float> coordinate(-2.5f, 2.5f);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::vector<RenderVertex> bodies;
    for (int i = 0; i < 40; ++i)
        bodies.push_back({coordinate(random), coordinate(random), coordinate(random), unit(random)});
    renderer.particles().upload(bodies);
    const OrbCell wide{{-3.0f, -1.0f, -1.0f}, {3.0f, 1.0f, 1.0f}, 0, 40, -1, -1, 0, 1}; // one leaf, drawn whole
    renderer.orbOverlay().upload(std::span<const OrbCell>(&wide, 1), false);
}

TEST_F(SplitView, TheRightHalfShowsThePictureOfATargetOfItsSizeAndTheLeftHalfIsUntouched) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const int halfWidth = 83, height = 61; // odd sizes catch an offset applied to one pass only
    SceneRenderer renderer;
    fillScene(renderer, random);
    OrbitCamera camera;
    camera.setDistance(7.0f);
    FrameLook look;
    look.particles = {0.35f, 3.0f, 4.0f, 10.0f};
    look.orbOverlay.opacity = 1.0f;

    const OffscreenTarget alone(halfWidth, height);
    renderer.render(camera, look, {alone.framebuffer(), halfWidth, height});
    const ImageRgba8 expected = alone.readPixels();

    const OffscreenTarget split(2 * halfWidth, height);
    const GLfloat marker[4] = {0.2f, 0.4f, 0.6f, 1.0f};
    glClearNamedFramebufferfv(split.framebuffer(), GL_COLOR, 0, marker);
    renderer.render(camera, look, {split.framebuffer(), halfWidth, height, halfWidth, 0});
    const ImageRgba8 image = split.readPixels();

    int litPixels = 0;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < halfWidth; ++x) {
            const std::uint8_t* left = image.pixel(x, y);
            ASSERT_EQ(left[0], 51) << "left half changed at " << x << ", " << y; // 0.2 * 255, rounded
            ASSERT_EQ(left[2], 153) << "left half changed at " << x << ", " << y;
            const std::uint8_t* right = image.pixel(halfWidth + x, y);
            const std::uint8_t* reference = expected.pixel(x, y);
            for (int channel = 0; channel < 3; ++channel)
                ASSERT_EQ(right[channel], reference[channel]) << "pixel " << x << ", " << y << " channel " << channel;
            litPixels += reference[0] + reference[1] + reference[2] > 0 ? 1 : 0;
        }
    }
    EXPECT_GT(litPixels, 100) << "the scene drew almost nothing, so the comparison shows little";
}

} // namespace
} // namespace gravlab::test
