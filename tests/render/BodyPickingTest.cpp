// Picking: the cursor picks the body whose projection is nearest on screen, the front one where several share a spot,
// and never one behind the eye, beyond the far plane, non-finite, or too far from the cursor. Every body is placed
// with glm::unProject from the camera matrices, so where it lands on screen is known by construction.
#include "RenderTestSupport.hpp"

#include <gravlab/render/BodyPicking.hpp>
#include <gravlab/render/OrbitCamera.hpp>

#include <algorithm>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>
#include <random>

namespace gravlab::test {
namespace {

constexpr int kWidth = 640;
constexpr int kHeight = 480;

struct PickScene {
    OrbitCamera camera;
    glm::mat4 view{1.0f};
    glm::mat4 projection{1.0f};

    explicit PickScene(std::mt19937_64& random) {
        camera.setAngles(std::uniform_real_distribution<float>(-3.1f, 3.1f)(random),
                         std::uniform_real_distribution<float>(-1.3f, 1.3f)(random));
        camera.setDistance(std::uniform_real_distribution<float>(3.0f, 20.0f)(random));
        view = camera.viewMatrix();
        projection = camera.projectionMatrix(float(kWidth) / float(kHeight));
    }

    /// The world point seen at pixel (x, y rows from the top) at the given eye distance along the view direction.
    glm::vec3 pointAt(const glm::vec2& pixel, float eyeDistance) const {
        const glm::vec4 viewport(0.0f, 0.0f, float(kWidth), float(kHeight));
        // Window depth 0 and 1 are the near and far planes; the ray between them holds every depth.
        const glm::vec3 onNear =
            glm::unProject(glm::vec3(pixel.x, float(kHeight) - pixel.y, 0.0f), view, projection, viewport);
        const glm::vec3 onFar =
            glm::unProject(glm::vec3(pixel.x, float(kHeight) - pixel.y, 1.0f), view, projection, viewport);
        const glm::vec3 eye = camera.eyePosition();
        const glm::vec3 direction = glm::normalize(onFar - onNear);
        const glm::vec3 forward = glm::normalize(camera.target() - eye);
        return eye + direction * (eyeDistance / glm::dot(direction, forward));
    }

    PickRequest request(const glm::vec2& cursor) const {
        PickRequest pick;
        pick.viewProjection = projection * view;
        pick.cursor = cursor;
        pick.viewportSize = glm::vec2(kWidth, kHeight);
        return pick;
    }
};

RenderVertex vertexAt(const glm::vec3& p) {
    return {p.x, p.y, p.z, 0.5f};
}

TEST(BodyPicking, PicksTheBodyNearestOnScreenNotTheOneNearestTheEyeOrBehindIt) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    const PickScene scene(random);
    const float distance = scene.camera.distance();
    const glm::vec2 cursor(std::uniform_real_distribution<float>(100.0f, 540.0f)(random),
                           std::uniform_real_distribution<float>(100.0f, 380.0f)(random));

    std::vector<RenderVertex> bodies;
    // Tempting bodies that must lose: each lies exactly under the cursor or nearer the eye than the answer.
    const glm::vec3 eye = scene.camera.eyePosition();
    const glm::vec3 underCursor = scene.pointAt(cursor, distance);
    bodies.push_back(vertexAt(eye - 0.5f * (underCursor - eye))); // behind the eye: dividing by w < 0 lands on cursor
    bodies.push_back(vertexAt(scene.pointAt(cursor, 2.0f * scene.camera.farPlane()))); // beyond the far plane
    const float nan = std::numeric_limits<float>::quiet_NaN();
    bodies.push_back({nan, nan, nan, 0.5f});
    bodies.push_back(vertexAt(scene.pointAt(cursor + glm::vec2(6.0f, 0.0f), 0.3f * distance))); // near the eye, 6 px
    // The answer: 2.5 pixels from the cursor, further from the eye than the decoy above.
    bodies.push_back(vertexAt(scene.pointAt(cursor + glm::vec2(-1.5f, 2.0f), distance)));
    bodies.push_back(vertexAt(scene.pointAt(cursor + glm::vec2(0.0f, -9.0f), distance))); // further on screen
    std::shuffle(bodies.begin(), bodies.end(), random);
    const glm::vec3 answerPosition = scene.pointAt(cursor + glm::vec2(-1.5f, 2.0f), distance);

    const std::optional<PickedBody> picked = pickNearestBody(bodies, scene.request(cursor));

    ASSERT_TRUE(picked.has_value());
    const RenderVertex& body = bodies[picked->index];
    // Positions are the same floats, copied: an exact match identifies the body after the shuffle.
    EXPECT_EQ(glm::vec3(body.x, body.y, body.z), answerPosition) << "picked body " << picked->index;
    EXPECT_EQ(picked->position, answerPosition);
    // 2.5 pixels by construction; unProject and projection round in float, far below 0.05 pixels at these sizes.
    EXPECT_NEAR(picked->pixelDistance, 2.5f, 0.05f);
}

TEST(BodyPicking, OfBodiesOnTheSameSpotTheOneInFrontWins) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    const PickScene scene(random);
    const float distance = scene.camera.distance();
    const glm::vec2 spot(320.0f, 240.0f);
    std::vector<float> depths{1.6f * distance, 0.7f * distance, 1.1f * distance, 0.9f * distance};
    std::shuffle(depths.begin(), depths.end(), random);
    std::vector<RenderVertex> bodies;
    for (const float depth : depths)
        bodies.push_back(vertexAt(scene.pointAt(spot, depth)));

    const std::optional<PickedBody> picked = pickNearestBody(bodies, scene.request(spot + glm::vec2(3.0f, 0.0f)));

    ASSERT_TRUE(picked.has_value());
    // All four project to the same pixel (to float rounding, far below kSameSpotPixels): the front one, 0.7 d away.
    EXPECT_EQ(depths[picked->index], 0.7f * distance);
}

TEST(BodyPicking, AClickFarFromEveryBodyPicksNothing) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    const PickScene scene(random);
    const glm::vec2 cursor(200.0f, 200.0f);
    PickRequest request = scene.request(cursor);
    const std::vector<RenderVertex> bodies{
        vertexAt(scene.pointAt(cursor + glm::vec2(request.maxPixelDistance + 1.0f, 0.0f), scene.camera.distance())),
        vertexAt(scene.pointAt(cursor + glm::vec2(0.0f, 40.0f), scene.camera.distance()))};

    EXPECT_FALSE(pickNearestBody(bodies, request).has_value());
    request.maxPixelDistance += 2.0f;
    const std::optional<PickedBody> picked = pickNearestBody(bodies, request);
    ASSERT_TRUE(picked.has_value()) << "within the larger radius the first body is picked";
    EXPECT_EQ(picked->index, 0u);
    EXPECT_FALSE(pickNearestBody({}, request).has_value());
}

} // namespace
} // namespace gravlab::test
