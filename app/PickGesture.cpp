// Telling pick clicks from camera drags.
#include "PickGesture.hpp"

namespace gravlab {

std::optional<glm::vec2> PickGesture::onButton(const MouseButtonEvent& event, bool uiWantsMouse) {
    using Button = MouseButtonEvent::Button;
    if (event.pressed) {
        const bool picksOnRelease =
            event.button == Button::Right || (event.button == Button::Left && event.controlHeld);
        // A second button pressed during a press spoils it: that is a chord, not a click.
        if (m_press || !picksOnRelease)
            m_press.reset();
        else
            m_press = Press{event.button, event.cursor, uiWantsMouse};
        return std::nullopt;
    }
    if (!m_press || m_press->button != event.button)
        return std::nullopt;
    const Press press = *m_press;
    m_press.reset();
    if (press.ownedByUi || glm::length(event.cursor - press.cursor) > kClickSlopPixels)
        return std::nullopt;
    return press.cursor;
}

} // namespace gravlab
