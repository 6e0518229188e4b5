// HDR light accumulation buffer and the exposure tone-mapping pass.
#include <gravlab/EmbeddedShaders.hpp>
#include <gravlab/render/ToneMapper.hpp>

#include <stdexcept>
#include <string>

namespace gravlab {

ToneMapper::ToneMapper()
    : m_program("tonemap", {{"tonemap.vert", GL_VERTEX_SHADER, shaders::tonemap_vert},
                            {"tonemap.frag", GL_FRAGMENT_SHADER, shaders::tonemap_frag}}),
      m_exposureLocation(m_program.uniformLocation("u_exposure")),
      m_originLocation(m_program.uniformLocation("u_origin")),
      m_lightBufferProgram("light_buffer", {{"tonemap.vert", GL_VERTEX_SHADER, shaders::tonemap_vert},
                                            {"light_buffer.frag", GL_FRAGMENT_SHADER, shaders::light_buffer_frag}}),
      m_lightBufferWidthLocation(m_lightBufferProgram.uniformLocation("u_width")),
      m_emptyVertexArray(createVertexArray()) {}

void ToneMapper::resize(int width, int height) {
    if (width == m_width && height == m_height && m_hdrFramebuffer)
        return;
    // Immutable texture storage cannot change size, so a new texture replaces the old one.
    m_hdrColor = createTexture(GL_TEXTURE_2D);
    glTextureStorage2D(m_hdrColor.id(), 1, GL_RGBA16F, width, height);
    glTextureParameteri(m_hdrColor.id(), GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(m_hdrColor.id(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    if (!m_hdrFramebuffer)
        m_hdrFramebuffer = createFramebuffer();
    glNamedFramebufferTexture(m_hdrFramebuffer.id(), GL_COLOR_ATTACHMENT0, m_hdrColor.id(), 0);
    throwOnGlError("allocating the HDR light buffer");
    const GLenum status = glCheckNamedFramebufferStatus(m_hdrFramebuffer.id(), GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw std::runtime_error("the HDR light buffer (RGBA16F) is incomplete (glCheckFramebufferStatus returned " +
                                 std::to_string(status) + ")");
    m_width = width;
    m_height = height;
}

void ToneMapper::beginFrame(int width, int height) {
    resize(width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, m_hdrFramebuffer.id());
    glViewport(0, 0, width, height);
    const GLfloat black[4] = {0, 0, 0, 0};
    glClearNamedFramebufferfv(m_hdrFramebuffer.id(), GL_COLOR, 0, black);
}

void ToneMapper::addLight(GLuint lightBuffer) {
    glEnable(GL_BLEND);
    glBlendEquation(GL_FUNC_ADD);
    glBlendFunc(GL_ONE, GL_ONE);
    glDisable(GL_DEPTH_TEST);
    m_lightBufferProgram.use();
    m_lightBufferProgram.setUniform(m_lightBufferWidthLocation, m_width);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, lightBuffer);
    glBindVertexArray(m_emptyVertexArray.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
}

void ToneMapper::resolve(GLuint targetFramebuffer, glm::ivec2 origin, float exposure) {
    glBindFramebuffer(GL_FRAMEBUFFER, targetFramebuffer);
    glViewport(origin.x, origin.y, m_width, m_height);
    glDisable(GL_BLEND);
    glDisable(GL_DEPTH_TEST);
    m_program.use();
    m_program.setUniform(m_exposureLocation, exposure);
    glProgramUniform2i(m_program.id(), m_originLocation, origin.x, origin.y);
    glBindTextureUnit(0, m_hdrColor.id());
    glBindVertexArray(m_emptyVertexArray.id());
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

} // namespace gravlab
