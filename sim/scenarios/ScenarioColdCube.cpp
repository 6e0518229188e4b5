// Scenario "cold-cube": a uniform cube of equal-mass bodies at rest, which collapses.
//
// Design note: bodies are uniform in [-1, 1]^3 (side 2, so density 1/8 for total mass 1 and a free-fall time
// sqrt(3 pi / (32 G rho)) = 1.53 time units). Velocities are zero; the centre of mass is moved to the origin.
// colorKey is the distance from the centre over the corner distance sqrt(3), so colour shows how layers mix.
#include "scenarios/ScenarioGenerators.hpp"

#include <cmath>
#include <numbers>

namespace gravlab::scenario {
namespace {

constexpr double kHalfSide = 1.0;
constexpr std::uint64_t kColdCubeTag = 0x636f6c642d63756bull; // "cold-cub"

std::vector<NamedTime> coldCubeTimeScales(const ScenarioParams&) {
    const double density = 1.0 / std::pow(2.0 * kHalfSide, 3);
    return {{"free-fall time of the mean density", std::sqrt(3.0 * std::numbers::pi / (32.0 * density))}};
}

PlacedBody placeInCube(RandomStream& random) {
    const Vec3d position{random.uniform(-kHalfSide, kHalfSide), random.uniform(-kHalfSide, kHalfSide),
                         random.uniform(-kHalfSide, kHalfSide)};
    const double distance =
        std::sqrt(position[0] * position[0] + position[1] * position[1] + position[2] * position[2]);
    return {position, distance / (std::sqrt(3.0) * kHalfSide)};
}

void generateColdCube(Bodies& out, std::size_t bodyCount, std::uint64_t seed, const ScenarioParams&) {
    sampleBodiesAtRest(out, bodyCount, deriveSeed(seed, kColdCubeTag), placeInCube);
}

} // namespace

Scenario coldCubeScenario() {
    return {"cold-cube",
            "uniform cube of bodies at rest that collapses",
            "A cube of equal-mass bodies at rest. Nothing holds it up, so it falls in on itself; its corners, "
            "farther from the centre, arrive later than its faces.",
            "The cube turns into a rounded, flattened cloud and then a star-shaped collapse along the diagonals; "
            "after the bounce the layers (colours) mix and a roughly spherical, hot remnant forms.",
            {},
            {8192, 0.005, 0.05, "tree", 2},
            coldCubeTimeScales,
            generateColdCube};
}

} // namespace gravlab::scenario
