#pragma once
// High-dynamic-range accumulation of particle light and its mapping to displayable colours.
//
// Design note: a million additive sprites overflow an 8-bit buffer in a galaxy's core while a thousand leave it dim.
// Particles therefore add into an RGBA16F texture, where sums are not clamped, and a full-screen pass maps that
// light L to 1 - exp(-exposure * L): linear for faint outskirts, smoothly saturating in dense cores, and exactly
// black where no particle landed; a 1/2.2 display gamma follows, since PNG viewers and windows show sRGB. The HDR
// texture follows the viewport size. Light splatted by CUDA arrives in a buffer and is added by a full-screen pass.
#include <gravlab/render/GlObjects.hpp>
#include <gravlab/render/ShaderProgram.hpp>

#include <glm/vec2.hpp>

namespace gravlab {

class ToneMapper {
public:
    ToneMapper();

    /// Binds the HDR buffer, sized to width x height pixels, with a black clear and viewport set; draw light next.
    void beginFrame(int width, int height);
    /// Adds light splatted elsewhere (DeviceParticleLight) into the HDR buffer bound by beginFrame(): lightBuffer
    /// holds one RGBA32F texel per pixel of the frame, row 0 at the bottom.
    void addLight(GLuint lightBuffer);
    /// Writes the mapped image into targetFramebuffer (0: the window) with its lower-left corner at origin (pixels),
    /// and leaves that rectangle as the viewport; the framebuffer must reach at least origin + the frame's size.
    void resolve(GLuint targetFramebuffer, glm::ivec2 origin, float exposure);

private:
    void resize(int width, int height);

    ShaderProgram m_program;
    GLint m_exposureLocation;
    GLint m_originLocation;
    ShaderProgram m_lightBufferProgram;
    GLint m_lightBufferWidthLocation;
    GlVertexArray m_emptyVertexArray; ///< core profile draws need a bound vertex array even without attributes
    GlTexture m_hdrColor;
    GlFramebuffer m_hdrFramebuffer;
    int m_width = 0;
    int m_height = 0;
};

} // namespace gravlab
