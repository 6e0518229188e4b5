// Render test helpers; the single translation unit of the tests that compiles stb_image.
#include "RenderTestSupport.hpp"

#include <algorithm>
#include <iostream>

#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

namespace gravlab::test {

void HeadlessGlTest::SetUp() {
    try {
        m_context = std::make_unique<HeadlessContext>();
    } catch (const EglError& error) {
        GTEST_SKIP() << "no EGL display can create an OpenGL 4.5 core context here: " << error.what();
    }
    static bool reported = false;
    if (!reported) {
        std::cout << "[ headless ] " << m_context->description() << '\n';
        reported = true;
    }
}

void HeadlessGlTest::TearDown() {
    m_context.reset();
}

std::optional<glm::vec2> projectToPixel(const glm::mat4& view, const glm::mat4& projection, const glm::vec3& point,
                                        int width, int height) {
    const glm::vec4 clip = projection * view * glm::vec4(point, 1.0f);
    if (clip.w <= 0.0f)
        return std::nullopt;
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    // NDC y points up, image rows go down.
    return glm::vec2((ndc.x + 1.0f) * 0.5f * static_cast<float>(width),
                     (1.0f - ndc.y) * 0.5f * static_cast<float>(height));
}

std::vector<Segment> projectedBoxEdges(const glm::vec3& lower, const glm::vec3& upper, const OrbitCamera& camera,
                                       int width, int height) {
    const glm::mat4 view = camera.viewMatrix();
    const glm::mat4 projection = camera.projectionMatrix(float(width) / float(height));
    std::array<glm::vec2, 8> corners{};
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? upper.x : lower.x, (i & 2) ? upper.y : lower.y, (i & 4) ? upper.z : lower.z);
        const auto pixel = projectToPixel(view, projection, corner, width, height);
        EXPECT_TRUE(pixel && pixel->x > 2 && pixel->y > 2 && pixel->x < width - 2 && pixel->y < height - 2)
            << "corner " << i << " of the test box is not well inside the image: the set-up is broken";
        corners[i] = pixel.value_or(glm::vec2(0.0f));
    }
    std::vector<Segment> edges;
    for (int i = 0; i < 8; ++i)
        for (const int axisBit : {1, 2, 4})
            if ((i & axisBit) == 0) // corners differing in exactly one bit share an edge
                edges.push_back({corners[i], corners[i | axisBit]});
    return edges;
}

float distanceToSegment(const glm::vec2& p, const Segment& s) {
    const glm::vec2 along = s.b - s.a;
    const float t = std::clamp(glm::dot(p - s.a, along) / std::max(glm::dot(along, along), 1e-12f), 0.0f, 1.0f);
    return glm::length(p - (s.a + t * along));
}

std::array<int, 3> brightestAround(const ImageRgba8& image, const glm::vec2& pixel) {
    std::array<int, 3> best{0, 0, 0};
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            const int x = std::clamp(int(pixel.x) + dx, 0, image.width - 1);
            const int y = std::clamp(int(pixel.y) + dy, 0, image.height - 1);
            const std::uint8_t* p = image.pixel(x, y);
            if (std::max({p[0], p[1], p[2]}) > std::max({best[0], best[1], best[2]}))
                best = {p[0], p[1], p[2]};
        }
    }
    return best;
}

int LoadedImage::brightness(int x, int y) const {
    const std::uint8_t* p = rgba.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + x) * 4;
    return std::max({int{p[0]}, int{p[1]}, int{p[2]}});
}

LoadedImage loadPng(const std::filesystem::path& path) {
    LoadedImage image;
    int channels = 0;
    stbi_uc* data = stbi_load(path.c_str(), &image.width, &image.height, &channels, 4);
    EXPECT_NE(data, nullptr) << "stb_image could not read " << path << ": " << stbi_failure_reason();
    if (data == nullptr)
        return image;
    image.rgba.assign(data, data + static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4);
    stbi_image_free(data);
    return image;
}

} // namespace gravlab::test
