#pragma once
// Mouse clicks that pick a body: a right click, or a left click with Ctrl held, that does not drag.
//
// Design note: the same buttons drag the camera (left rotates, right pans), so a pick is a press and release of one
// button within kClickSlopPixels of each other; anything longer is a drag and picks nothing. Clicks come as button
// events queued by the window's callback rather than polled state, so a click shorter than one frame (a slow frame at
// a million bodies) is not lost. A press that lands on the UI belongs to the UI, like CameraInput's drags. This knows
// nothing of GLFW; WindowEvents translates.
#include <glm/glm.hpp>
#include <optional>

namespace gravlab {

struct MouseButtonEvent {
    enum class Button { Left, Right, Middle };
    Button button = Button::Left;
    bool pressed = false;     ///< true: pressed, false: released
    glm::vec2 cursor{0.0f};   ///< cursor position at the event, window coordinates (pixels, y down)
    bool controlHeld = false; ///< Ctrl was held
    bool shiftHeld = false;   ///< Shift was held (a pick with Shift also starts a trail)
};

class PickGesture {
public:
    /// Feeds one button event in order; returns the cursor position when it completes a pick click.
    std::optional<glm::vec2> onButton(const MouseButtonEvent& event, bool uiWantsMouse);

    /// A press and release further apart than this is a drag, not a click.
    static constexpr float kClickSlopPixels = 4.0f;

private:
    struct Press {
        MouseButtonEvent::Button button;
        glm::vec2 cursor;
        bool ownedByUi;
    };
    std::optional<Press> m_press;
};

} // namespace gravlab
