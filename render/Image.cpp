// Frame read-back and PNG output; the single translation unit that compiles stb_image_write.
#include <gravlab/render/Image.hpp>

#include <algorithm>
#include <stdexcept>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace gravlab {

ImageRgba8 readFramebufferRgba8(GLuint framebuffer, int width, int height) {
    ImageRgba8 image;
    image.width = width;
    image.height = height;
    const std::size_t rowBytes = static_cast<std::size_t>(width) * 4;
    image.pixels.resize(rowBytes * static_cast<std::size_t>(height));

    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());

    for (int row = 0; row < height / 2; ++row) {
        auto top = image.pixels.begin() + static_cast<std::ptrdiff_t>(row * rowBytes);
        auto bottom = image.pixels.begin() + static_cast<std::ptrdiff_t>((height - 1 - row) * rowBytes);
        std::swap_ranges(top, top + static_cast<std::ptrdiff_t>(rowBytes), bottom);
    }
    return image;
}

void writePng(const std::filesystem::path& path, const ImageRgba8& image) {
    const int stride = image.width * 4;
    if (stbi_write_png(path.c_str(), image.width, image.height, 4, image.pixels.data(), stride) == 0)
        throw std::runtime_error("could not write the PNG file " + path.string() +
                                 " (is the folder writable and the disk not full?)");
}

} // namespace gravlab
