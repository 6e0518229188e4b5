// The fp64 reference direct sum against hand-computed forces of two and three bodies, with Plummer softening.
#include "SimTestSupport.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>

#include <gtest/gtest.h>
#include <numbers>

namespace gravlab {
namespace {

using simtest::Vec3;

// Relative tolerance for configurations whose float coordinates are exact inputs: the reference does about ten fp64
// operations per pair, so its relative error is ~1e-15; 1e-12 leaves room while any wrong factor (G, a mass, the
// softening, the 3/2 power) would be off by order one.
constexpr double kExactInputTolerance = 1e-12;

void expectAccelerationNear(const Vec3Arrays<double>& actual, std::size_t i, const Vec3& expected, double tolerance) {
    const Vec3 got{actual.x[i], actual.y[i], actual.z[i]};
    EXPECT_LE(simtest::norm(simtest::sub(got, expected)), tolerance * simtest::norm(expected))
        << "body " << i << ": got (" << got[0] << ", " << got[1] << ", " << got[2] << "), expected (" << expected[0]
        << ", " << expected[1] << ", " << expected[2] << ")";
}

TEST(DirectSumFp64, TwoBodiesMatchSoftenedNewtonianForce) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> coordinate(-2.0, 2.0), positive(0.1, 2.0), softening(0.0, 0.5);
    for (int trial = 0; trial < 20; ++trial) {
        Bodies bodies;
        bodies.resize(2);
        simtest::setBody(bodies, 0, {coordinate(random), coordinate(random), coordinate(random)}, {}, positive(random));
        simtest::setBody(bodies, 1, {coordinate(random), coordinate(random), coordinate(random)}, {}, positive(random));
        const GravityParams gravity{positive(random), softening(random)};
        // Hand formula from the stored (float) values: a_0 = G m_1 d / (|d|^2 + eps^2)^(3/2), a_1 = -G m_0 d / (...).
        const Vec3 d = simtest::sub(simtest::positionOf(bodies, 1), simtest::positionOf(bodies, 0));
        const double denominator =
            std::pow(simtest::dot(d, d) + gravity.softeningLength * gravity.softeningLength, 1.5);
        const double g = gravity.gravitationalConstant;
        Vec3Arrays<double> accelerations;
        computeAccelerationsFp64(bodies, gravity, accelerations);
        ASSERT_EQ(accelerations.size(), 2u);
        expectAccelerationNear(accelerations, 0, simtest::scale(d, g * bodies.mass[1] / denominator),
                               kExactInputTolerance);
        expectAccelerationNear(accelerations, 1, simtest::scale(d, -g * bodies.mass[0] / denominator),
                               kExactInputTolerance);
    }
}

TEST(DirectSumFp64, ThreeCollinearBodiesMatchHandSum) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    // Dyadic gaps and masses are exact in float, so the hand formula sees exactly the solver's inputs.
    std::uniform_int_distribution<int> eighths(2, 24);
    const double gapLeft = eighths(random) / 8.0, gapRight = eighths(random) / 8.0;
    const double m0 = eighths(random) / 8.0, m1 = eighths(random) / 8.0, m2 = eighths(random) / 8.0;
    const GravityParams gravity{1.5, 0.25};
    Bodies bodies;
    bodies.resize(3);
    simtest::setBody(bodies, 0, {0, 0, 0}, {}, m0);
    simtest::setBody(bodies, 1, {gapLeft, 0, 0}, {}, m1);
    simtest::setBody(bodies, 2, {gapLeft + gapRight, 0, 0}, {}, m2);
    const double eps2 = gravity.softeningLength * gravity.softeningLength;
    // Pull of a mass m at signed distance s along x: G m s / (s^2 + eps^2)^(3/2).
    const auto pull = [&](double m, double s) {
        return gravity.gravitationalConstant * m * s / std::pow(s * s + eps2, 1.5);
    };
    const double left = gapLeft, right = gapRight, both = gapLeft + gapRight;
    const Vec3 expected0{pull(m1, left) + pull(m2, both), 0, 0};
    const Vec3 expected1{pull(m0, -left) + pull(m2, right), 0, 0};
    const Vec3 expected2{pull(m0, -both) + pull(m1, -right), 0, 0};

    Vec3Arrays<double> all;
    computeAccelerationsFp64(bodies, gravity, all);
    expectAccelerationNear(all, 0, expected0, kExactInputTolerance);
    expectAccelerationNear(all, 1, expected1, kExactInputTolerance);
    expectAccelerationNear(all, 2, expected2, kExactInputTolerance);

    // The targets overload returns the listed bodies in the listed order.
    const std::array<std::size_t, 2> targets{2, 0};
    Vec3Arrays<double> some;
    computeAccelerationsFp64(bodies, gravity, targets, some);
    ASSERT_EQ(some.size(), 2u);
    expectAccelerationNear(some, 0, expected2, kExactInputTolerance);
    expectAccelerationNear(some, 1, expected0, kExactInputTolerance);
}

TEST(DirectSumFp64, EquilateralTrianglePullsEachBodyToTheCentre) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> side(0.2, 3.0), angle(0.0, 2.0 * std::numbers::pi), offset(-1.0, 1.0);
    const double s = side(random), mass = 0.7, g = 1.3, eps = 0.1;
    const Vec3 centre{offset(random), offset(random), offset(random)};
    const double circumradius = s / std::sqrt(3.0), phase = angle(random);
    Bodies bodies;
    bodies.resize(3);
    for (std::size_t k = 0; k < 3; ++k) {
        const double a = phase + 2.0 * std::numbers::pi * double(k) / 3.0;
        simtest::setBody(bodies, k, simtest::add(centre, {circumradius * std::cos(a), 0.0, circumradius * std::sin(a)}),
                         {}, mass);
    }
    // Each body feels the two others: sum of the unit vectors times G m s / (s^2 + eps^2)^(3/2) points at the centre
    // with length sqrt(3) G m s / (s^2 + eps^2)^(3/2).
    const double magnitude = std::sqrt(3.0) * g * mass * s / std::pow(s * s + eps * eps, 1.5);
    // Storing the vertices as float moves them by ~6e-8 relative; the r^-2 force magnifies that to a few 1e-7.
    constexpr double kFloatInputTolerance = 2e-6;
    Vec3Arrays<double> accelerations;
    computeAccelerationsFp64(bodies, {g, eps}, accelerations);
    for (std::size_t k = 0; k < 3; ++k) {
        const Vec3 inward = simtest::sub(centre, simtest::positionOf(bodies, k));
        expectAccelerationNear(accelerations, k, simtest::scale(inward, magnitude / simtest::norm(inward)),
                               kFloatInputTolerance);
    }
}

TEST(DirectSumFp64, RejectsTargetsOutsideTheBodies) {
    Bodies bodies;
    bodies.resize(2);
    simtest::setBody(bodies, 0, {0, 0, 0}, {}, 1);
    simtest::setBody(bodies, 1, {1, 0, 0}, {}, 1);
    const std::array<std::size_t, 1> targets{2};
    Vec3Arrays<double> out;
    EXPECT_THROW(computeAccelerationsFp64(bodies, {1, 0.1}, targets, out), std::out_of_range);
}

} // namespace
} // namespace gravlab
