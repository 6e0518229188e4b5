// Pick clicks: a right click or Ctrl+left click without dragging picks at the press position; plain left clicks,
// drags past the slop, middle clicks, chords and presses that land on the UI pick nothing.
#include <PickGesture.hpp>
#include <TestSupport.hpp>
#include <gtest/gtest.h>
#include <random>

namespace gravlab::test {
namespace {

using Button = MouseButtonEvent::Button;

MouseButtonEvent press(Button button, glm::vec2 at, bool control = false) {
    return {button, true, at, control};
}

MouseButtonEvent release(Button button, glm::vec2 at, bool control = false) {
    return {button, false, at, control};
}

/// Feeds a press at from and a release at to; returns what the release reported.
std::optional<glm::vec2> click(PickGesture& gesture, Button button, glm::vec2 from, glm::vec2 to, bool control,
                               bool uiWantsMouse = false) {
    EXPECT_FALSE(gesture.onButton(press(button, from, control), uiWantsMouse).has_value())
        << "a press alone never picks";
    return gesture.onButton(release(button, to, control), uiWantsMouse);
}

TEST(PickGesture, RightClickAndControlLeftClickPickAtThePressPosition) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> coordinate(0.0f, 1000.0f);
    std::uniform_real_distribution<float> jitter(-2.5f, 2.5f); // |offset| <= 3.54 < kClickSlopPixels
    PickGesture gesture;
    for (const auto& [button, control] :
         {std::pair{Button::Right, false}, std::pair{Button::Right, true}, std::pair{Button::Left, true}}) {
        const glm::vec2 at(coordinate(random), coordinate(random));
        const std::optional<glm::vec2> picked =
            click(gesture, button, at, at + glm::vec2(jitter(random), jitter(random)), control);
        ASSERT_TRUE(picked.has_value());
        EXPECT_EQ(*picked, at);
    }
}

TEST(PickGesture, DragsPlainLeftClicksMiddleClicksAndUiClicksPickNothing) {
    PickGesture gesture;
    const glm::vec2 at(300.0f, 200.0f);
    const float beyondSlop = PickGesture::kClickSlopPixels + 0.5f;
    EXPECT_FALSE(click(gesture, Button::Left, at, at, false)) << "a plain left click rotates the camera";
    EXPECT_FALSE(click(gesture, Button::Middle, at, at, true));
    EXPECT_FALSE(click(gesture, Button::Right, at, at + glm::vec2(beyondSlop, 0.0f), false)) << "a pan drag";
    EXPECT_FALSE(click(gesture, Button::Left, at, at + glm::vec2(0.0f, -beyondSlop), true)) << "a rotate drag";
    EXPECT_FALSE(click(gesture, Button::Right, at, at, false, true)) << "pressed on the UI";
    // A chord: right pressed, then left pressed and both released.
    gesture.onButton(press(Button::Right, at), false);
    gesture.onButton(press(Button::Left, at), false);
    EXPECT_FALSE(gesture.onButton(release(Button::Left, at), false));
    EXPECT_FALSE(gesture.onButton(release(Button::Right, at), false));
    // And the gesture recovers: the next clean click picks.
    EXPECT_TRUE(click(gesture, Button::Right, at, at, false));
}

} // namespace
} // namespace gravlab::test
