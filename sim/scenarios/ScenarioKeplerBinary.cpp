// Scenario "kepler-binary": two bodies on a Keplerian ellipse, with massless test bodies on circular orbits around
// the pair.
//
// Design note: the two stars have total mass 1 (G = 1), masses 1 / (1 + q) and q / (1 + q) for the mass ratio q,
// and start at pericentre of the relative ellipse of the chosen eccentricity e and period T, whose semi-major axis is
// a = (T / 2 pi)^(2/3) (Kepler's third law). Each star sits at its share of the separation from the centre of mass,
// which is at the origin and at rest. Bodies beyond the first two are tracers on circular orbits about the centre of
// mass, together kTracerMass = 1e-6 of the total (the stars hold the rest; every body keeps a positive mass, which
// the solvers and files assume), uniform in radius from 2.5 to 5 times the apocentre distance a (1 + e), in the orbital
// plane: they show the binary's time-varying quadrupole field without disturbing it measurably (a circumbinary ring).
// With fewer than two bodies only the primary is placed. colorKey: the stars 0.1 and 0.9, the tracers 0.5.
#include "scenarios/ScenarioGenerators.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace gravlab::scenario {
namespace {

constexpr std::uint64_t kBinaryTag = 0x62696e617279ull; // "binary"

constexpr ScenarioParameter kParameters[]{
    {"eccentricity", 0.5, 0.0, 0.95, "eccentricity of the relative orbit"},
    {"period", 2.0 * std::numbers::pi, 0.5, 100.0, "orbital period, time units (2 pi: semi-major axis 1)"},
    {"mass-ratio", 1.0, 0.01, 1.0, "mass of the secondary over the primary's (total mass 1)"},
};

std::vector<NamedTime> keplerBinaryTimeScales(const ScenarioParams& values) {
    const double period = parameterValue(values, "period");
    const double e = parameterValue(values, "eccentricity");
    // Kepler's second law: near pericentre the angle sweeps fastest; the time from one side of pericentre to the
    // other (true anomaly -90 to 90 degrees) is T / pi (E - e sin E) with cos E = e: the pericentre passage.
    const double eccentricAnomaly = std::acos(e);
    return {{"orbital period", period},
            {"pericentre passage (true anomaly -90 to +90 degrees)",
             period / std::numbers::pi * (eccentricAnomaly - e * std::sin(eccentricAnomaly))}};
}

void generateKeplerBinary(Bodies& out, std::size_t bodyCount, std::uint64_t seed, const ScenarioParams& values) {
    out.resize(bodyCount);
    const double e = parameterValue(values, "eccentricity");
    const double q = parameterValue(values, "mass-ratio");
    const double period = parameterValue(values, "period");
    const double a = keplerSemiMajorAxis(1.0, period);
    const double starMass = bodyCount > 2 ? 1.0 - kTracerMass : 1.0;
    const double primaryMass = starMass / (1.0 + q), secondaryMass = starMass * q / (1.0 + q);
    const RelativeState relative = keplerPericentre(starMass, keplerSemiMajorAxis(starMass, period), e, 0.0);
    const auto share = [&relative](double factor) {
        return BodyState{{factor * relative.position[0], factor * relative.position[1], 0.0},
                         {factor * relative.velocity[0], factor * relative.velocity[1], 0.0},
                         0.0,
                         0.0};
    };
    if (bodyCount >= 1) {
        BodyState primary = bodyCount >= 2 ? share(-secondaryMass / starMass) : BodyState{{0, 0, 0}, {0, 0, 0}, 0, 0};
        primary.mass = bodyCount >= 2 ? primaryMass : starMass;
        primary.colorKey = 0.1;
        storeBody(out, 0, primary);
    }
    if (bodyCount >= 2) {
        BodyState secondary = share(primaryMass / starMass);
        secondary.mass = secondaryMass;
        secondary.colorKey = 0.9;
        storeBody(out, 1, secondary);
    }
    if (bodyCount > 2)
        placeCircularTracers(out, 2, deriveSeed(seed, kBinaryTag), 2.5 * a * (1.0 + e), 1.0, 0.5);
}

} // namespace

Scenario keplerBinaryScenario() {
    return {"kepler-binary",
            "two stars on a Keplerian ellipse, with a ring of massless tracers around them",
            "Two stars bound to each other move on ellipses about their common centre of mass, exactly as Kepler "
            "found for the planets: the orbit closes after one period. Extra bodies are massless tracers circling "
            "the pair, feeling its gravity without pulling back.",
            "The stars speed up at pericentre and crawl at apocentre (equal areas in equal times); the orbit should "
            "close on itself after each period, a test of the time step. The tracers' ring is stirred by the "
            "binary's changing field, most strongly in its inner part.",
            kParameters,
            {1024, 0.001, 0.001, "direct", 10},
            keplerBinaryTimeScales,
            generateKeplerBinary};
}

} // namespace gravlab::scenario
