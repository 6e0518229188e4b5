// computeDiagnosticsCpu against hand-written sums: kinetic and softened potential energy, linear and angular momentum.
#include "SimTestSupport.hpp"

#include <gravlab/sim/Diagnostics.hpp>

#include <gtest/gtest.h>

namespace gravlab {
namespace {

using simtest::Vec3;

// The diagnostics accumulate in fp64 from float inputs that the reference reads identically; only summation order
// differs, ~1e-16 per term, so 1e-12 relative separates rounding from any wrong factor.
constexpr double kFp64Tolerance = 1e-12;

TEST(Diagnostics, ThreeBodiesMatchHandWrittenSums) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = simtest::randomBodies(3, random);
    const GravityParams gravity{1.7, 0.3};
    const Diagnostics diagnostics = computeDiagnosticsCpu(bodies, gravity);

    const auto m = [&](std::size_t i) { return double(bodies.mass[i]); };
    const auto x = [&](std::size_t i) { return simtest::positionOf(bodies, i); };
    const auto v = [&](std::size_t i) { return simtest::velocityOf(bodies, i); };
    const auto pairPotential = [&](std::size_t i, std::size_t j) {
        const Vec3 d = simtest::sub(x(i), x(j));
        return -gravity.gravitationalConstant * m(i) * m(j) /
               std::sqrt(simtest::dot(d, d) + gravity.softeningLength * gravity.softeningLength);
    };
    const double kinetic =
        0.5 * (m(0) * simtest::dot(v(0), v(0)) + m(1) * simtest::dot(v(1), v(1)) + m(2) * simtest::dot(v(2), v(2)));
    const double potential = pairPotential(0, 1) + pairPotential(0, 2) + pairPotential(1, 2);
    const Vec3 momentum =
        simtest::add(simtest::add(simtest::scale(v(0), m(0)), simtest::scale(v(1), m(1))), simtest::scale(v(2), m(2)));
    const Vec3 angular = simtest::add(simtest::add(simtest::scale(simtest::cross(x(0), v(0)), m(0)),
                                                   simtest::scale(simtest::cross(x(1), v(1)), m(1))),
                                      simtest::scale(simtest::cross(x(2), v(2)), m(2)));

    EXPECT_NEAR(diagnostics.kineticEnergy, kinetic, kFp64Tolerance * kinetic);
    EXPECT_NEAR(diagnostics.potentialEnergy, potential, kFp64Tolerance * std::abs(potential));
    EXPECT_NEAR(diagnostics.totalEnergy(), kinetic + potential, kFp64Tolerance * (kinetic - potential));
    EXPECT_NEAR(diagnostics.virialRatio(), kinetic / -potential, kFp64Tolerance);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(diagnostics.linearMomentum[k], momentum[k], kFp64Tolerance * simtest::norm(momentum));
        EXPECT_NEAR(diagnostics.angularMomentum[k], angular[k], kFp64Tolerance * simtest::norm(angular));
    }
}

TEST(Diagnostics, PotentialEnergyOfManyBodiesMatchesFullDoubleLoop) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = simtest::randomBodies(700, random);
    const GravityParams gravity{1.0, 0.02};
    // Over all ordered pairs i != j, then halved: a different loop from the solver's i < j rows.
    double doubled = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        for (std::size_t j = 0; j < bodies.size(); ++j)
            if (i != j) {
                const Vec3 d = simtest::sub(simtest::positionOf(bodies, i), simtest::positionOf(bodies, j));
                doubled -= double(bodies.mass[i]) * bodies.mass[j] / std::sqrt(simtest::dot(d, d) + 0.02 * 0.02);
            }
    // 2.4e5 pair terms summed in a different order: relative rounding ~1e-13.
    EXPECT_NEAR(computeDiagnosticsCpu(bodies, gravity).potentialEnergy, 0.5 * doubled, 1e-10 * std::abs(doubled));
}

} // namespace
} // namespace gravlab
