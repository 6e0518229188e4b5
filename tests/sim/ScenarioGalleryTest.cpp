// The gallery entries of every scenario (text, parameters, time scales, suggested settings) and the checks of scenario
// parameters; the interaction scenarios (ring-galaxy, satellite-stream) against their stated geometry and orbit.
#include "SimTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <IdentityChecks.hpp>
#include <gtest/gtest.h>
#include <numbers>

namespace gravlab {
namespace {

TEST(ScenarioGallery, EveryEntryIsDescribedWithValidSuggestionsAndFiniteTimes) {
    for (const Scenario& scenario : scenarios()) {
        SCOPED_TRACE(std::string(scenario.name));
        EXPECT_GT(scenario.overview.size(), scenario.description.size());
        EXPECT_FALSE(scenario.whatToLookFor.empty());
        for (const ScenarioParameter& parameter : scenario.parameters) {
            EXPECT_LE(parameter.min, parameter.defaultValue) << parameter.name;
            EXPECT_LE(parameter.defaultValue, parameter.max) << parameter.name;
            EXPECT_FALSE(parameter.meaning.empty()) << parameter.name;
        }
        const std::vector<NamedTime> times = scenarioTimeScales(scenario.name);
        ASSERT_FALSE(times.empty());
        for (const NamedTime& time : times) {
            EXPECT_TRUE(std::isfinite(time.value) && time.value > 0) << time.name << " = " << time.value;
            EXPECT_FALSE(time.name.empty());
        }
        SimParams suggested;
        suggested.scenario = std::string(scenario.name);
        suggested.bodyCount = scenario.suggested.bodyCount;
        suggested.timeStep = scenario.suggested.timeStep;
        suggested.softeningLength = scenario.suggested.softeningLength;
        suggested.solver = std::string(scenario.suggested.solver);
        EXPECT_NO_THROW(validateSimParams(suggested));
        EXPECT_GE(scenario.suggested.stepsPerFrame, 1);
    }
}

TEST(ScenarioGallery, ParametersOutOfRangeOrUnknownAreRefusedNamingWhatIsAllowed) {
    SimParams params;
    params.scenario = "disk-galaxy";
    params.scenarioParams = {{"toomre-q", 9.0}};
    try {
        validateSimParams(params);
        FAIL() << "no exception";
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), "scenario-param");
        EXPECT_STREQ(error.what(), "scenario 'disk-galaxy' parameter toomre-q = 9 is out of range: allowed 0.3 <= "
                                   "toomre-q <= 4 (Toomre Q of the disk: below 1 it fragments, 1-2 grows spiral arms, "
                                   "above 2 stays smooth)");
    }
    params.scenarioParams = {{"toomre-q", std::nan("")}};
    EXPECT_THROW(validateSimParams(params), InvalidParameterError);
    params.scenarioParams = {{"eccentricity", 0.5}};
    try {
        validateSimParams(params);
        FAIL() << "no exception";
    } catch (const InvalidParameterError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("'eccentricity' is not one of scenario 'disk-galaxy'"), std::string::npos) << message;
        EXPECT_NE(message.find("'toomre-q' or 'bulge-fraction'"), std::string::npos) << message;
    }
    params.scenario = "cold-cube";
    params.scenarioParams = {{"size", 1.0}};
    EXPECT_THROW(validateSimParams(params), InvalidParameterError);
    params.scenarioParams.clear();
    EXPECT_NO_THROW(validateSimParams(params));
}

TEST(ScenarioGallery, ChangingAScenarioParameterReinitialises) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    SimParams params;
    params.scenario = "plummer";
    params.bodyCount = 300;
    params.seed = seed;
    params.backend = BackendKind::Cpu;
    Simulation simulation(params);
    simulation.step(2);
    params.scenarioParams = {{"virial-ratio", 0.5}};
    simulation.setParams(params);
    EXPECT_EQ(simulation.stepCount(), 0u);
    EXPECT_EQ(test::bodiesOf(simulation).vx, generateScenario("plummer", 300, seed, params.scenarioParams).vx);
    EXPECT_NE(test::bodiesOf(simulation).vx, generateScenario("plummer", 300, seed).vx);
}

/// Mass-weighted centre of position and velocity of bodies [first, first + count).
std::pair<simtest::Vec3, simtest::Vec3> centreOf(const Bodies& bodies, std::size_t first, std::size_t count) {
    simtest::Vec3 position{}, velocity{};
    double mass = 0;
    for (std::size_t i = first; i < first + count; ++i) {
        mass += bodies.mass[i];
        position = simtest::add(position, simtest::scale(simtest::positionOf(bodies, i), bodies.mass[i]));
        velocity = simtest::add(velocity, simtest::scale(simtest::velocityOf(bodies, i), bodies.mass[i]));
    }
    return {simtest::scale(position, 1.0 / mass), simtest::scale(velocity, 1.0 / mass)};
}

