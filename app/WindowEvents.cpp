// GLFW input callbacks feeding the viewer's per-frame event queue.
#include "WindowEvents.hpp"

#include <GLFW/glfw3.h>

namespace gravlab {

WindowEvents::WindowEvents(GLFWwindow* window) : m_window(window) {
    glfwSetWindowUserPointer(m_window, this);
    glfwSetKeyCallback(m_window, onKey);
    glfwSetScrollCallback(m_window, onScroll);
    glfwSetMouseButtonCallback(m_window, onMouseButton);
}

WindowEvents::~WindowEvents() {
    glfwSetKeyCallback(m_window, nullptr);
    glfwSetScrollCallback(m_window, nullptr);
    glfwSetMouseButtonCallback(m_window, nullptr);
    glfwSetWindowUserPointer(m_window, nullptr);
}

void WindowEvents::onKey(GLFWwindow* window, int key, int /*scancode*/, int action, int /*mods*/) {
    auto* events = static_cast<WindowEvents*>(glfwGetWindowUserPointer(window));
    if (events != nullptr && action == GLFW_PRESS)
        events->m_keyPresses.push_back(key);
}

void WindowEvents::onScroll(GLFWwindow* window, double /*xOffset*/, double yOffset) {
    auto* events = static_cast<WindowEvents*>(glfwGetWindowUserPointer(window));
    if (events != nullptr)
        events->m_scrollSteps += yOffset;
}

void WindowEvents::onMouseButton(GLFWwindow* window, int button, int action, int mods) {
    auto* events = static_cast<WindowEvents*>(glfwGetWindowUserPointer(window));
    if (events == nullptr || (action != GLFW_PRESS && action != GLFW_RELEASE))
        return;
    MouseButtonEvent event;
    switch (button) {
    case GLFW_MOUSE_BUTTON_LEFT:
        event.button = MouseButtonEvent::Button::Left;
        break;
    case GLFW_MOUSE_BUTTON_RIGHT:
        event.button = MouseButtonEvent::Button::Right;
        break;
    case GLFW_MOUSE_BUTTON_MIDDLE:
        event.button = MouseButtonEvent::Button::Middle;
        break;
    default:
        return; // extra buttons do nothing in the viewer
    }
    double x = 0, y = 0;
    glfwGetCursorPos(window, &x, &y);
    event.pressed = action == GLFW_PRESS;
    event.cursor = glm::vec2(static_cast<float>(x), static_cast<float>(y));
    event.controlHeld = (mods & GLFW_MOD_CONTROL) != 0;
    event.shiftHeld = (mods & GLFW_MOD_SHIFT) != 0;
    events->m_buttonEvents.push_back(event);
}

std::vector<int> WindowEvents::takeKeyPresses() {
    std::vector<int> presses;
    presses.swap(m_keyPresses);
    return presses;
}

double WindowEvents::takeScrollSteps() {
    const double steps = m_scrollSteps;
    m_scrollSteps = 0;
    return steps;
}

std::vector<MouseButtonEvent> WindowEvents::takeButtonEvents() {
    std::vector<MouseButtonEvent> events;
    events.swap(m_buttonEvents);
    return events;
}

PointerState WindowEvents::pointer() const {
    PointerState state;
    glfwGetCursorPos(m_window, &state.x, &state.y);
    state.rotateHeld = glfwGetMouseButton(m_window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
    state.panHeld = glfwGetMouseButton(m_window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
                    glfwGetMouseButton(m_window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
    return state;
}

float WindowEvents::windowHeight() const {
    int width = 0, height = 0;
    glfwGetWindowSize(m_window, &width, &height);
    return static_cast<float>(height);
}

glm::vec2 WindowEvents::windowSize() const {
    int width = 0, height = 0;
    glfwGetWindowSize(m_window, &width, &height);
    return glm::vec2(static_cast<float>(width), static_cast<float>(height));
}

} // namespace gravlab
