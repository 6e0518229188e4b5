// Scenario "cold-sphere": a uniform sphere of equal-mass bodies at rest, the textbook free-fall collapse.
//
// Design note: bodies are uniform in a ball of radius R = 1 (total mass 1, G = 1): r = R u^(1/3) with an isotropic
// direction. Every shell of a uniform sphere at rest reaches the centre at the same time, the free-fall time
// t_ff = (pi / 2) sqrt(R^3 / (2 G M)) = 1.11 time units, so the whole sphere collapses at once; in an N-body run the
// collapse is softened by the discreteness and the softening length, and the sphere bounces into a hot remnant.
// colorKey is r / R, so colour shows how layers mix in the bounce.
#include "scenarios/ScenarioGenerators.hpp"

#include <cmath>
#include <numbers>

namespace gravlab::scenario {
namespace {

constexpr double kRadius = 1.0;
constexpr std::uint64_t kColdSphereTag = 0x636f6c642d737068ull; // "cold-sph"

std::vector<NamedTime> coldSphereTimeScales(const ScenarioParams&) {
    return {{"free-fall time", std::numbers::pi / 2.0 * std::sqrt(kRadius * kRadius * kRadius / 2.0)}};
}

PlacedBody placeInBall(RandomStream& random) {
    const double radius = kRadius * std::cbrt(random.uniform());
    const Vec3d where = isotropicDirection(random);
    return {{radius * where[0], radius * where[1], radius * where[2]}, radius / kRadius};
}

void generateColdSphere(Bodies& out, std::size_t bodyCount, std::uint64_t seed, const ScenarioParams&) {
    sampleBodiesAtRest(out, bodyCount, deriveSeed(seed, kColdSphereTag), placeInBall);
}

} // namespace

Scenario coldSphereScenario() {
    return {"cold-sphere",
            "uniform sphere at rest: the free-fall collapse",
            "A uniform ball of equal-mass bodies at rest. A uniform sphere has the remarkable property that every "
            "shell reaches the centre at the same moment, the free-fall time t_ff = (pi/2) sqrt(R^3 / 2GM).",
            "The ball shrinks slowly at first and then ever faster, reaching its smallest size near t_ff; then it "
            "bounces into a hot, centrally concentrated remnant with a halo of bodies thrown out.",
            {},
            {8192, 0.002, 0.02, "tree", 4},
            coldSphereTimeScales,
            generateColdSphere};
}

} // namespace gravlab::scenario
