// Compiling and linking GLSL with errors that carry the driver's info log.
#include <gravlab/render/ShaderProgram.hpp>

#include <glm/gtc/type_ptr.hpp>
#include <vector>

namespace gravlab {

namespace {

// The info log of a shader or program; getParameter/getLog are glGetShaderiv/glGetShaderInfoLog or the program pair.
template <typename GetParameter, typename GetLog>
std::string infoLog(GLuint object, GetParameter getParameter, GetLog getLog) {
    GLint length = 0;
    getParameter(object, GL_INFO_LOG_LENGTH, &length);
    if (length <= 0)
        return "(the driver gave no info log)";
    std::string log(static_cast<std::size_t>(length), '\0');
    GLsizei written = 0;
    getLog(object, length, &written, log.data());
    log.resize(static_cast<std::size_t>(written));
    return log;
}

GlShader compileStage(const ShaderStageSource& source) {
    GlShader shader(glCreateShader(source.stage));
    if (!shader)
        throw ShaderBuildError(std::string(source.name) + ": OpenGL could not create a shader object");
    const char* code = source.code.data();
    const auto length = static_cast<GLint>(source.code.size());
    glShaderSource(shader.id(), 1, &code, &length);
    glCompileShader(shader.id());
    GLint compiled = GL_FALSE;
    glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &compiled);
    if (compiled != GL_TRUE)
        throw ShaderBuildError(std::string(source.name) + " failed to compile:\n" +
                               infoLog(shader.id(), glGetShaderiv, glGetShaderInfoLog));
    return shader;
}

} // namespace

ShaderProgram::ShaderProgram(std::string name, std::initializer_list<ShaderStageSource> stages)
    : m_name(std::move(name)) {
    std::vector<GlShader> compiled;
    for (const ShaderStageSource& stage : stages)
        compiled.push_back(compileStage(stage));

    m_program = GlProgram(glCreateProgram());
    if (!m_program)
        throw ShaderBuildError(m_name + ": OpenGL could not create a program object");
    for (const GlShader& shader : compiled)
        glAttachShader(m_program.id(), shader.id());
    glLinkProgram(m_program.id());
    // Detached shaders are freed with their handles; the linked program keeps its own binary.
    for (const GlShader& shader : compiled)
        glDetachShader(m_program.id(), shader.id());

    GLint linked = GL_FALSE;
    glGetProgramiv(m_program.id(), GL_LINK_STATUS, &linked);
    if (linked != GL_TRUE)
        throw ShaderBuildError("shader program '" + m_name + "' failed to link:\n" +
                               infoLog(m_program.id(), glGetProgramiv, glGetProgramInfoLog));
}

void ShaderProgram::use() const {
    glUseProgram(m_program.id());
}

GLint ShaderProgram::uniformLocation(std::string_view uniformName) const {
    const std::string nullTerminated(uniformName);
    const GLint location = glGetUniformLocation(m_program.id(), nullTerminated.c_str());
    if (location < 0)
        throw ShaderBuildError("shader program '" + m_name + "' has no active uniform '" + nullTerminated +
                               "' (misspelt, or unused and optimised away)");
    return location;
}

void ShaderProgram::setUniform(GLint location, float value) const {
    glProgramUniform1f(m_program.id(), location, value);
}

void ShaderProgram::setUniform(GLint location, int value) const {
    glProgramUniform1i(m_program.id(), location, value);
}

void ShaderProgram::setUniform(GLint location, const glm::vec2& value) const {
    glProgramUniform2f(m_program.id(), location, value.x, value.y);
}

void ShaderProgram::setUniform(GLint location, const glm::mat4& value) const {
    glProgramUniformMatrix4fv(m_program.id(), location, 1, GL_FALSE, glm::value_ptr(value));
}

} // namespace gravlab
