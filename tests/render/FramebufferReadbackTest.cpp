// Frame read-back through the pixel buffer: rows come out top first and every pixel is where GL put it, for one reader
// reused across framebuffers that grow and shrink (its buffer is reallocated only to grow). The reference is the
// scissor rectangle each framebuffer was cleared with, in GL's bottom-up coordinates.
#include "RenderTestSupport.hpp"

#include <gravlab/render/FramebufferReadback.hpp>
#include <gravlab/render/OffscreenTarget.hpp>

#include <random>

namespace gravlab::test {
namespace {

using FramebufferReadbackTest = HeadlessGlTest;

struct Rectangle {
    int x, y, width, height; ///< GL window coordinates: y counts rows from the bottom
};

/// Clears target to background, then the rectangle to its colour.
void paint(const OffscreenTarget& target, const std::array<float, 4>& background, const Rectangle& rectangle,
           const std::array<float, 4>& colour) {
    glClearNamedFramebufferfv(target.framebuffer(), GL_COLOR, 0, background.data());
    glEnable(GL_SCISSOR_TEST);
    glScissor(rectangle.x, rectangle.y, rectangle.width, rectangle.height);
    glClearNamedFramebufferfv(target.framebuffer(), GL_COLOR, 0, colour.data());
    glDisable(GL_SCISSOR_TEST);
}

std::uint8_t toByte(float value) {
    return static_cast<std::uint8_t>(value * 255.0f + 0.5f);
}

TEST_F(FramebufferReadbackTest, RowsComeOutTopFirstForGrowingAndShrinkingFramebuffers) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<int> level(0, 255);
    const auto randomColour = [&] {
        return std::array<float, 4>{level(random) / 255.0f, level(random) / 255.0f, level(random) / 255.0f,
                                    level(random) / 255.0f};
    };
    FramebufferReadback readback;
    // Odd widths catch a row stride taken as aligned; the sizes grow, then shrink, then grow again.
    for (const auto& [width, height] : std::vector<std::pair<int, int>>{{37, 21}, {203, 117}, {18, 65}, {301, 9}}) {
        SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height));
        const OffscreenTarget target(width, height);
        const int left = std::uniform_int_distribution<int>(0, width - 2)(random);
        const int bottom = std::uniform_int_distribution<int>(0, height - 2)(random);
        const Rectangle painted{left, bottom, std::uniform_int_distribution<int>(1, width - left)(random),
                                std::uniform_int_distribution<int>(1, height - bottom)(random)};
        const std::array<float, 4> background = randomColour(), colour = randomColour();
        paint(target, background, painted, colour);

        const ImageRgba8 image = readback.read(target.framebuffer(), width, height);
        ASSERT_EQ(image.width, width);
        ASSERT_EQ(image.height, height);
        ASSERT_EQ(image.pixels.size(), static_cast<std::size_t>(width) * height * 4);
        int wrong = 0;
        for (int row = 0; row < height; ++row) {
            const int glY = height - 1 - row; // image rows go down, GL's go up
            for (int x = 0; x < width; ++x) {
                const bool inside = x >= painted.x && x < painted.x + painted.width && glY >= painted.y &&
                                    glY < painted.y + painted.height;
                const std::array<float, 4>& expected = inside ? colour : background;
                for (int c = 0; c < 4; ++c)
                    wrong += image.pixel(x, row)[c] != toByte(expected[c]);
            }
        }
        EXPECT_EQ(wrong, 0) << "channels differing from the painted rectangle";
    }
}

} // namespace
} // namespace gravlab::test
