#pragma once
// Switching the window between a window and fullscreen on the monitor it is on, restoring its place on the way back.
//
// Design note: GLFW switches with glfwSetWindowMonitor; going fullscreen the window's position and size are saved and
// the video mode of the monitor under the window's centre is kept (no mode change: the projector or screen stays at
// its native resolution, and switching back is instant). Leaving fullscreen puts the saved position and size back.
// The GL context survives the switch, so no GL object is recreated. Panels that the smaller window can no longer show
// are brought back by ImGuiLayer::keepWindowsOnScreen().
struct GLFWwindow;
struct GLFWmonitor;

namespace gravlab {

class FullscreenToggle {
public:
    explicit FullscreenToggle(GLFWwindow* window) : m_window(window) {}

    bool fullscreen() const;
    void setFullscreen(bool fullscreen);
    void toggle() { setFullscreen(!fullscreen()); }

private:
    /// The monitor under the window's centre; the primary monitor when none is.
    GLFWmonitor* monitorUnderWindow() const;

    GLFWwindow* m_window;
    int m_windowedX = 0, m_windowedY = 0; ///< screen coordinates, saved when going fullscreen
    int m_windowedWidth = 0, m_windowedHeight = 0;
};

} // namespace gravlab
