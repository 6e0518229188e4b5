// The default scene, "galaxy-collision": two galaxies of mass 1 each, on an incoming parabolic orbit, centre of mass
// of the whole scene at rest at the origin, N honoured exactly, deterministic in (N, seed).
#include "SimTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>

namespace gravlab {
namespace {

// The scenario's colour keys mark the galaxies: A uses keys up to 0.4, B keys from 0.6 on.
constexpr float kColourSplit = 0.5f;

struct GalaxySplit {
    std::vector<std::size_t> a, b;
};

GalaxySplit splitByColour(const Bodies& bodies) {
    GalaxySplit split;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        (bodies.colorKey[i] < kColourSplit ? split.a : split.b).push_back(i);
    return split;
}

simtest::Moments momentsOfSet(const Bodies& bodies, const std::vector<std::size_t>& members) {
    simtest::Moments result;
    for (const std::size_t i : members) {
        const double m = bodies.mass[i];
        result.mass += m;
        result.massPosition = simtest::add(result.massPosition, simtest::scale(simtest::positionOf(bodies, i), m));
        result.momentum = simtest::add(result.momentum, simtest::scale(simtest::velocityOf(bodies, i), m));
    }
    return result;
}

TEST(GalaxyCollisionScenario, TwoGalaxiesOfUnitMassApproachOnAParabola) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::size_t count = 2 * std::uniform_int_distribution<std::size_t>(2000, 6000)(random) + 1; // odd
    const Bodies bodies = generateScenario("galaxy-collision", count, seed);
    ASSERT_EQ(bodies.size(), count);

    const GalaxySplit split = splitByColour(bodies);
    EXPECT_EQ(split.a.size(), (count + 1) / 2);
    EXPECT_EQ(split.b.size(), count / 2);
    const simtest::Moments a = momentsOfSet(bodies, split.a), b = momentsOfSet(bodies, split.b);
    // Masses are stored in float: a sum of ~10^4 values carries ~1e-7 relative rounding.
    EXPECT_NEAR(a.mass, 1.0, 1e-5);
    EXPECT_NEAR(b.mass, 1.0, 1e-5);

    const simtest::Vec3 separation =
        simtest::sub(simtest::scale(b.massPosition, 1.0 / b.mass), simtest::scale(a.massPosition, 1.0 / a.mass));
    const simtest::Vec3 relativeVelocity =
        simtest::sub(simtest::scale(b.momentum, 1.0 / b.mass), simtest::scale(a.momentum, 1.0 / a.mass));
    // The galaxies start 10 scale lengths apart (their own bodies' centres of mass agree with the orbit's to the
    // float rounding of the coordinates) and move towards each other.
    EXPECT_NEAR(simtest::norm(separation), 10.0, 1e-3);
    EXPECT_LT(simtest::dot(separation, relativeVelocity), 0.0) << "the galaxies must approach each other";
    // Parabolic: the orbital energy of the two centres, as point masses, is zero: v^2 / 2 = G (M_A + M_B) / r.
    const double kinetic = 0.5 * simtest::dot(relativeVelocity, relativeVelocity);
    const double binding = (a.mass + b.mass) / simtest::norm(separation);
    EXPECT_NEAR(kinetic / binding, 1.0, 1e-3);
    // Pericentre of the point-mass orbit from its angular momentum: r_p = h^2 / (2 G M) for a parabola; 3 scale
    // lengths puts the disks through each other's outskirts.
    const double h = simtest::norm(simtest::cross(separation, relativeVelocity));
    EXPECT_NEAR(h * h / (2.0 * (a.mass + b.mass)), 3.0, 1e-2);

