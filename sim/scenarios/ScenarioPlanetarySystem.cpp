// Scenario "planetary-system": a star and a few light planets on Keplerian orbits, plus a belt of tracers.
//
// Design note: the system has mass 1 (G = 1): the planets the chosen planet mass m each, the star the rest. Planet k
// (k = 0, 1, ...) has the period T_k = 2 pi r^k for the chosen period ratio r between neighbours, so, by Kepler's
// third law about star plus planet, a_k = ((M_star + m) (T_k / 2 pi)^2)^(1/3) (the innermost near 1). All
// planets have the chosen eccentricity and start at pericentre, their pericentre directions random (from the seed)
// so they do not line up. The orbits are coplanar (the x-y plane), in the sense of +z. Bodies beyond the star and
// its planets are a belt of tracers (together kTracerMass = 1e-6, on circular orbits about the star, uniform in
// radius from 1.5 to 2.5 times the outermost planet's apocentre) that show the planets' resonances. With fewer bodies
// than planets, the innermost planets are placed. colorKey: the star 1, the planets 0.2-0.8 inside out, the belt 0.
// The centre of mass is moved to the origin and at rest.
#include "scenarios/ScenarioGenerators.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace gravlab::scenario {
namespace {

constexpr std::uint64_t kPlanetTag = 0x706c616e6574ull; // "planet"
constexpr std::uint64_t kBeltTag = 0x62656c74ull;       // "belt"

constexpr ScenarioParameter kParameters[]{
    {"planets", 4.0, 1.0, 8.0, "number of planets (whole number)"},
    {"period-ratio", 2.0, 1.2, 4.0, "period of each planet over the next inner one's (innermost: 2 pi)"},
    {"eccentricity", 0.05, 0.0, 0.6, "eccentricity of every planet's orbit"},
    {"planet-mass", 1e-4, 1e-7, 1e-2, "mass of each planet, star masses (Jupiter is 1e-3)"},
};

std::size_t planetCount(const ScenarioParams& values) {
    return std::size_t(std::llround(parameterValue(values, "planets")));
}

double planetPeriod(const ScenarioParams& values, std::size_t planet) {
    return 2.0 * std::numbers::pi * std::pow(parameterValue(values, "period-ratio"), double(planet));
}

std::vector<NamedTime> planetarySystemTimeScales(const ScenarioParams& values) {
    std::vector<NamedTime> times;
    for (std::size_t planet = 0; planet < planetCount(values); ++planet)
        times.push_back({"orbital period of planet " + std::to_string(planet + 1), planetPeriod(values, planet)});
    return times;
}

void generatePlanetarySystem(Bodies& out, std::size_t bodyCount, std::uint64_t seed, const ScenarioParams& values) {
    out.resize(bodyCount);
    if (bodyCount == 0)
        return;
    const std::size_t planets = std::min(planetCount(values), bodyCount - 1);
    const double e = parameterValue(values, "eccentricity");
    const double planetMass = parameterValue(values, "planet-mass");
    const bool hasBelt = bodyCount > planets + 1;
    const double starMass = 1.0 - double(planets) * planetMass - (hasBelt ? kTracerMass : 0.0);
    storeBody(out, 0, {{0, 0, 0}, {0, 0, 0}, starMass, 1.0});
    const std::uint64_t planetSeed = deriveSeed(seed, kPlanetTag);
    double outerApocentre = 1.0;
    for (std::size_t planet = 0; planet < planets; ++planet) {
        RandomStream random(planetSeed, planet);
        const double a = keplerSemiMajorAxis(starMass + planetMass, planetPeriod(values, planet));
        const RelativeState orbit =
            keplerPericentre(starMass + planetMass, a, e, 2.0 * std::numbers::pi * random.uniform());
        const double colour = 0.2 + 0.6 * double(planet) / double(std::max<std::size_t>(planets - 1, 1));
        storeBody(out, 1 + planet, {orbit.position, orbit.velocity, planetMass, colour});
        outerApocentre = a * (1.0 + e);
    }
    if (hasBelt)
        placeCircularTracers(out, planets + 1, deriveSeed(seed, kBeltTag), 1.5 * outerApocentre, 2.0 / 3.0, 0.0);
    removeCentreOfMassMotion(out, 0, bodyCount);
}

} // namespace

Scenario planetarySystemScenario() {
    return {"planetary-system",
            "a star with a few planets on Keplerian orbits and a belt of tracers",
            "A star with light planets on nearly Keplerian ellipses: each planet's period follows Kepler's "
            "third law, T^2 proportional to a^3, so the outer planets move slower. A belt of massless-like tracers "
            "beyond the planets feels their pull.",
            "The inner planets lap the outer ones; the ratio of neighbouring periods is the period-ratio parameter. "
            "Heavier planets (planet-mass towards 1e-2) perturb each other's orbits and sculpt gaps and clumps in "
            "the belt at resonances. The star wobbles slightly around the centre of mass.",
            kParameters,
            {2048, 0.002, 0.001, "direct", 10},
            planetarySystemTimeScales,
            generatePlanetarySystem};
}

} // namespace gravlab::scenario
