// Scenario "satellite-stream": a small Plummer satellite on an eccentric orbit in a massive Plummer host, torn by
// the host's tides into leading and trailing streams (like the Sagittarius dwarf around the Milky Way).
//
// Design note: the host is a Plummer sphere of mass 1 and scale radius 1, the satellite one of the chosen mass and
// scale radius kSatelliteRadius, both sampled from their distribution functions (equilibrium alone). The satellite's
// centre starts at apocentre r_a (a parameter) on the x axis, moving along +y, with the angular momentum that brings
// it to the pericentre r_p = r_a (1 - e) / (1 + e) for the chosen eccentricity e, computed in the host's potential
// Phi(r) = -G M / sqrt(r^2 + a^2) (not a Kepler ellipse): energy conservation between the turning points gives
// L^2 = 2 (Phi(r_a) - Phi(r_p)) / (1 / r_p^2 - 1 / r_a^2). The radial period T_r = 2 int dr / v_r from r_p to r_a is
// integrated with r = (r_a + r_p) / 2 - (r_a - r_p) / 2 cos(theta), which removes the turning points' singularities.
// The host gets 3/4 of the bodies and the satellite the rest (so the stream is well sampled; its bodies are lighter).
// The centre of mass of the scene is at the origin and at rest. Colours: the host its enclosed mass fraction scaled
// to 0-0.5, the satellite 0.9.
#include "scenarios/ScenarioGenerators.hpp"

#include <array>
#include <cmath>
#include <numbers>

namespace gravlab::scenario {
namespace {

constexpr double kHostRadius = 1.0;
constexpr double kSatelliteRadius = 0.1;
constexpr std::uint64_t kHostTag = 0x686f7374ull;        // "host"
constexpr std::uint64_t kSatelliteTag = 0x736174656cull; // "satel"

constexpr ScenarioParameter kParameters[]{
    {"satellite-mass", 0.01, 0.001, 0.1, "mass of the satellite over the host's (1)"},
    {"apocentre", 4.0, 1.5, 8.0, "farthest distance of the satellite's orbit, host scale radii"},
    {"eccentricity", 0.6, 0.1, 0.9, "(r_a - r_p) / (r_a + r_p) of the satellite's orbit"},
};

double hostPotential(double radius) {
    return -1.0 / std::sqrt(radius * radius + kHostRadius * kHostRadius);
}

struct SatelliteOrbit {
    double apocentre;
    double pericentre;
    double angularMomentum;
};

SatelliteOrbit satelliteOrbit(const ScenarioParams& values) {
    const double apocentre = parameterValue(values, "apocentre");
    const double e = parameterValue(values, "eccentricity");
    const double pericentre = apocentre * (1.0 - e) / (1.0 + e);
    const double momentumSquared = 2.0 * (hostPotential(apocentre) - hostPotential(pericentre)) /
                                   (1.0 / (pericentre * pericentre) - 1.0 / (apocentre * apocentre));
    return {apocentre, pericentre, std::sqrt(momentumSquared)};
}

double radialPeriod(const SatelliteOrbit& orbit) {
    const double mean = 0.5 * (orbit.apocentre + orbit.pericentre);
    const double half = 0.5 * (orbit.apocentre - orbit.pericentre);
    const double energy = hostPotential(orbit.apocentre) +
                          0.5 * orbit.angularMomentum * orbit.angularMomentum / (orbit.apocentre * orbit.apocentre);
    constexpr int kSteps = 4096;
    double sum = 0;
    for (int k = 0; k < kSteps; ++k) {
        const double theta = std::numbers::pi * (k + 0.5) / kSteps;
        const double radius = mean - half * std::cos(theta);
        const double radialSpeedSquared =
            2.0 * (energy - hostPotential(radius)) - orbit.angularMomentum * orbit.angularMomentum / (radius * radius);
        sum += half * std::sin(theta) / std::sqrt(std::max(radialSpeedSquared, 1e-300));
    }
    return 2.0 * sum * std::numbers::pi / kSteps;
}

std::vector<NamedTime> satelliteStreamTimeScales(const ScenarioParams& values) {
    const double satelliteMass = parameterValue(values, "satellite-mass");
    return {{"radial orbital period (apocentre to apocentre)", radialPeriod(satelliteOrbit(values))},
            {"satellite's internal crossing time", std::sqrt(std::pow(kSatelliteRadius, 3) / satelliteMass)}};
}

void samplePlummerInto(Bodies& out, std::size_t first, std::size_t count, std::uint64_t seed,
                       const PlummerSphere& sphere, double colourScale, double colourOffset) {
    const double bodyMass = count > 0 ? sphere.mass / double(count) : 0.0;
    for (std::size_t k = 0; k < count; ++k) {
        RandomStream random(seed, k);
        BodyState body = samplePlummerBody(random, sphere, bodyMass, 1.0);
        body.colorKey = colourOffset + colourScale * body.colorKey;
        storeBody(out, first + k, body);
    }
    removeCentreOfMassMotion(out, first, count);
}

void generateSatelliteStream(Bodies& out, std::size_t bodyCount, std::uint64_t seed, const ScenarioParams& values) {
    out.resize(bodyCount);
    const std::size_t satelliteCount = bodyCount / 4;
    const std::size_t hostCount = bodyCount - satelliteCount;
    samplePlummerInto(out, 0, hostCount, deriveSeed(seed, kHostTag), {kHostRadius, 1.0}, 0.5, 0.0);
    samplePlummerInto(out, hostCount, satelliteCount, deriveSeed(seed, kSatelliteTag),
                      {kSatelliteRadius, parameterValue(values, "satellite-mass")}, 0.0, 0.9);
    const SatelliteOrbit orbit = satelliteOrbit(values);
    constexpr std::array<Vec3d, 3> kIdentity{Vec3d{1, 0, 0}, Vec3d{0, 1, 0}, Vec3d{0, 0, 1}};
    transformBodies(out, hostCount, satelliteCount, kIdentity, {orbit.apocentre, 0.0, 0.0},
                    {0.0, orbit.angularMomentum / orbit.apocentre, 0.0});
    removeCentreOfMassMotion(out, 0, bodyCount);
}

} // namespace

Scenario satelliteStreamScenario() {
    return {"satellite-stream",
            "a small satellite on an eccentric orbit in a massive host, torn into a stream",
            "A dwarf galaxy (the satellite) orbits inside the dark halo of a big galaxy (the host, a Plummer sphere "
            "100 times heavier by default). Each time it swings through pericentre, the host's tides pull its outer "
            "stars off, and they keep orbiting on nearly the satellite's path.",
            "Stars lost towards the host run ahead (they are on smaller, faster orbits) and those lost outwards fall "
            "behind: a leading and a trailing stream grow along the orbit after each pericentre passage, and the "
            "satellite's core shrinks. Compare the stream's growth with the radial orbital period.",
            kParameters,
            {32768, 0.005, 0.02, "tree", 2},
            satelliteStreamTimeScales,
            generateSatelliteStream};
}

} // namespace gravlab::scenario