TEST(RingGalaxyScenario, CompanionFallsAlongTheDiskAxisThroughItsCentre) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    constexpr std::size_t kCount = 6000;
    const Bodies bodies = generateScenario("ring-galaxy", kCount, seed);
    const std::size_t companion = kCount / 3; // mass 0.5 against 1: a third of the bodies, at the end
    const auto [diskPosition, diskVelocity] = centreOf(bodies, 0, kCount - companion);
    const auto [companionPosition, companionVelocity] = centreOf(bodies, kCount - companion, companion);
    const simtest::Vec3 separation = simtest::sub(companionPosition, diskPosition);
    const simtest::Vec3 approach = simtest::sub(companionVelocity, diskVelocity);
    // The disk lies in the x-y plane (its spin along +z); the companion 6 above it on the axis, falling along -z at
    // the parabolic speed sqrt(2 G 1.5 / 6) = 0.707. Centres of 2000-4000 sampled bodies scatter by ~0.01.
    EXPECT_NEAR(separation[2], 6.0, 0.05);
    EXPECT_NEAR(std::hypot(separation[0], separation[1]), 0.0, 0.05);
    EXPECT_NEAR(approach[2], -std::sqrt(0.5), 0.02);
    EXPECT_NEAR(std::hypot(approach[0], approach[1]), 0.0, 0.02);
}

/// The pericentre of an orbit of energy E and angular momentum L in the potential -1 / sqrt(r^2 + 1), by bisection
/// of 2 (E - Phi(r)) - L^2 / r^2 = 0 below the starting radius.
double pericentreInPlummerHost(double energy, double angularMomentum, double startRadius) {
    const auto radialKinetic = [&](double r) {
        return 2.0 * (energy + 1.0 / std::sqrt(r * r + 1.0)) - angularMomentum * angularMomentum / (r * r);
    };
    double low = 1e-6, high = startRadius;
    for (int k = 0; k < 200; ++k) {
        const double middle = 0.5 * (low + high);
        (radialKinetic(middle) < 0 ? low : high) = middle;
    }
    return 0.5 * (low + high);
}

TEST(SatelliteStreamScenario, SatelliteStartsAtApocentreOfTheStatedOrbit) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    constexpr std::size_t kCount = 8000;
    const ScenarioParams chosen{{"apocentre", 5.0}, {"eccentricity", 0.5}};
    const Bodies bodies = generateScenario("satellite-stream", kCount, seed, chosen);
    const std::size_t satellite = kCount / 4;
    const auto [hostPosition, hostVelocity] = centreOf(bodies, 0, kCount - satellite);
    const auto [satellitePosition, satelliteVelocity] = centreOf(bodies, kCount - satellite, satellite);
    const simtest::Vec3 r = simtest::sub(satellitePosition, hostPosition);
    const simtest::Vec3 v = simtest::sub(satelliteVelocity, hostVelocity);
    const double radius = simtest::norm(r);
    // The satellite as a point in the host's analytic potential: at apocentre (no radial velocity), and its energy
    // and angular momentum bring it to r_p = r_a (1 - e) / (1 + e) = 5/3. The sampled centres scatter by ~0.01 in
    // position (host core) and ~0.005 in velocity; tolerance 3% on r_p.
    EXPECT_NEAR(radius, 5.0, 0.05);
    EXPECT_NEAR(simtest::dot(r, v) / radius, 0.0, 0.01);
    const double energy = 0.5 * simtest::dot(v, v) - 1.0 / std::sqrt(radius * radius + 1.0);
    const double pericentre = pericentreInPlummerHost(energy, simtest::norm(simtest::cross(r, v)), radius);
    EXPECT_NEAR(pericentre / (5.0 / 3.0), 1.0, 0.03);
    const std::vector<NamedTime> times = scenarioTimeScales("satellite-stream", chosen);
    // The radial period lies between half the circular period at pericentre and the one at apocentre
    // (2 pi r / v_c = 2 pi (r^2 + 1)^(3/4) in the host).
    const auto circularPeriod = [](double circleRadius) {
        return 2.0 * std::numbers::pi * std::pow(circleRadius * circleRadius + 1.0, 0.75);
    };
    EXPECT_GT(times[0].value, 0.5 * circularPeriod(5.0 / 3.0));
    EXPECT_LT(times[0].value, circularPeriod(5.0));
}

} // namespace
} // namespace gravlab
