// Frame read-back through a pixel buffer object, rows turned top first in the one copy out (see
// FramebufferReadback.hpp).
#include <gravlab/render/FramebufferReadback.hpp>

#include <cstring>
#include <stdexcept>
#include <string>

namespace gravlab {

ImageRgba8 FramebufferReadback::read(GLuint framebuffer, int width, int height) {
    if (width < 1 || height < 1)
        throw std::invalid_argument("cannot read back a " + std::to_string(width) + "x" + std::to_string(height) +
                                    " image");
    const std::size_t rowBytes = static_cast<std::size_t>(width) * 4;
    const std::size_t byteCount = rowBytes * static_cast<std::size_t>(height);
    if (!m_pixelBuffer || m_capacity < byteCount) {
        m_pixelBuffer = createBuffer();
        glNamedBufferData(m_pixelBuffer.id(), static_cast<GLsizeiptr>(byteCount), nullptr, GL_STREAM_READ);
        throwOnGlError("allocating the read-back buffer");
        m_capacity = byteCount;
    }

    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, m_pixelBuffer.id());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);

    const auto* mapped = static_cast<const std::uint8_t*>(
        glMapNamedBufferRange(m_pixelBuffer.id(), 0, static_cast<GLsizeiptr>(byteCount), GL_MAP_READ_BIT));
    if (mapped == nullptr) {
        throwOnGlError("mapping the read-back buffer");
        throw std::runtime_error("mapping the read-back buffer failed without a GL error");
    }

    ImageRgba8 image;
    image.width = width;
    image.height = height;
    image.pixels.resize(byteCount);
    for (int row = 0; row < height; ++row)
        std::memcpy(image.pixels.data() + static_cast<std::size_t>(row) * rowBytes,
                    mapped + static_cast<std::size_t>(height - 1 - row) * rowBytes, rowBytes);
    // GL_FALSE means the buffer's contents were lost while mapped (a display mode change); the copy is then unreliable.
    if (glUnmapNamedBuffer(m_pixelBuffer.id()) == GL_FALSE)
        throw std::runtime_error("the read-back buffer's contents were lost while it was mapped");
    return image;
}

} // namespace gravlab
