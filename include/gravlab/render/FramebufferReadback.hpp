#pragma once
// Reading a rendered frame back from GL into an ImageRgba8, top row first.
//
// Design note: glReadPixels writes into a pixel buffer object owned here and reused from frame to frame, which is then
// mapped and copied out once; GL's first row is the bottom of the image, so the copy takes the rows in reverse order
// and the flip costs nothing beyond the copy that is needed anyway (reading into client memory and then swapping rows
// touched every byte twice). Consumers, the PNG writers and the movie encoder, therefore all get top-first rows and
// ffmpeg needs no flip filter. It owns a GL object, so a context must be current for its whole life.
#include <gravlab/render/GlObjects.hpp>
#include <gravlab/render/Image.hpp>

#include <cstddef>

namespace gravlab {

class FramebufferReadback {
public:
    /// The colour buffer of framebuffer (0: the default framebuffer, whose back buffer is read before the swap) from
    /// its lower left corner, width x height pixels, as RGBA8 with the top row first.
    ImageRgba8 read(GLuint framebuffer, int width, int height);

private:
    GlBuffer m_pixelBuffer;
    std::size_t m_capacity = 0; ///< bytes m_pixelBuffer holds
};

} // namespace gravlab
