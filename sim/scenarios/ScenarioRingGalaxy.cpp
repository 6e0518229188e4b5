// Scenario "ring-galaxy": a compact companion falls through the centre of a disk galaxy along its axis, and the
// disk answers with expanding rings (the Cartwheel galaxy; Lynds & Toomre 1976, ApJ 209, 382).
//
// Design note: the target is the "disk-galaxy" model (mass 1, Toomre Q 1.5) in the x-y plane; the companion a
// Plummer sphere of the chosen mass q and scale radius kCompanionRadius, sampled from its distribution function. It
// starts kStartHeight = 6 disk scale lengths above the disk, displaced sideways by the chosen offset, moving straight
// down at the parabolic speed of two point masses, sqrt(2 G (1 + q) / d), so it reaches the disk after about
// t = (2/3) d^(3/2) / sqrt(2 G (1 + q)) (radial parabolic fall). The sudden deepening and release of the potential
// as it passes makes every ring of stars fall inwards and rebound at once; the rebounds crowd into a density wave
// moving outwards. Bodies are shared in proportion to mass (the companion gets floor(N q / (1 + q))), so all bodies
// weigh about the same. The centre of mass of the scene is at the origin and at rest. Colours: the disk 0.1-0.6, the
// bulge 0.7, the companion 0.95.
#include "scenarios/DiskGalaxyModel.hpp"
#include "scenarios/ScenarioGenerators.hpp"

#include <array>
#include <cmath>
#include <numbers>

namespace gravlab::scenario {
namespace {

constexpr double kStartHeight = 6.0;
constexpr double kCompanionRadius = 0.2;
constexpr std::uint64_t kTargetTag = 0x746172676574ull;    // "target"
constexpr std::uint64_t kCompanionTag = 0x636f6d70616eull; // "compan"

constexpr ScenarioParameter kParameters[]{
    {"companion-mass", 0.5, 0.05, 1.0, "mass of the companion over the disk galaxy's (1)"},
    {"offset", 0.0, 0.0, 2.0, "sideways offset of the impact from the disk's centre, disk scale lengths"},
};

double fallSpeed(double companionMass) {
    return std::sqrt(2.0 * (1.0 + companionMass) / kStartHeight);
}

std::vector<NamedTime> ringGalaxyTimeScales(const ScenarioParams& values) {
    const double totalMass = 1.0 + parameterValue(values, "companion-mass");
    const DiskGalaxyKinematics kinematics(DiskGalaxyModel{});
    return {{"fall to the disk (point masses)", 2.0 / 3.0 * std::pow(kStartHeight, 1.5) / std::sqrt(2.0 * totalMass)},
            {"rotation period at 2 scale lengths (rings move out over about one)",
             2.0 * std::numbers::pi * 2.0 / std::sqrt(kinematics.circularSpeedSquared(2.0, 0.0))}};
}

void generateRingGalaxy(Bodies& out, std::size_t bodyCount, std::uint64_t seed, const ScenarioParams& values) {
    const double companionMass = parameterValue(values, "companion-mass");
    const auto companionCount = std::size_t(std::floor(double(bodyCount) * companionMass / (1.0 + companionMass)));
    const std::size_t targetCount = bodyCount - companionCount;
    out.resize(bodyCount);
    const DiskGalaxyModel model;
    const std::size_t bulgeCount = bulgeBodyCount(model, targetCount);
    sampleDiskGalaxy(model, {0.1, 0.6, 0.7}, deriveSeed(seed, kTargetTag), targetCount - bulgeCount, bulgeCount, 0,
                     out);
    const std::uint64_t companionSeed = deriveSeed(seed, kCompanionTag);
    const double bodyMass = companionCount > 0 ? companionMass / double(companionCount) : 0.0;
    for (std::size_t k = 0; k < companionCount; ++k) {
        RandomStream random(companionSeed, k);
        BodyState body = samplePlummerBody(random, {kCompanionRadius, companionMass}, bodyMass, 1.0);
        body.colorKey = 0.95;
        storeBody(out, targetCount + k, body);
    }
    removeCentreOfMassMotion(out, targetCount, companionCount);
    const double offset = parameterValue(values, "offset");
    constexpr std::array<Vec3d, 3> kIdentity{Vec3d{1, 0, 0}, Vec3d{0, 1, 0}, Vec3d{0, 0, 1}};
    transformBodies(out, targetCount, companionCount, kIdentity, {offset, 0.0, kStartHeight},
                    {0.0, 0.0, -fallSpeed(companionMass)});
    removeCentreOfMassMotion(out, 0, bodyCount);
}

} // namespace

Scenario ringGalaxyScenario() {
    return {"ring-galaxy",
            "a compact companion falls through a disk's centre: expanding rings (a Cartwheel)",
            "A small, dense galaxy falls face-on through the middle of a disk galaxy. For a moment the disk stars feel "
            "a much deeper pull towards the centre, then it is gone; every star swings inwards and back out, and "
            "since stars at different radii swing with different periods their rebounds pile up into rings.",
            "After the companion passes (see the fall time), a bright ring forms near the centre and travels "
            "outwards, followed by a second one; the companion flies on out the other side. With an offset the rings "
            "are lopsided, as in the Cartwheel galaxy.",
            kParameters,
            {65536, 0.01, 0.05, "tree", 1},
            ringGalaxyTimeScales,
            generateRingGalaxy};
}

} // namespace gravlab::scenario
