// What the current GL context offers the compute backend: version, compute shaders, storage buffer size, and whether
// the driver is a software one (see GlCompute.hpp).
#include <gravlab/render/GlCompute.hpp>

#include <GLFW/glfw3.h>
#include <algorithm>
#include <glad/gl.h>
// Keep X11 out: without this, eglplatform.h includes Xlib.h on Linux.
#define EGL_NO_X11
#include <EGL/egl.h>

namespace gravlab {

namespace {

std::string glString(GLenum name) {
    const auto* text = reinterpret_cast<const char*>(glGetString(name));
    return text != nullptr ? text : "unknown";
}

/// Mesa's CPU rasterisers: the GL backend runs there (the tests use it) but slower than the CPU backend.
bool isSoftwareRenderer(const std::string& renderer) {
    for (const char* name : {"llvmpipe", "softpipe", "swrast"})
        if (renderer.find(name) != std::string::npos)
            return true;
    return false;
}

} // namespace

bool glContextCurrentOnThisThread() {
    // glfwGetCurrentContext before glfwInit returns null and reports GLFW_NOT_INITIALIZED to the error callback, which
    // only records it.
    return eglGetCurrentContext() != EGL_NO_CONTEXT || glfwGetCurrentContext() != nullptr;
}

std::string GlComputeSupport::description() const {
    return renderer + " (" + vendor + "), OpenGL " + version;
}

GlComputeSupport queryGlComputeSupport() {
    GlComputeSupport support;
    if (glGetString == nullptr) {
        support.missing = "no OpenGL functions are loaded (no GL context was created)";
        return support;
    }
    support.renderer = glString(GL_RENDERER);
    support.vendor = glString(GL_VENDOR);
    support.version = glString(GL_VERSION);
    support.softwareRenderer = isSoftwareRenderer(support.renderer);
    GLint major = 0, minor = 0;
    glGetIntegerv(GL_MAJOR_VERSION, &major);
    glGetIntegerv(GL_MINOR_VERSION, &minor);
    if (major < 4 || (major == 4 && minor < 5)) {
        support.missing = "OpenGL 4.5 (the driver offers " + std::to_string(major) + "." + std::to_string(minor) + ")";
        return support;
    }
    GLint maxGroupSize = 0, maxSharedBytes = 0, maxStorageBindings = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &maxGroupSize);
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &maxSharedBytes);
    glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &maxStorageBindings);
    // The shaders use work groups of 256, a 4 KiB tile of shared memory and storage bindings 0 to 4; GL 4.5 promises
    // 1024, 32 KiB and 8, so only a broken driver lacks them.
    if (maxGroupSize < 256 || maxSharedBytes < 4096 || maxStorageBindings < 5) {
        support.missing = "compute shaders with work groups of 256, 4 KiB of shared memory and 5 storage buffers (the "
                          "driver offers " +
                          std::to_string(maxGroupSize) + ", " + std::to_string(maxSharedBytes) + " bytes and " +
                          std::to_string(maxStorageBindings) + ")";
        return support;
    }
    // One storage block holds a whole array of 16-byte records, and one dispatch of 256-wide groups covers the bodies.
    GLint64 maxBlockBytes = 0;
    GLint maxGroupCount = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &maxBlockBytes);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &maxGroupCount);
    support.maxBodies = std::min(std::uint64_t(maxBlockBytes) / 16, std::uint64_t(maxGroupCount) * 256);
    return support;
}

} // namespace gravlab
