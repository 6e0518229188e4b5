// Creation of the GL objects owned by GlHandle, and GL error reporting for setup code.
#include <gravlab/render/GlObjects.hpp>

#include <stdexcept>
#include <string>

namespace gravlab {

namespace {

const char* glErrorName(GLenum error) {
    switch (error) {
    case GL_INVALID_ENUM:
        return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
        return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
        return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
        return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
        return "GL_OUT_OF_MEMORY (the GPU has no room for this buffer)";
    case GL_STACK_OVERFLOW:
        return "GL_STACK_OVERFLOW";
    case GL_STACK_UNDERFLOW:
        return "GL_STACK_UNDERFLOW";
    default:
        return "unknown GL error";
    }
}

template <typename Handle> Handle checkedCreate(GLuint id, const char* what) {
    if (id == 0)
        throw std::runtime_error(std::string("OpenGL could not create a ") + what + " (is a context current?)");
    return Handle(id);
}

/// One object from a glCreate* function of the (count, names) form.
template <typename Handle> Handle createOne(void(GLAD_API_PTR* glCreate)(GLsizei, GLuint*), const char* what) {
    GLuint id = 0;
    glCreate(1, &id);
    return checkedCreate<Handle>(id, what);
}

} // namespace

GlBuffer createBuffer() {
    return createOne<GlBuffer>(glCreateBuffers, "buffer");
}

GlVertexArray createVertexArray() {
    return createOne<GlVertexArray>(glCreateVertexArrays, "vertex array");
}

GlFramebuffer createFramebuffer() {
    return createOne<GlFramebuffer>(glCreateFramebuffers, "framebuffer");
}

GlRenderbuffer createRenderbuffer() {
    return createOne<GlRenderbuffer>(glCreateRenderbuffers, "renderbuffer");
}

GlTexture createTexture(GLenum target) {
    GLuint id = 0;
    glCreateTextures(target, 1, &id);
    return checkedCreate<GlTexture>(id, "texture");
}

void throwOnGlError(const char* operation) {
    const GLenum error = glGetError();
    if (error == GL_NO_ERROR)
        return;
    // Drain the remaining flags so the next check reports only new errors.
    while (glGetError() != GL_NO_ERROR) {
    }
    throw std::runtime_error(std::string(operation) + " failed: " + glErrorName(error));
}

} // namespace gravlab
