// Follow mode moves only the camera's target; the distance and angles stay the user's, and a lost body stops it.
#include "FollowCamera.hpp"

#include <gtest/gtest.h>

namespace gravlab {
namespace {

TEST(FollowCamera, MovesOnlyTheTarget) {
    OrbitCamera camera;
    camera.setDistance(7.5f);
    camera.setAngles(0.3f, -0.2f);
    const glm::vec3 eyeOffset = camera.eyePosition() - camera.target();
    FollowCamera follow;
    follow.toggle();
    ASSERT_TRUE(follow.enabled());
    follow.update(camera, BodyPosition{1.0f, -2.0f, 3.5f});
    EXPECT_EQ(camera.target(), glm::vec3(1.0f, -2.0f, 3.5f));
    EXPECT_EQ(camera.distance(), 7.5f);
    EXPECT_EQ(camera.yaw(), 0.3f);
    EXPECT_EQ(camera.pitch(), -0.2f);
    const glm::vec3 offsetNow = camera.eyePosition() - camera.target();
    EXPECT_NEAR(glm::length(offsetNow - eyeOffset), 0.0f, 1e-5f) << "the eye moves with the target";
}

TEST(FollowCamera, DoesNothingWhenOff) {
    OrbitCamera camera;
    camera.setTarget({4.0f, 4.0f, 4.0f});
    FollowCamera follow;
    follow.update(camera, BodyPosition{1.0f, 1.0f, 1.0f});
    EXPECT_EQ(camera.target(), glm::vec3(4.0f));
}

TEST(FollowCamera, ALostBodyStopsFollowing) {
    OrbitCamera camera;
    camera.setTarget({4.0f, 4.0f, 4.0f});
    FollowCamera follow;
    follow.setEnabled(true);
    follow.update(camera, std::nullopt);
    EXPECT_FALSE(follow.enabled());
    EXPECT_EQ(camera.target(), glm::vec3(4.0f));
}

} // namespace
} // namespace gravlab
