#pragma once
// A framebuffer object with an RGBA8 colour renderbuffer: where headless frames are drawn and read back from.
#include <gravlab/render/FramebufferReadback.hpp>
#include <gravlab/render/GlObjects.hpp>
#include <gravlab/render/Image.hpp>

namespace gravlab {

class OffscreenTarget {
public:
    /// width and height in pixels, each in [1, GL_MAX_RENDERBUFFER_SIZE]; throws when the framebuffer is incomplete.
    OffscreenTarget(int width, int height);

    GLuint framebuffer() const { return m_framebuffer.id(); }
    int width() const { return m_width; }
    int height() const { return m_height; }
    /// The current contents, top row first.
    ImageRgba8 readPixels() const { return m_readback.read(m_framebuffer.id(), m_width, m_height); }

private:
    int m_width;
    int m_height;
    GlRenderbuffer m_color;
    GlFramebuffer m_framebuffer;
    /// Scratch space of readPixels(), reused between reads; what the target shows does not depend on it.
    mutable FramebufferReadback m_readback;
};

} // namespace gravlab
