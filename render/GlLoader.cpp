// glad loading and the OpenGL version check shared by the window and headless contexts.
#include "GlLoader.hpp"

#include <stdexcept>

namespace gravlab {

namespace {

std::string glString(GLenum name) {
    const auto* text = reinterpret_cast<const char*>(glGetString(name));
    return text != nullptr ? text : "unknown";
}

} // namespace

void loadOpenGlFunctions(GLADloadfunc loader, std::string_view contextName) {
    const int version = gladLoadGL(loader);
    if (version == 0)
        throw std::runtime_error(std::string(contextName) + ": could not load any OpenGL functions");
    const int major = GLAD_VERSION_MAJOR(version);
    const int minor = GLAD_VERSION_MINOR(version);
    if (major < 4 || (major == 4 && minor < 5))
        throw std::runtime_error(std::string(contextName) + " provides OpenGL " + std::to_string(major) + "." +
                                 std::to_string(minor) + " (" + glString(GL_RENDERER) +
                                 "), but Gravlab needs OpenGL 4.5 core");
}

std::string describeCurrentGlContext() {
    return glString(GL_RENDERER) + ", OpenGL " + glString(GL_VERSION);
}

} // namespace gravlab
