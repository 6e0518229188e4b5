// robustBounds: against the analytic quantiles of a uniform ball, with far outliers that must not move the result.
#include "RenderTestSupport.hpp"

#include <gravlab/render/SceneBounds.hpp>

#include <cmath>
#include <limits>
#include <random>

namespace gravlab::test {
namespace {

/// count points uniform in a ball of radius around centre (rejection sampling from the cube).
std::vector<RenderVertex> uniformBall(std::mt19937_64& random, std::size_t count, glm::vec3 centre, float radius) {
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::vector<RenderVertex> vertices;
    while (vertices.size() < count) {
        const glm::vec3 p(unit(random), unit(random), unit(random));
        if (glm::dot(p, p) <= 1.0f) {
            const glm::vec3 q = centre + radius * p;
            vertices.push_back({q.x, q.y, q.z, 0.5f});
        }
    }
    return vertices;
}

TEST(SceneBounds, MatchesTheUniformBallQuantileAndIgnoresOutliers) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> coordinate(-100.0f, 100.0f);
    const glm::vec3 centre(coordinate(random), coordinate(random), coordinate(random));
    const float radius = 3.0f;
    const std::size_t count = 40000;
    std::vector<RenderVertex> vertices = uniformBall(random, count, centre, radius);
    // 1% of the bodies flung a thousand radii away, all to one side: they would drag a mean and an extent.
    for (std::size_t i = 0; i < count / 100; ++i)
        vertices[i] = {centre.x + 1000.0f * radius, centre.y, centre.z + 1000.0f * radius, 1.0f};

    const SceneBounds bounds = robustBounds(vertices, 0.9f);

    // In a uniform ball P(r < q R) = q^3. The 90% quantile over all bodies is the 0.9 / 0.99 quantile of the 99%
    // inside: R (0.9 / 0.99)^(1/3). Sampling noise of a quantile at N = 40k is about 0.3% of R; the median centre
    // is off by about R / sqrt(N) plus the 1% outliers' pull of about 1% of R on two axes.
    const float expectedRadius = radius * std::cbrt(0.9f / 0.99f);
    EXPECT_NEAR(bounds.radius, expectedRadius, 0.02f * radius);
    EXPECT_LT(glm::length(bounds.centre - centre), 0.05f * radius);
}

TEST(SceneBounds, SkipsNonFinitePositionsAndKeepsAPositiveRadius) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<RenderVertex> vertices{
        {1.0f, 2.0f, 3.0f, 0.0f}, {nan, 0.0f, 0.0f, 0.0f}, {0.0f, inf, 0.0f, 0.0f}};
    const SceneBounds bounds = robustBounds(vertices);
    EXPECT_EQ(bounds.centre, glm::vec3(1.0f, 2.0f, 3.0f));
    EXPECT_GT(bounds.radius, 0.0f);
    EXPECT_TRUE(std::isfinite(bounds.radius));

    const std::vector<RenderVertex> allBroken{{nan, nan, nan, 0.0f}};
    const SceneBounds fallback = robustBounds(allBroken);
    EXPECT_EQ(fallback.centre, glm::vec3(0.0f));
    EXPECT_FLOAT_EQ(fallback.radius, 1.0f);
}

} // namespace
} // namespace gravlab::test
