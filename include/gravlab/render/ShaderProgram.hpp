#pragma once
// A linked GLSL program built from embedded shader sources.
//
// Design note: shaders are real files in shaders/, embedded at build time (gravlab::shaders::<stem>_<ext>). A compile
// or link failure throws ShaderBuildError carrying the shader's name and the driver's info log, so a typo in a .frag
// file reads as "particles.frag: 0:12(3): error: ..." instead of a black screen. Uniform locations are looked up once,
// by name, and an unknown name throws: a renamed uniform is caught at start-up rather than silently ignored.
#include <gravlab/render/GlObjects.hpp>

#include <glm/glm.hpp>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gravlab {

class ShaderBuildError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ShaderStageSource {
    std::string_view name; ///< file name, for error messages ("particles.vert")
    GLenum stage;          ///< GL_VERTEX_SHADER, GL_FRAGMENT_SHADER, ...
    std::string_view code;
};

class ShaderProgram {
public:
    /// Compiles every stage and links them; throws ShaderBuildError with the name and info log on failure.
    ShaderProgram(std::string name, std::initializer_list<ShaderStageSource> stages);

    GLuint id() const { return m_program.id(); }
    const std::string& name() const { return m_name; }
    void use() const;
    /// Location of an active uniform; throws ShaderBuildError when the program has no such active uniform.
    GLint uniformLocation(std::string_view uniformName) const;

    void setUniform(GLint location, float value) const;
    void setUniform(GLint location, int value) const;
    void setUniform(GLint location, const glm::vec2& value) const;
    void setUniform(GLint location, const glm::mat4& value) const;

private:
    std::string m_name;
    GlProgram m_program;
};

} // namespace gravlab
