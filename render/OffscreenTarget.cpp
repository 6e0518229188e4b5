// An RGBA8 framebuffer object for headless rendering.
#include <gravlab/render/OffscreenTarget.hpp>

#include <stdexcept>
#include <string>

namespace gravlab {

OffscreenTarget::OffscreenTarget(int width, int height)
    : m_width(width), m_height(height), m_color(createRenderbuffer()), m_framebuffer(createFramebuffer()) {
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
    if (width < 1 || height < 1 || width > maxSize || height > maxSize)
        throw std::invalid_argument("offscreen image size " + std::to_string(width) + "x" + std::to_string(height) +
                                    " is not supported: each side must be 1.." + std::to_string(maxSize) +
                                    " pixels on this GPU");
    glNamedRenderbufferStorage(m_color.id(), GL_RGBA8, width, height);
    glNamedFramebufferRenderbuffer(m_framebuffer.id(), GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_color.id());
    throwOnGlError("allocating the offscreen framebuffer");
    const GLenum status = glCheckNamedFramebufferStatus(m_framebuffer.id(), GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw std::runtime_error("the offscreen framebuffer is incomplete (glCheckFramebufferStatus returned " +
                                 std::to_string(status) + ")");
}

} // namespace gravlab