    // The whole scene: centre of mass at the origin and at rest, to the float rounding of ~1e4 coordinates of size
    // ~10 (relative 6e-8 each, summing as a random walk to ~1e-7 of the mass-weighted magnitude).
    const simtest::Moments all = simtest::momentsOf(bodies, 0, count);
    EXPECT_LT(simtest::norm(all.massPosition), 1e-5);
    EXPECT_LT(simtest::norm(all.momentum), 1e-5);
}

TEST(GalaxyCollisionScenario, MassRatioAndPericentreParametersShapeTheOrbit) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const double massRatio = std::uniform_real_distribution<double>(0.1, 1.0)(random);
    const double pericentre = std::uniform_real_distribution<double>(0.5, 8.0)(random);
    constexpr std::size_t kCount = 6000;
    const Bodies bodies =
        generateScenario("galaxy-collision", kCount, seed, {{"mass-ratio", massRatio}, {"pericentre", pericentre}});
    const GalaxySplit split = splitByColour(bodies);
    // Bodies in proportion to mass, B getting floor(N q / (1 + q)).
    EXPECT_EQ(split.b.size(), std::size_t(std::floor(double(kCount) * massRatio / (1.0 + massRatio))));
    const simtest::Moments a = momentsOfSet(bodies, split.a), b = momentsOfSet(bodies, split.b);
    EXPECT_NEAR(a.mass, 1.0, 1e-5);
    EXPECT_NEAR(b.mass, massRatio, 1e-5);
    const simtest::Vec3 separation =
        simtest::sub(simtest::scale(b.massPosition, 1.0 / b.mass), simtest::scale(a.massPosition, 1.0 / a.mass));
    const simtest::Vec3 relativeVelocity =
        simtest::sub(simtest::scale(b.momentum, 1.0 / b.mass), simtest::scale(a.momentum, 1.0 / a.mass));
    // Parabolic in the total mass 1 + q, with r_p = h^2 / (2 G M): tolerances as for the default orbit.
    const double kinetic = 0.5 * simtest::dot(relativeVelocity, relativeVelocity);
    EXPECT_NEAR(kinetic * simtest::norm(separation) / (a.mass + b.mass), 1.0, 1e-3);
    const double h = simtest::norm(simtest::cross(separation, relativeVelocity));
    EXPECT_NEAR(h * h / (2.0 * (a.mass + b.mass)) / pericentre, 1.0, 3e-3);
}

TEST(GalaxyCollisionScenario, GalaxiesSpinInDifferentPlanes) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies bodies = generateScenario("galaxy-collision", 8000, seed);
    const GalaxySplit split = splitByColour(bodies);
    std::array<simtest::Vec3, 2> spins{};
    for (int g = 0; g < 2; ++g) {
        const std::vector<std::size_t>& members = g == 0 ? split.a : split.b;
        const simtest::Moments moments = momentsOfSet(bodies, members);
        const simtest::Vec3 centre = simtest::scale(moments.massPosition, 1.0 / moments.mass);
        const simtest::Vec3 drift = simtest::scale(moments.momentum, 1.0 / moments.mass);
        simtest::Vec3 spin{};
        for (const std::size_t i : members)
            spin =
                simtest::add(spin, simtest::scale(simtest::cross(simtest::sub(simtest::positionOf(bodies, i), centre),
                                                                 simtest::sub(simtest::velocityOf(bodies, i), drift)),
                                                  bodies.mass[i]));
        spins[g] = simtest::scale(spin, 1.0 / simtest::norm(spin));
    }
    // Galaxy A is tilted 20 degrees from the orbital (x-y) plane, B 60 degrees about a perpendicular axis, so their
    // spins are 63 degrees apart: cos = cos(20) cos(60) = 0.47. The disks' random motions tilt a measured spin axis
    // by well under a degree at N = 4000 per galaxy; 0.05 in the cosine is about 3 degrees.
    EXPECT_NEAR(spins[0][2], std::cos(20.0 * std::numbers::pi / 180.0), 0.05);
    EXPECT_NEAR(simtest::dot(spins[0], spins[1]), std::cos(20.0 * std::numbers::pi / 180.0) * 0.5, 0.05);
}

TEST(GalaxyCollisionScenario, SameSeedGivesIdenticalBodiesAndAnotherSeedDoesNot) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies first = generateScenario("galaxy-collision", 3001, seed);
    const Bodies again = generateScenario("galaxy-collision", 3001, seed);
    const Bodies other = generateScenario("galaxy-collision", 3001, seed + 1);
    EXPECT_EQ(first.x, again.x);
    EXPECT_EQ(first.vy, again.vy);
    EXPECT_EQ(first.mass, again.mass);
    EXPECT_EQ(first.colorKey, again.colorKey);
    EXPECT_NE(first.x, other.x);
    EXPECT_NE(first.vz, other.vz);
}

} // namespace
} // namespace gravlab
