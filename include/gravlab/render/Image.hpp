#pragma once
// Reading rendered frames back from GL and writing them as PNG files.
//
// Design note: OpenGL's first row is the bottom of the image, PNG's first row is the top; readFramebufferRgba8 flips
// once so every ImageRgba8 in Gravlab is stored top row first. PNG encoding is stb_image_write, whose implementation
// is compiled in Image.cpp and nowhere else.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <glad/gl.h>
#include <vector>

namespace gravlab {

struct ImageRgba8 {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels; ///< width * height * 4 bytes, rows top to bottom, RGBA

    const std::uint8_t* pixel(int x, int y) const {
        return pixels.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + x) * 4;
    }
};

/// Reads the colour attachment of framebuffer (0 for the default one) as RGBA8, top row first.
ImageRgba8 readFramebufferRgba8(GLuint framebuffer, int width, int height);

/// Writes image as a PNG file; throws std::runtime_error naming the path when it cannot be written.
void writePng(const std::filesystem::path& path, const ImageRgba8& image);

} // namespace gravlab
