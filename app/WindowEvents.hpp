#pragma once
// Keyboard, wheel and mouse-button events of the viewer window, queued for the frame loop, plus the polled pointer
// state.
//
// Design note: GLFW delivers keys, wheel motion and button presses through callbacks during pollEvents(); this object
// installs them, queues what arrives, and the frame loop takes the queue once per frame, where it can ask ImGui whether
// the UI owns the keyboard or mouse. Install it before ImGuiLayer so that ImGui's backend chains to these callbacks. It
// registers itself as the window's user pointer, so it can be neither copied nor moved.
#include "CameraInput.hpp"
#include "PickGesture.hpp"

#include <vector>

struct GLFWwindow;

namespace gravlab {

class WindowEvents {
public:
    explicit WindowEvents(GLFWwindow* window);
    ~WindowEvents();
    WindowEvents(const WindowEvents&) = delete;
    WindowEvents& operator=(const WindowEvents&) = delete;

    /// GLFW key codes pressed since the last call, in order.
    std::vector<int> takeKeyPresses();
    /// Wheel clicks since the last call, positive away from the user.
    double takeScrollSteps();
    /// Mouse button presses and releases since the last call, in order.
    std::vector<MouseButtonEvent> takeButtonEvents();
    PointerState pointer() const;
    /// Window height in screen coordinates (the unit of pointer positions).
    float windowHeight() const;
    /// Window width and height in screen coordinates.
    glm::vec2 windowSize() const;

private:
    static void onKey(GLFWwindow* window, int key, int scancode, int action, int mods);
    static void onScroll(GLFWwindow* window, double xOffset, double yOffset);
    static void onMouseButton(GLFWwindow* window, int button, int action, int mods);

    GLFWwindow* m_window;
    std::vector<int> m_keyPresses;
    double m_scrollSteps = 0;
    std::vector<MouseButtonEvent> m_buttonEvents;
};

} // namespace gravlab
