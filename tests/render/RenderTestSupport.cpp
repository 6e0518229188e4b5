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
