// GLFW window creation with an OpenGL 4.5 core context, and its ordered teardown.
#include "GlLoader.hpp"

#include <gravlab/render/WindowContext.hpp>

#include <GLFW/glfw3.h>
#include <cstdio>

namespace gravlab {

namespace {

// GLFW reports errors through a callback; the latest one is kept so exceptions can quote it.
std::string g_lastGlfwError;

void recordGlfwError(int code, const char* description) {
    char codeText[32];
    std::snprintf(codeText, sizeof(codeText), " (GLFW error 0x%08X)", static_cast<unsigned>(code));
    g_lastGlfwError = std::string(description) + codeText;
}

GLADapiproc glfwLoader(const char* name) {
    return reinterpret_cast<GLADapiproc>(glfwGetProcAddress(name));
}

[[noreturn]] void throwUnavailable(const std::string& what) {
    throw WindowUnavailableError(what + (g_lastGlfwError.empty() ? "" : ": " + g_lastGlfwError));
}

} // namespace

WindowContext::WindowContext(const WindowSettings& settings) {
    g_lastGlfwError.clear();
    glfwSetErrorCallback(recordGlfwError);
    if (glfwInit() != GLFW_TRUE)
        throwUnavailable("could not initialise GLFW");

    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    m_window = glfwCreateWindow(settings.width, settings.height, settings.title.c_str(), nullptr, nullptr);
    if (m_window == nullptr) {
        glfwTerminate();
        throwUnavailable("could not create a window with an OpenGL 4.5 core context");
    }
    glfwMakeContextCurrent(m_window);
    glfwSwapInterval(settings.verticalSync ? 1 : 0);
    try {
        loadOpenGlFunctions(glfwLoader, "the window's OpenGL context");
    } catch (const std::exception& error) {
        glfwDestroyWindow(m_window);
        glfwTerminate();
        throw WindowUnavailableError(error.what());
    }
    m_description = describeCurrentGlContext();
}

WindowContext::~WindowContext() {
    glfwMakeContextCurrent(nullptr);
    glfwDestroyWindow(m_window);
    glfwTerminate();
}

bool WindowContext::shouldClose() const {
    return glfwWindowShouldClose(m_window) == GLFW_TRUE;
}

void WindowContext::requestClose() {
    glfwSetWindowShouldClose(m_window, GLFW_TRUE);
}

void WindowContext::swapBuffers() {
    glfwSwapBuffers(m_window);
}

void WindowContext::pollEvents() {
    glfwPollEvents();
}

FramebufferSize WindowContext::framebufferSize() const {
    FramebufferSize size;
    glfwGetFramebufferSize(m_window, &size.width, &size.height);
    return size;
}

} // namespace gravlab
