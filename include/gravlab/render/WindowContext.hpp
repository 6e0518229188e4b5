#pragma once
// A GLFW window with a current OpenGL 4.5 core context.
//
// Design note: one object owns GLFW's lifetime, the window and its context, and tears them down in that order's
// reverse: window (and with it the context) before glfwTerminate. Any GL object must be destroyed before this object;
// owners declare the WindowContext first so that C++ destroys it last. Creation failures throw
// WindowUnavailableError with GLFW's own description, so the app can fall back to headless rendering.
#include <stdexcept>
#include <string>

struct GLFWwindow;

namespace gravlab {

class WindowUnavailableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct WindowSettings {
    std::string title = "Gravlab";
    int width = 1280; ///< initial size in screen coordinates
    int height = 800;
    bool verticalSync = true;
};

struct FramebufferSize {
    int width = 0; ///< pixels
    int height = 0;
};

class WindowContext {
public:
    explicit WindowContext(const WindowSettings& settings);
    ~WindowContext();
    WindowContext(const WindowContext&) = delete;
    WindowContext& operator=(const WindowContext&) = delete;

    GLFWwindow* handle() const { return m_window; }
    bool shouldClose() const;
    void requestClose();
    void swapBuffers();
    /// Processes pending window events (input callbacks run here).
    void pollEvents();
    /// Size of the default framebuffer in pixels (differs from the window size on high-DPI screens).
    FramebufferSize framebufferSize() const;
    /// Renderer and GL version, for the panel and logs.
    const std::string& description() const { return m_description; }

private:
    GLFWwindow* m_window = nullptr;
    std::string m_description;
};

} // namespace gravlab
