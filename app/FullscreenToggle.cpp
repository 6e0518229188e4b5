// Fullscreen on the window's monitor at its current video mode, and back to the saved window.
#include "FullscreenToggle.hpp"

#include <GLFW/glfw3.h>

namespace gravlab {

bool FullscreenToggle::fullscreen() const {
    return glfwGetWindowMonitor(m_window) != nullptr;
}

GLFWmonitor* FullscreenToggle::monitorUnderWindow() const {
    int x = 0, y = 0, width = 0, height = 0;
    glfwGetWindowPos(m_window, &x, &y);
    glfwGetWindowSize(m_window, &width, &height);
    const int centreX = x + width / 2;
    const int centreY = y + height / 2;
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    for (int k = 0; k < count; ++k) {
        int monitorX = 0, monitorY = 0;
        glfwGetMonitorPos(monitors[k], &monitorX, &monitorY);
        const GLFWvidmode* mode = glfwGetVideoMode(monitors[k]);
        if (mode && centreX >= monitorX && centreX < monitorX + mode->width && centreY >= monitorY &&
            centreY < monitorY + mode->height)
            return monitors[k];
    }
    return glfwGetPrimaryMonitor();
}

void FullscreenToggle::setFullscreen(bool fullscreen) {
    if (fullscreen == this->fullscreen())
        return;
    if (!fullscreen) {
        glfwSetWindowMonitor(m_window, nullptr, m_windowedX, m_windowedY, m_windowedWidth, m_windowedHeight,
                             GLFW_DONT_CARE);
        return;
    }
    GLFWmonitor* monitor = monitorUnderWindow();
    const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
    if (!mode)
        return; // no monitor to fill (a virtual display without modes): stay windowed
    glfwGetWindowPos(m_window, &m_windowedX, &m_windowedY);
    glfwGetWindowSize(m_window, &m_windowedWidth, &m_windowedHeight);
    glfwSetWindowMonitor(m_window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

} // namespace gravlab
