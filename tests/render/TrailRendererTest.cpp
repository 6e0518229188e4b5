// Trails through TrailRenderer into an offscreen target: the line lies where the test's own projection puts it, its
// newest end is drawn brighter than its oldest, and nothing is lit away from it.
#include "RenderTestSupport.hpp"

#include <gravlab/render/OffscreenTarget.hpp>
#include <gravlab/render/SceneRenderer.hpp>
#include <gravlab/render/TrailRenderer.hpp>

namespace gravlab::test {
namespace {

using TrailRendering = HeadlessGlTest;

TEST(TrailFade, AlphaGrowsLinearlyToTheHead) {
    EXPECT_FLOAT_EQ(trailVertexAlpha(0, 4, 0.8f), 0.2f);
    EXPECT_FLOAT_EQ(trailVertexAlpha(3, 4, 0.8f), 0.8f);
    EXPECT_FLOAT_EQ(trailVertexAlpha(0, 0, 0.8f), 0.0f);
}

TEST_F(TrailRendering, TheLineFadesFromItsHeadToItsTail) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    const int width = 256, height = 192;
    // 65 samples along a straight segment through the target: oldest at tail, newest at head.
    const glm::vec3 tail(-1.0f, -0.5f, 0.2f), head(1.0f, 0.6f, -0.3f);
    // A camera that sees the segment nearly end-on projects it onto a few pixels, where the newer, brighter samples
    // cover the older ones (alpha blending over black keeps the last drawn): the fade cannot be read there. One seed
    // in a few hundred drew such a view. The test draws cameras until the segment spans at least 48 pixels, so the
    // 3x3 window around the point a tenth of the way along reaches no further than about 0.14 of the way (2 pixels):
    // 400 seeds then measured a tail of 31 to 40 and a head of 245 or more.
    ParticleView view;
    std::optional<glm::vec2> oldestPixel, headPixel;
    for (int attempt = 0;; ++attempt) {
        ASSERT_LT(attempt, 1000) << "no random camera saw the segment side-on";
        view = particleViewFor(randomCameraAtEightUnits(random), width, height);
        oldestPixel = projectToPixel(view.view, view.projection, tail, width, height);
        headPixel = projectToPixel(view.view, view.projection, head, width, height);
        if (oldestPixel && headPixel && glm::distance(*oldestPixel, *headPixel) >= 48.0f)
            break;
    }
    const OffscreenTarget target(width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, target.framebuffer());
    glViewport(0, 0, width, height);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);

    std::vector<BodyPosition> points;
    for (int k = 0; k <= 64; ++k) {
        const glm::vec3 p = glm::mix(tail, head, float(k) / 64.0f);
        points.push_back({p.x, p.y, p.z});
    }
    const TrailStrip strip{points, glm::vec4(1.0f, 1.0f, 1.0f, 1.0f)};
    TrailRenderer renderer;
    renderer.draw(std::span(&strip, 1), view.projection * view.view);
    const ImageRgba8 image = target.readPixels();

    const std::optional<glm::vec2> tailPixel =
        projectToPixel(view.view, view.projection, glm::mix(tail, head, 0.1f), width, height);
    ASSERT_TRUE(tailPixel);
    const int headBrightness = brightestAround(image, *headPixel)[0];
    const int tailBrightness = brightestAround(image, *tailPixel)[0];
    RecordProperty("head_brightness", headBrightness);
    RecordProperty("tail_brightness", tailBrightness);
    // Alpha 1 at the head over black gives about 255; a tenth of the way from the tail, about 0.1 of it.
    EXPECT_GT(headBrightness, 200);
    EXPECT_LT(tailBrightness, 80);
    EXPECT_GT(tailBrightness, 5);
    const Segment whole{*oldestPixel, *headPixel};
    for (int y = 0; y < height; y += 3)
        for (int x = 0; x < width; x += 3) {
            const glm::vec2 pixel(float(x) + 0.5f, float(y) + 0.5f);
            if (distanceToSegment(pixel, whole) > 3.0f) {
                ASSERT_EQ(image.pixel(x, y)[0], 0) << "lit away from the trail at " << x << ", " << y;
            }
        }
}

} // namespace
} // namespace gravlab::test
