// Mouse gestures: left drag orbits, right drag pans, the wheel zooms, and nothing moves while ImGui owns the mouse
// or when a drag started over the panel.
#include <CameraInput.hpp>
#include <TestSupport.hpp>
#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <random>

namespace gravlab::test {
namespace {

constexpr float kWindowHeight = 800.0f;

PointerState at(double x, double y, bool rotate, bool pan) {
    return {x, y, rotate, pan};
}

TEST(CameraInput, LeftDragOrbitsByTheStatedAnglePerWindowHeight) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    const double dx = std::uniform_real_distribution<double>(-300, 300)(random);
    const double dy = std::uniform_real_distribution<double>(-100, 100)(random);
    OrbitCamera camera;
    CameraInput input;
    const float yaw = camera.yaw(), pitch = camera.pitch();
    input.onPointer(at(400, 300, true, false), false, kWindowHeight, camera);
    input.onPointer(at(400 + dx, 300 + dy, true, false), false, kWindowHeight, camera);
    const double radiansPerPixel = CameraInput::kRadiansPerWindowHeight / kWindowHeight;
    // Angles are floats; 1e-5 radians is far above their rounding and far below one pixel's 3.75e-3 radians.
    EXPECT_NEAR(std::remainder(camera.yaw() - yaw + dx * radiansPerPixel, 2 * std::numbers::pi), 0.0, 1e-5);
    EXPECT_NEAR(camera.pitch(), pitch + dy * radiansPerPixel, 1e-5);
}

TEST(CameraInput, RightDragPansAndTheWheelZooms) {
    OrbitCamera camera;
    CameraInput input;
    const glm::vec3 target = camera.target();
    input.onPointer(at(100, 100, false, true), false, kWindowHeight, camera);
    input.onPointer(at(150, 100, false, true), false, kWindowHeight, camera);
    EXPECT_GT(glm::length(camera.target() - target), 0.0f);
    const float distance = camera.distance();
    input.onScroll(2.0, false, camera);
    EXPECT_LT(camera.distance(), distance);
}

TEST(CameraInput, NothingMovesWhileTheUiOwnsTheMouseOrTheDragStartedOnIt) {
    OrbitCamera camera;
    CameraInput input;
    const float yaw = camera.yaw(), distance = camera.distance();
    input.onScroll(3.0, true, camera);
    EXPECT_EQ(camera.distance(), distance);
    // Pressed over the panel, then dragged out of it: still the panel's drag.
    input.onPointer(at(10, 10, true, false), true, kWindowHeight, camera);
    input.onPointer(at(300, 10, true, false), false, kWindowHeight, camera);
    EXPECT_EQ(camera.yaw(), yaw);
    // Released, then pressed over the scene: the camera follows.
    input.onPointer(at(300, 10, false, false), false, kWindowHeight, camera);
    input.onPointer(at(300, 10, true, false), false, kWindowHeight, camera);
    input.onPointer(at(350, 10, true, false), false, kWindowHeight, camera);
    EXPECT_NE(camera.yaw(), yaw);
}

} // namespace
} // namespace gravlab::test
