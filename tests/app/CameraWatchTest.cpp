// The dark-frame detector on synthetic images, and the bulk-left-the-view test on hand-placed bounds.
#include "CameraWatch.hpp"

#include <gtest/gtest.h>

namespace gravlab {
namespace {

ImageRgba8 blackImage(int width, int height) {
    ImageRgba8 image{width, height, {}};
    image.pixels.assign(static_cast<std::size_t>(width * height) * 4, 0);
    for (std::size_t i = 3; i < image.pixels.size(); i += 4)
        image.pixels[i] = 255; // opaque black: alpha is not light
    return image;
}

TEST(CameraWatch, AllBackgroundIsDark) {
    EXPECT_FALSE(hasLitPixel(blackImage(32, 16)));
}

TEST(CameraWatch, BackgroundNoiseBelowTheThresholdIsDark) {
    ImageRgba8 image = blackImage(32, 16);
    image.pixels[4 * 100 + 1] = kLitThreshold;
    EXPECT_FALSE(hasLitPixel(image));
}

TEST(CameraWatch, OneLitPixelIsLit) {
    ImageRgba8 image = blackImage(32, 16);
    image.pixels[(16 * 32 - 1) * 4 + 2] = 200; // the last pixel's blue
    EXPECT_TRUE(hasLitPixel(image));
}

TEST(CameraWatch, FittedBoundsStayInView) {
    OrbitCamera camera;
    const SceneBounds bounds{{1.0f, 2.0f, 3.0f}, 5.0f};
    camera.fit(bounds, 16.0f / 9.0f);
    EXPECT_NEAR(framedRadius(camera, 16.0f / 9.0f), 5.0f, 1e-3f);
    EXPECT_FALSE(bulkLeftView(camera, 16.0f / 9.0f, bounds));
}

TEST(CameraWatch, BulkMovedAwayGrownOrShrunkHasLeft) {
    OrbitCamera camera;
    camera.fit({{0.0f, 0.0f, 0.0f}, 1.0f}, 1.0f);
    // Far to the side, well outside a 45 degree field of view.
    EXPECT_TRUE(bulkLeftView(camera, 1.0f, {{100.0f, 0.0f, 0.0f}, 1.0f}));
    EXPECT_TRUE(bulkLeftView(camera, 1.0f, {{0.0f, 0.0f, 0.0f}, 2.5f}));
    EXPECT_TRUE(bulkLeftView(camera, 1.0f, {{0.0f, 0.0f, 0.0f}, 0.1f}));
    EXPECT_FALSE(bulkLeftView(camera, 1.0f, {{0.2f, 0.0f, 0.0f}, 1.5f}));
}

} // namespace
} // namespace gravlab
