// Lagrangian radii against hand-placed bodies (known radii) and against radii sorted in the test.
#include "SimTestSupport.hpp"

#include <gravlab/sim/LagrangianRadii.hpp>

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

constexpr std::array<double, 3> kFractions{0.1, 0.5, 0.9};

TEST(LagrangianRadii, EqualMassesOnKnownRadii) {
    // Pairs at +-k on the x axis (k = 1..5) plus an offset of the whole set: the centre of mass is the offset, and
    // the sorted radii are 1 1 2 2 3 3 4 4 5 5, so 10%, 50% and 90% of the mass lie within 1, 3 and 5.
    Bodies bodies;
    bodies.resize(10);
    for (std::size_t k = 0; k < 5; ++k) {
        simtest::setBody(bodies, 2 * k, {3.0 + double(k + 1), -2.0, 1.0}, {0, 0, 0}, 0.5);
        simtest::setBody(bodies, 2 * k + 1, {3.0 - double(k + 1), -2.0, 1.0}, {0, 0, 0}, 0.5);
    }
    const std::vector<double> radii = lagrangianRadii(bodies, kFractions);
    ASSERT_EQ(radii.size(), 3u);
    EXPECT_NEAR(radii[0], 1.0, 1e-6);
    EXPECT_NEAR(radii[1], 3.0, 1e-6);
    EXPECT_NEAR(radii[2], 5.0, 1e-6);
}

TEST(LagrangianRadii, VariedMassesMatchSortedRadii) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = simtest::variedMassPlummer(5000, random);
    // Reference: centre of mass, radii sorted, the first radius whose cumulative mass reaches the fraction.
    double mass = 0;
    simtest::Vec3 centre{};
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        centre = simtest::add(centre, simtest::scale(simtest::positionOf(bodies, i), bodies.mass[i]));
        mass += bodies.mass[i];
    }
    centre = simtest::scale(centre, 1.0 / mass);
    std::vector<std::pair<double, double>> radiusMass;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        radiusMass.emplace_back(simtest::norm(simtest::sub(simtest::positionOf(bodies, i), centre)), bodies.mass[i]);
    std::sort(radiusMass.begin(), radiusMass.end());
    const std::vector<double> radii = lagrangianRadii(bodies, kFractions);
    for (std::size_t f = 0; f < kFractions.size(); ++f) {
        double enclosed = 0;
        double expected = 0;
        for (const auto& [radius, m] : radiusMass) {
            enclosed += m;
            if (enclosed >= kFractions[f] * mass * (1 - 1e-12)) {
                expected = radius;
                break;
            }
        }
        EXPECT_NEAR(radii[f], expected, 1e-9 * expected) << "fraction " << kFractions[f];
    }
    EXPECT_LT(radii[0], radii[1]);
    EXPECT_LT(radii[1], radii[2]);
}

TEST(LagrangianRadii, RejectsFractionsOutsideTheUnitInterval) {
    Bodies bodies;
    bodies.resize(1);
    const std::array<double, 1> zero{0.0};
    EXPECT_THROW(lagrangianRadii(bodies, zero), std::invalid_argument);
}

} // namespace
} // namespace gravlab
