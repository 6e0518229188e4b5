// OrbitCamera: the target stays at the viewport centre, zoom and orbit keep the geometry they promise, pan moves the
// scene with the cursor, and fit frames the bounds. Projections are computed here from the matrices.
#include "RenderTestSupport.hpp"

#include <gravlab/render/OrbitCamera.hpp>

#include <glm/gtc/constants.hpp>
#include <limits>
#include <random>

namespace gravlab::test {
namespace {

// The camera works in float; 1e-4 relative covers the rounding of a 4x4 float matrix product at these magnitudes.
constexpr float kRelativeTolerance = 1e-4f;

/// NDC error of float rounding: positions of magnitude |target| are rounded to a few ulps, which the projection
/// magnifies by 1 / (distance tan(fov / 2)); 32 ulps is a generous count for a view and a projection product.
float ndcTolerance(const OrbitCamera& camera) {
    const float magnitude = glm::length(camera.target()) + camera.distance();
    return 32.0f * std::numeric_limits<float>::epsilon() * magnitude /
           (camera.distance() * std::tan(0.5f * camera.verticalFieldOfView()));
}

OrbitCamera randomCamera(std::mt19937_64& random) {
    std::uniform_real_distribution<float> coordinate(-50.0f, 50.0f);
    std::uniform_real_distribution<float> angle(-3.0f, 3.0f);
    std::uniform_real_distribution<float> pitch(-1.4f, 1.4f);
    std::uniform_real_distribution<float> logDistance(-1.0f, 3.0f);
    OrbitCamera camera;
    camera.setTarget({coordinate(random), coordinate(random), coordinate(random)});
    camera.setAngles(angle(random), pitch(random));
    camera.setDistance(std::pow(10.0f, logDistance(random)));
    return camera;
}

glm::vec2 toNdc(const OrbitCamera& camera, float aspect, const glm::vec3& point) {
    const glm::vec4 clip = camera.projectionMatrix(aspect) * camera.viewMatrix() * glm::vec4(point, 1.0f);
    return glm::vec2(clip) / clip.w;
}

TEST(OrbitCamera, TargetProjectsToTheViewportCentre) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    for (int trial = 0; trial < 100; ++trial) {
        const OrbitCamera camera = randomCamera(random);
        const glm::vec2 ndc = toNdc(camera, 16.0f / 9.0f, camera.target());
        EXPECT_NEAR(ndc.x, 0.0f, ndcTolerance(camera));
        EXPECT_NEAR(ndc.y, 0.0f, ndcTolerance(camera));
        EXPECT_NEAR(glm::length(camera.eyePosition() - camera.target()), camera.distance(),
                    kRelativeTolerance * camera.distance() + 1e-3f);
    }
}

TEST(OrbitCamera, ZoomMovesAlongTheViewDirectionByTheStatedFactor) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    OrbitCamera camera = randomCamera(random);
    const glm::vec3 target = camera.target();
    const glm::vec3 directionBefore = glm::normalize(camera.eyePosition() - target);
    const float distanceBefore = camera.distance();

    camera.zoom(3.0f);
    EXPECT_NEAR(camera.distance(), distanceBefore * std::exp(-3.0f * OrbitCamera::kZoomPerStep),
                kRelativeTolerance * distanceBefore);
    EXPECT_LT(camera.distance(), distanceBefore);
    EXPECT_EQ(camera.target(), target);
    const glm::vec3 directionAfter = glm::normalize(camera.eyePosition() - target);
    EXPECT_GT(glm::dot(directionBefore, directionAfter), 1.0f - 1e-5f);

    camera.zoom(-6.0f);
    EXPECT_GT(camera.distance(), distanceBefore);
}

TEST(OrbitCamera, OrbitKeepsTheDistanceAndClampsPitchBeforeThePole) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    OrbitCamera camera = randomCamera(random);
    const float distance = glm::length(camera.eyePosition() - camera.target());
    camera.orbit(0.7f, 0.3f);
    EXPECT_NEAR(glm::length(camera.eyePosition() - camera.target()), distance, kRelativeTolerance * distance);
    camera.orbit(0.0f, 10.0f);
    EXPECT_FLOAT_EQ(camera.pitch(), OrbitCamera::kMaxPitch);
    camera.orbit(0.0f, -20.0f);
    EXPECT_FLOAT_EQ(camera.pitch(), -OrbitCamera::kMaxPitch);
}

TEST(OrbitCamera, PanMovesTheSceneWithTheCursor) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> pixels(-200.0f, 200.0f);
    const int width = 1280, height = 720;
    const float aspect = float(width) / float(height);
    OrbitCamera camera = randomCamera(random);
    const glm::vec3 oldTarget = camera.target();
    const float dx = pixels(random), dy = pixels(random);

    camera.panByPixels(dx, dy, float(height));

    // The old target sits at the new target's depth, so it lands exactly (dx, dy) pixels from the centre, y down.
    const glm::vec2 ndc = toNdc(camera, aspect, oldTarget);
    const glm::vec2 pixelOffset((ndc.x * 0.5f) * width, (-ndc.y * 0.5f) * height);
    // Rounding in NDC scaled to pixels, plus float rounding of the offset itself (relative 1e-4 of 200 pixels).
    const float tolerance = 0.5f * float(width) * ndcTolerance(camera) + 0.02f;
    EXPECT_NEAR(pixelOffset.x, dx, tolerance);
    EXPECT_NEAR(pixelOffset.y, dy, tolerance);
}

TEST(OrbitCamera, FitPutsTheBoundingSphereInsideTheViewportAndFillsIt) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> coordinate(-20.0f, 20.0f);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::uniform_real_distribution<float> logRadius(-2.0f, 2.0f);

    for (const float aspect : {16.0f / 9.0f, 9.0f / 16.0f, 1.0f}) {
        SCOPED_TRACE("aspect " + std::to_string(aspect));
        OrbitCamera camera = randomCamera(random);
        const SceneBounds bounds{{coordinate(random), coordinate(random), coordinate(random)},
                                 std::pow(10.0f, logRadius(random))};
        camera.fit(bounds, aspect);

        float largestReach = 0.0f; // furthest NDC coordinate reached by sampled points of the sphere's surface
        for (int i = 0; i < 2000; ++i) {
            const glm::vec3 direction = glm::normalize(glm::vec3(unit(random), unit(random), unit(random)));
            const glm::vec2 ndc = toNdc(camera, aspect, bounds.centre + bounds.radius * direction);
            EXPECT_LE(std::abs(ndc.x), 1.0f);
            EXPECT_LE(std::abs(ndc.y), 1.0f);
            largestReach = std::max({largestReach, std::abs(ndc.x), std::abs(ndc.y)});
        }
        // With the 1.1 margin the sphere's silhouette reaches about 1/1.1 of the narrower half-extent; a fit that
        // backs off much further than that would waste the screen.
        EXPECT_GT(largestReach, 0.75f);
    }
}

} // namespace
} // namespace gravlab::test
