// Scenario "plummer": a Plummer sphere in Henon units, sampled from its distribution function.
//
// Design note: Henon units (G = 1, M = 1, E = -1/4) put the Plummer scale radius at a = 3 pi / 16, so the virial
// radius is 1. Following Aarseth, Henon & Wielen (1974, A&A 37, 183):
//   radius   invert the cumulative mass M(r) = r^3 / (r^2 + a^2)^(3/2) at a uniform X: r = a / sqrt(X^(-2/3) - 1);
//   speed    v = q v_esc(r), v_esc = sqrt(2) (r^2 + a^2)^(-1/4), with q drawn from g(q) = q^2 (1 - q^2)^(7/2) by
//            von Neumann rejection under the bound 0.1 (max g = 0.0922 at q^2 = 2/9);
//   directions of position and velocity isotropic and independent.
// Masses are equal (1/N); the centre of mass and its velocity are removed. The sphere is truncated at 99.9% of its mass
// (38.7 a, kPlummerMassTruncation): inside that radius the sample follows the analytic profile scaled by 1 / 0.999.
// colorKey is the enclosed mass fraction X, so colour runs from the core (0) to the halo (1).
#include "core/Parallel.hpp"
#include "scenarios/ScenarioGenerators.hpp"

#include <cmath>
#include <numbers>

namespace gravlab::scenario {
namespace {

constexpr double kScaleRadius = 3.0 * std::numbers::pi / 16.0;
constexpr std::uint64_t kPlummerTag = 0x706c756d6d6572ull; // "plummer"

/// Speed in units of the local escape speed, from g(q) = q^2 (1 - q^2)^(7/2) (rejection sampling).
double sampleSpeedFraction(RandomStream& random) {
    for (;;) {
        const double q = random.uniform();
        const double height = 0.1 * random.uniform();
        if (height < q * q * std::pow(1.0 - q * q, 3.5))
            return q;
    }
}

BodyState samplePlummerBody(std::uint64_t seed, std::size_t index, double mass) {
    RandomStream random(seed, index);
    const double massFraction = samplePlummerMassFraction(random);
    const double radius = plummerRadius(kScaleRadius, massFraction);
    const double escapeSpeed = std::sqrt(2.0) * std::pow(radius * radius + kScaleRadius * kScaleRadius, -0.25);
    const double speed = sampleSpeedFraction(random) * escapeSpeed;
    const Vec3d where = isotropicDirection(random);
    const Vec3d heading = isotropicDirection(random);
    return {{radius * where[0], radius * where[1], radius * where[2]},
            {speed * heading[0], speed * heading[1], speed * heading[2]},
            mass,
            massFraction};
}

} // namespace

void generatePlummer(Bodies& out, std::size_t bodyCount, std::uint64_t seed) {
    out.resize(bodyCount);
    const std::uint64_t plummerSeed = deriveSeed(seed, kPlummerTag);
    const double mass = 1.0 / double(bodyCount);
    const auto count = std::int64_t(bodyCount);
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelSampling)
    for (std::int64_t i = 0; i < count; ++i)
        storeBody(out, std::size_t(i), samplePlummerBody(plummerSeed, std::size_t(i), mass));
    removeCentreOfMassMotion(out, 0, bodyCount);
}

} // namespace gravlab::scenario
