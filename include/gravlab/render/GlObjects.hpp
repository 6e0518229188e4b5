#pragma once
// Move-only owners of OpenGL object names.
//
// Design note: every GL object has exactly one owner, a GlHandle<Traits>, which deletes the name when it dies. The
// traits say how to delete one kind of object; creation goes through the create* functions below (DSA, GL 4.5), so a
// handle is either empty (id 0) or owns a live object. Handles must be destroyed while their context is current:
// whoever owns both the context and GL objects declares the context first so it is destroyed last.
#include <glad/gl.h>
#include <utility>

namespace gravlab {

template <typename Traits> class GlHandle {
public:
    GlHandle() = default;
    explicit GlHandle(GLuint id) : m_id(id) {}
    ~GlHandle() { reset(); }

    GlHandle(const GlHandle&) = delete;
    GlHandle& operator=(const GlHandle&) = delete;
    GlHandle(GlHandle&& other) noexcept : m_id(std::exchange(other.m_id, 0)) {}
    GlHandle& operator=(GlHandle&& other) noexcept {
        if (this != &other) {
            reset();
            m_id = std::exchange(other.m_id, 0);
        }
        return *this;
    }

    GLuint id() const { return m_id; }
    explicit operator bool() const { return m_id != 0; }
    void reset() {
        if (m_id != 0)
            Traits::destroy(m_id);
        m_id = 0;
    }

private:
    GLuint m_id = 0;
};

struct GlBufferTraits {
    static void destroy(GLuint id) { glDeleteBuffers(1, &id); }
};
struct GlVertexArrayTraits {
    static void destroy(GLuint id) { glDeleteVertexArrays(1, &id); }
};
struct GlFramebufferTraits {
    static void destroy(GLuint id) { glDeleteFramebuffers(1, &id); }
};
struct GlRenderbufferTraits {
    static void destroy(GLuint id) { glDeleteRenderbuffers(1, &id); }
};
struct GlTextureTraits {
    static void destroy(GLuint id) { glDeleteTextures(1, &id); }
};
struct GlShaderTraits {
    static void destroy(GLuint id) { glDeleteShader(id); }
};
struct GlProgramTraits {
    static void destroy(GLuint id) { glDeleteProgram(id); }
};

using GlBuffer = GlHandle<GlBufferTraits>;
using GlVertexArray = GlHandle<GlVertexArrayTraits>;
using GlFramebuffer = GlHandle<GlFramebufferTraits>;
using GlRenderbuffer = GlHandle<GlRenderbufferTraits>;
using GlTexture = GlHandle<GlTextureTraits>;
using GlShader = GlHandle<GlShaderTraits>;
using GlProgram = GlHandle<GlProgramTraits>;

GlBuffer createBuffer();
GlVertexArray createVertexArray();
GlFramebuffer createFramebuffer();
GlRenderbuffer createRenderbuffer();
/// target: GL_TEXTURE_2D and friends.
GlTexture createTexture(GLenum target);

/// Throws std::runtime_error naming operation and the GL error if glGetError() reports one. For setup code (object
/// creation, framebuffer completion), not for every draw call.
void throwOnGlError(const char* operation);

} // namespace gravlab
