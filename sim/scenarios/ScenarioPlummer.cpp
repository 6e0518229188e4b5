// Scenario "plummer": a Plummer sphere in Henon units, sampled from its distribution function, hot or cold.
//
// Design note: Henon units (G = 1, M = 1, E = -1/4) put the Plummer scale radius at a = 3 pi / 16, so the virial
// radius is 1. Following Aarseth, Henon & Wielen (1974, A&A 37, 183):
//   radius   invert the cumulative mass M(r) = r^3 / (r^2 + a^2)^(3/2) at a uniform X: r = a / sqrt(X^(-2/3) - 1);
//   speed    v = q v_esc(r), v_esc = sqrt(2) (r^2 + a^2)^(-1/4), with q drawn from g(q) = q^2 (1 - q^2)^(7/2) by
//            von Neumann rejection under the bound 0.1 (max g = 0.0922 at q^2 = 2/9);
//   directions of position and velocity isotropic and independent.
// The parameter virial-ratio Q = 2K/|W| scales every velocity by sqrt(Q) (K scales by Q, W stays): Q = 1 is the
// equilibrium sample, Q < 1 a cold start that collapses and virialises, Q > 1 a hot one that expands and loses its
// unbound bodies. Masses are equal (1/N); the centre of mass and its velocity are removed. The sphere is truncated
// at 99.9% of its mass (38.7 a, kPlummerMassTruncation): inside that radius the sample follows the analytic profile
// scaled by 1 / 0.999. colorKey is the enclosed mass fraction X, so colour runs from the core (0) to the halo (1).
#include "core/Parallel.hpp"
#include "scenarios/ScenarioGenerators.hpp"

#include <cmath>
#include <numbers>

namespace gravlab::scenario {
namespace {

constexpr double kScaleRadius = 3.0 * std::numbers::pi / 16.0;
constexpr std::uint64_t kPlummerTag = 0x706c756d6d6572ull; // "plummer"

constexpr ScenarioParameter kParameters[]{
    {"virial-ratio", 1.0, 0.0, 3.0, "2K/|W| of the start: 1 equilibrium, below 1 cold (collapses), above 1 hot"},
};

std::vector<NamedTime> plummerTimeScales(const ScenarioParams& values) {
    // Henon units: crossing time G M^(5/2) / (2|E|)^(3/2) = 2 sqrt(2); central density 3 M / (4 pi a^3).
    const double centralDensity = 3.0 / (4.0 * std::numbers::pi * std::pow(kScaleRadius, 3));
    std::vector<NamedTime> times{
        {"crossing time", 2.0 * std::sqrt(2.0)},
        {"central free-fall time", std::sqrt(3.0 * std::numbers::pi / (32.0 * centralDensity))}};
    if (parameterValue(values, "virial-ratio") < 1.0)
        times.push_back({"free-fall time at the half-mass radius (the cold collapse)",
                         std::numbers::pi / 2.0 * std::sqrt(std::pow(1.305 * kScaleRadius, 3) / (2.0 * 0.5))});
    return times;
}

void generatePlummer(Bodies& out, std::size_t bodyCount, std::uint64_t seed, const ScenarioParams& values) {
    out.resize(bodyCount);
    const double speedScale = std::sqrt(parameterValue(values, "virial-ratio"));
    const std::uint64_t plummerSeed = deriveSeed(seed, kPlummerTag);
    const double mass = 1.0 / double(bodyCount);
    const auto count = std::int64_t(bodyCount);
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelSampling)
    for (std::int64_t i = 0; i < count; ++i) {
        RandomStream random(plummerSeed, std::uint64_t(i));
        storeBody(out, std::size_t(i), samplePlummerBody(random, {kScaleRadius, 1.0}, mass, speedScale));
    }
    removeCentreOfMassMotion(out, 0, bodyCount);
}

} // namespace

Scenario plummerScenario() {
    return {"plummer",
            "Plummer sphere (Henon units), in equilibrium or hot or cold by its virial ratio",
            "A star cluster: a Plummer sphere of equal-mass stars sampled from its distribution function. With the "
            "virial ratio 2K/|W| = 1 it is in equilibrium and should keep its shape; a cold start (ratio below 1) "
            "falls inwards and rebounds, a hot one (above 1) expands.",
            "At ratio 1 the density profile stays put for many crossing times (a test of the solver). Cold: the "
            "collapse, a bounce and violent relaxation into a new, more concentrated equilibrium. Hot: an expanding "
            "halo of escaping stars around a bound core.",
            kParameters,
            {16384, 0.01, 0.05, "tree", 1},
            plummerTimeScales,
            generatePlummer};
}

} // namespace gravlab::scenario
