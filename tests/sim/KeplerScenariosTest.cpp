// The Keplerian scenarios against the two-body problem: "kepler-binary" has the semi-major axis and eccentricity its
// parameters state and its orbit closes after one period on the CPU direct solver; the planets of
// "planetary-system" have the periods the scenario states, by Kepler's third law from their generated state.
#include "SimTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <IdentityChecks.hpp>
#include <gtest/gtest.h>
#include <numbers>

namespace gravlab {
namespace {

struct OrbitElements {
    double semiMajorAxis;
    double eccentricity;
};

/// Elements of the relative orbit of body j about body i (G = 1) from the vis-viva equation and the specific
/// angular momentum: 1/a = 2/r - v^2/M, e^2 = 1 - h^2 / (M a).
OrbitElements relativeElements(const Bodies& bodies, std::size_t i, std::size_t j) {
    const simtest::Vec3 r = simtest::sub(simtest::positionOf(bodies, j), simtest::positionOf(bodies, i));
    const simtest::Vec3 v = simtest::sub(simtest::velocityOf(bodies, j), simtest::velocityOf(bodies, i));
    const double mass = double(bodies.mass[i]) + double(bodies.mass[j]);
    const double a = 1.0 / (2.0 / simtest::norm(r) - simtest::dot(v, v) / mass);
    const double h = simtest::norm(simtest::cross(r, v));
    return {a, std::sqrt(std::max(0.0, 1.0 - h * h / (mass * a)))};
}

TEST(KeplerBinaryScenario, GeneratedStateHasTheStatedSemiMajorAxisAndEccentricity) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const double eccentricity = std::uniform_real_distribution<double>(0.0, 0.9)(random);
    const double period = std::uniform_real_distribution<double>(1.0, 50.0)(random);
    const Bodies bodies =
        generateScenario("kepler-binary", 2, seed, {{"eccentricity", eccentricity}, {"period", period}});
    const OrbitElements elements = relativeElements(bodies, 0, 1);
    // Kepler's third law with total mass 1: a = (T / 2 pi)^(2/3). Float storage of positions and velocities leaves
    // ~1e-7 relative; tolerance 1e-5.
    EXPECT_NEAR(elements.semiMajorAxis / std::cbrt(std::pow(period / (2.0 * std::numbers::pi), 2)), 1.0, 1e-5);
    EXPECT_NEAR(elements.eccentricity, eccentricity, 1e-4);
}

TEST(KeplerBinaryScenario, OrbitClosesAfterOnePeriodOnTheCpuDirectSolver) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    SimParams params;
    params.scenario = "kepler-binary";
    params.scenarioParams = {{"eccentricity", 0.6}, {"period", 2.0 * std::numbers::pi}};
    params.bodyCount = 2;
    params.seed = seed;
    params.backend = BackendKind::Cpu;
    params.solver = "direct";
    params.softeningLength = 1e-5; // a point-mass orbit: the pericentre (0.4) is 4e4 softening lengths away
    constexpr int kStepsPerPeriod = 4000;
    params.timeStep = 2.0 * std::numbers::pi / kStepsPerPeriod;
    Simulation simulation(params);
    const Bodies start = test::bodiesOf(simulation);
    simulation.step(kStepsPerPeriod / 2);
    const Bodies half = test::bodiesOf(simulation);
    simulation.step(kStepsPerPeriod / 2);
    const Bodies end = test::bodiesOf(simulation);
    const auto separation = [](const Bodies& bodies) {
        return simtest::sub(simtest::positionOf(bodies, 1), simtest::positionOf(bodies, 0));
    };
    // Half a period from pericentre the pair is at apocentre, a (1 + e) = 1.6 apart.
    EXPECT_NEAR(simtest::norm(separation(half)), 1.6, 1e-3);
    // Leapfrog's phase error over one orbit at this step is ~(omega_p dt)^2 ~ 1e-5 of the orbit, float rounding of
    // 4000 steps ~1e-5 of a; tolerance 1e-3 a. An orbit that precesses (softening) or a period off by 0.1% misses.
    const double closure = simtest::norm(simtest::sub(separation(end), separation(start)));
    EXPECT_LT(closure, 1e-3) << "the orbit did not close after one period";
}

TEST(PlanetarySystemScenario, PlanetsHaveTheStatedPeriodsByKeplersThirdLaw) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const int planets = std::uniform_int_distribution<int>(2, 8)(random);
    const double ratio = std::uniform_real_distribution<double>(1.3, 3.0)(random);
    const double eccentricity = std::uniform_real_distribution<double>(0.0, 0.5)(random);
    const ScenarioParams chosen{{"planets", planets}, {"period-ratio", ratio}, {"eccentricity", eccentricity}};
    const Bodies bodies = generateScenario("planetary-system", 200, seed, chosen);
    const std::vector<NamedTime> times = scenarioTimeScales("planetary-system", chosen);
    ASSERT_EQ(times.size(), std::size_t(planets));
    for (int k = 0; k < planets; ++k) {
        SCOPED_TRACE("planet " + std::to_string(k + 1));
        const OrbitElements elements = relativeElements(bodies, 0, std::size_t(k) + 1);
        const double mass = double(bodies.mass[0]) + double(bodies.mass[std::size_t(k) + 1]);
        const double period = 2.0 * std::numbers::pi * std::sqrt(std::pow(elements.semiMajorAxis, 3) / mass);
        const double stated = 2.0 * std::numbers::pi * std::pow(ratio, k);
        // Float state: 1/a from vis-viva loses ~1e-6 relative for e <= 0.5; tolerance 1e-4.
        EXPECT_NEAR(period / stated, 1.0, 1e-4);
        EXPECT_NEAR(times[std::size_t(k)].value / stated, 1.0, 1e-12);
        EXPECT_NEAR(elements.eccentricity, eccentricity, 1e-3);
    }
}

} // namespace
} // namespace gravlab
