// Headless rendering through EGL: the real frame path (SceneRenderer into an OffscreenTarget, written as PNG) is
// checked against projections computed in the test from the camera matrices: light where bodies land, black sky
// everywhere else, the requested size, and rows in top-to-bottom order.
#include "RenderTestSupport.hpp"

#include <gravlab/render/Image.hpp>
#include <gravlab/render/OffscreenTarget.hpp>
#include <gravlab/render/SceneRenderer.hpp>

#include <random>

namespace gravlab::test {
namespace {

using HeadlessRender = HeadlessGlTest;

struct RenderedScene {
    std::vector<RenderVertex> bodies;
    OrbitCamera camera;
    FrameLook look;
};

/// Renders scene at width x height through the real path, writes the PNG, and reads it back with stb_image.
LoadedImage renderThroughPng(const RenderedScene& scene, int width, int height, const std::filesystem::path& png) {
    SceneRenderer renderer;
    renderer.particles().upload(scene.bodies);
    const OffscreenTarget target(width, height);
    renderer.render(scene.camera, scene.look, {target.framebuffer(), width, height});
    writePng(png, target.readPixels());
    return loadPng(png);
}

RenderedScene randomScene(std::mt19937_64& random, std::size_t bodyCount) {
    std::uniform_real_distribution<float> coordinate(-1.5f, 1.5f);
    std::uniform_real_distribution<float> unit(0.0f, 1.0f);
    std::uniform_real_distribution<float> angle(-3.0f, 3.0f);
    std::uniform_real_distribution<float> pitch(-1.2f, 1.2f);
    RenderedScene scene;
    for (std::size_t i = 0; i < bodyCount; ++i)
        scene.bodies.push_back({coordinate(random), coordinate(random), coordinate(random), unit(random)});
    scene.camera.setAngles(angle(random), pitch(random));
    scene.camera.setDistance(7.0f);
    // For images 97..400 pixels tall and bodies 4.4..9.6 units from the eye, a sprite of 0.35 units projects to
    // 4.3..38 pixels: never below minPixelSize (so never dimmed), and capped at 10 pixels.
    scene.look.particles = {0.35f, 3.0f, 4.0f, 10.0f};
    return scene;
}

TEST_F(HeadlessRender, PngHasTheRequestedSizeLightWhereBodiesProjectAndBlackSkyElsewhere) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    const TemporaryFolder folder;
    // Odd sizes catch row-alignment and flipping mistakes that even sizes can hide.
    std::uniform_int_distribution<int> side(97, 400);
    const int width = side(random), height = side(random);
    SCOPED_TRACE("size " + std::to_string(width) + "x" + std::to_string(height));
    const RenderedScene scene = randomScene(random, 12);

    const LoadedImage image = renderThroughPng(scene, width, height, folder.path() / "scene.png");
    ASSERT_EQ(image.width, width);
    ASSERT_EQ(image.height, height);

    const float aspect = float(width) / float(height);
    std::vector<glm::vec2> projected;
    for (const RenderVertex& body : scene.bodies) {
        const auto pixel = projectToPixel(scene.camera.viewMatrix(), scene.camera.projectionMatrix(aspect),
                                          {body.x, body.y, body.z}, width, height);
        ASSERT_TRUE(pixel.has_value()) << "every body lies in front of a camera 7 units away";
        projected.push_back(*pixel);
    }
    // A sprite covers at most maxPixelSize / 2 pixels around its centre; 2 more absorb rasterisation rounding.
    const float sky = 0.5f * scene.look.particles.maxPixelSize + 2.0f;
    int litChecked = 0, skyChecked = 0;
    for (const glm::vec2& pixel : projected) {
        const int x = int(pixel.x), y = int(pixel.y);
        if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
            continue; // centre off-screen: nothing to check at it
        // The sampled pixel is within sqrt(2) pixels of a sprite >= 4 pixels wide, where the falloff (1 - r^2)^2 is
        // >= 1/4; the palette's brightest channel is 1, so light >= 3/4, 1 - exp(-0.75) = 0.53 after tone mapping
        // and 0.53^(1/2.2) = 0.75 after display gamma, i.e. > 190/255.
        EXPECT_GT(image.brightness(x, y), 100) << "no light at body projected to (" << x << ", " << y << ")";
        ++litChecked;
    }
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const glm::vec2 centre(x + 0.5f, y + 0.5f);
            bool nearBody = false;
            for (const glm::vec2& pixel : projected)
                nearBody = nearBody || glm::length(centre - pixel) < sky;
            if (nearBody)
                continue;
            // Tone mapping maps zero light to exactly zero; allow one step of 8-bit rounding.
            ASSERT_LE(image.brightness(x, y), 1) << "light in empty sky at (" << x << ", " << y << ")";
            ++skyChecked;
        }
    }
    EXPECT_GT(litChecked, 0) << "no body projected inside the image: the scene or camera set-up is broken";
    EXPECT_GT(skyChecked, width * height / 4);
}

TEST_F(HeadlessRender, ColourScalarRunsFromCoolToWarm) {
    RenderedScene scene;
    scene.camera.setTarget({0.0f, 0.0f, 0.0f});
    scene.camera.setAngles(glm::radians(-90.0f), 0.0f); // eye on -y looking at +y: world x runs left to right
    scene.camera.setDistance(5.0f);
    scene.bodies = {{-1.0f, 0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f, 1.0f}};
    // Sprites of about 7 pixels, dim enough (light 0.6 at the centre) that tone mapping keeps the hue.
    scene.look.particles = {0.3f, 0.6f, 2.0f, 16.0f};
    const TemporaryFolder folder;
    const LoadedImage image = renderThroughPng(scene, 200, 100, folder.path() / "colours.png");
    ASSERT_EQ(image.width, 200);

    const glm::mat4 projection = scene.camera.projectionMatrix(2.0f);
    const auto left = projectToPixel(scene.camera.viewMatrix(), projection, {-1, 0, 0}, 200, 100);
    const auto right = projectToPixel(scene.camera.viewMatrix(), projection, {1, 0, 0}, 200, 100);
    ASSERT_TRUE(left && right);
    ASSERT_LT(left->x, right->x);
    const std::uint8_t* cool = image.rgba.data() + (std::size_t(left->y) * 200 + std::size_t(left->x)) * 4;
    const std::uint8_t* warm = image.rgba.data() + (std::size_t(right->y) * 200 + std::size_t(right->x)) * 4;
    // The palette's ends: blue/red = 1 / 0.4 for 0 and red/blue = 1 / 0.22 for 1 in light. Tone mapping at light
    // <= 0.6 and the 1/2.2 display gamma shrink these ratios to about 1.4 and 1.8; 1.2 and 1.4 leave room for the
    // sprite falloff at the sampled pixel, while a swapped or grey palette gives ratios <= 1.
    EXPECT_GT(cool[2], 1.2 * cool[0]) << "colorScalar 0 should be blue";
    EXPECT_GT(warm[0], 1.4 * warm[2]) << "colorScalar 1 should be orange";
    EXPECT_GT(cool[2], 60) << "the cool body is too dim to judge its hue";
    EXPECT_GT(warm[0], 60) << "the warm body is too dim to judge its hue";
}

} // namespace
} // namespace gravlab::test
