// Scenario "galaxy-collision" (the default scene): two disk galaxies on a parabolic collision course.
//
// Design note: galaxy A is the "disk-galaxy" model with total mass 1; galaxy B the same model scaled to the mass
// ratio q = M_B / M_A, its lengths by sqrt(q) (a constant mean surface density). The bodies are shared in proportion
// to mass, B getting floor(N q / (1 + q)) (floor(N/2) for equal masses), so bodies have nearly equal masses and N is
// honoured exactly. Their centres start kStartSeparation = 10 disk scale lengths apart on the parabolic
// two-point-mass orbit with the chosen pericentre r_p (default 3), reached after t = sqrt(p^3 / (G M)) (D + D^3 / 3)
// / 2 (Barker's equation, p = 2 r_p, D = tan(f / 2), M = M_A + M_B: 14.1 time units by default); the disks overlap
// noticeably from t ~ 10. A spins 20 degrees from the orbital plane (prograde, the configuration that throws long
// tidal tails), B is inclined by the chosen angle (default 60 degrees) about a perpendicular axis. Both disks have
// the chosen Toomre Q, so each alone would stay a disk.
// Colours: A's disk 0.1-0.3 and bulge 0.4, B's disk 0.6-0.8 and bulge 0.9. The centre of mass of the scene is at the
// origin and at rest.
#include "scenarios/DiskGalaxyModel.hpp"
#include "scenarios/ScenarioGenerators.hpp"

#include <cmath>
#include <numbers>

namespace gravlab::scenario {
namespace {

constexpr double kStartSeparation = 10.0;
constexpr double kDegree = std::numbers::pi / 180.0;
constexpr double kInclinationA = 20.0 * kDegree;
constexpr double kNodeB = 90.0 * std::numbers::pi / 180.0;
constexpr std::uint64_t kGalaxyATag = 0x67616c61787941ull; // "galaxyA"
constexpr std::uint64_t kGalaxyBTag = 0x67616c61787942ull; // "galaxyB"

struct RelativeOrbit {
    Vec3d separation; ///< position of B relative to A
    Vec3d velocity;   ///< velocity of B relative to A
};

/// Incoming parabolic orbit of two point masses with total mass totalMass (G = 1), in the x-y plane, with orbital
/// angular momentum along +z.
RelativeOrbit incomingParabola(double totalMass, double pericentre) {
    const double semiLatusRectum = 2.0 * pericentre;
    const double trueAnomaly = -std::acos(semiLatusRectum / kStartSeparation - 1.0);
    const double speedScale = std::sqrt(totalMass / semiLatusRectum);
    return {{kStartSeparation * std::cos(trueAnomaly), kStartSeparation * std::sin(trueAnomaly), 0.0},
            {-speedScale * std::sin(trueAnomaly), speedScale * (1.0 + std::cos(trueAnomaly)), 0.0}};
}

/// Rotation by `inclination` about the axis (cos node, sin node, 0), which tilts a disk spinning about +z.
std::array<Vec3d, 3> diskOrientation(double inclination, double node) {
    const double ci = std::cos(inclination), si = std::sin(inclination);
    const double cn = std::cos(node), sn = std::sin(node);
    // Rodrigues' formula: R = cos(i) I + sin(i) [k]x + (1 - cos(i)) k k^T.
    return {Vec3d{ci + cn * cn * (1 - ci), cn * sn * (1 - ci), sn * si},
            Vec3d{cn * sn * (1 - ci), ci + sn * sn * (1 - ci), -cn * si}, Vec3d{-sn * si, cn * si, ci}};
}

constexpr ScenarioParameter kParameters[]{
    {"mass-ratio", 1.0, 0.1, 1.0, "mass of galaxy B over galaxy A's (1); B's size scales with its square root"},
    {"pericentre", 3.0, 0.5, 10.0, "closest approach of the parabolic orbit, disk scale lengths"},
    {"inclination", 60.0, 0.0, 180.0, "tilt of galaxy B's disk from the orbital plane, degrees (above 90: retrograde)"},
    {"toomre-q", 1.5, 0.3, 4.0, "Toomre Q of both disks (stability; see disk-galaxy)"},
};

/// Galaxy A's model (mass 1) scaled to mass ratio q, lengths by sqrt(q).
DiskGalaxyModel scaledModel(DiskGalaxyModel model, double massRatio) {
    const double lengthScale = std::sqrt(massRatio);
    model.diskMass *= massRatio;
    model.bulgeMass *= massRatio;
    model.diskScaleLength *= lengthScale;
    model.diskScaleHeight *= lengthScale;
    model.bulgeScaleRadius *= lengthScale;
    return model;
}

std::vector<NamedTime> galaxyCollisionTimeScales(const ScenarioParams& values) {
    const double totalMass = 1.0 + parameterValue(values, "mass-ratio");
    const double pericentre = parameterValue(values, "pericentre");
    const double semiLatusRectum = 2.0 * pericentre;
    const double halfAnomalyTangent = std::tan(0.5 * std::acos(semiLatusRectum / kStartSeparation - 1.0));
    const double toPericentre = 0.5 * std::sqrt(std::pow(semiLatusRectum, 3) / totalMass) *
                                (halfAnomalyTangent + std::pow(halfAnomalyTangent, 3) / 3.0);
    DiskGalaxyModel model;
    model.toomreQ = parameterValue(values, "toomre-q");
    const DiskGalaxyKinematics kinematics(model);
    return {{"first pericentre passage", toPericentre},
            {"rotation period of galaxy A at 2 scale lengths",
             2.0 * std::numbers::pi * 2.0 / std::sqrt(kinematics.circularSpeedSquared(2.0, 0.0))}};
}

void generateGalaxyCollision(Bodies& out, std::size_t bodyCount, std::uint64_t seed, const ScenarioParams& values) {
    DiskGalaxyModel model;
    model.toomreQ = parameterValue(values, "toomre-q");
    const double massRatio = parameterValue(values, "mass-ratio");
    const DiskGalaxyModel modelB = scaledModel(model, massRatio);
    const auto countB = std::size_t(std::floor(double(bodyCount) * massRatio / (1.0 + massRatio)));
    const std::size_t countA = bodyCount - countB;
    out.resize(bodyCount);
    const std::size_t bulgeA = bulgeBodyCount(model, countA);
    const std::size_t bulgeB = bulgeBodyCount(modelB, countB);
    sampleDiskGalaxy(model, {0.1, 0.3, 0.4}, deriveSeed(seed, kGalaxyATag), countA - bulgeA, bulgeA, 0, out);
    sampleDiskGalaxy(modelB, {0.6, 0.8, 0.9}, deriveSeed(seed, kGalaxyBTag), countB - bulgeB, bulgeB, countA, out);

    const double massA = countA > 0 ? model.diskMass + model.bulgeMass : 0.0;
    const double massB = countB > 0 ? modelB.diskMass + modelB.bulgeMass : 0.0;
    const double totalMass = massA + massB;
    const RelativeOrbit orbit = incomingParabola(totalMass, parameterValue(values, "pericentre"));
    // Each galaxy moves opposite to the other in proportion to the other's mass, so the centre of mass stays put.
    const double shareA = -massB / totalMass, shareB = massA / totalMass;
    const auto scaled = [](const Vec3d& v, double factor) {
        return Vec3d{v[0] * factor, v[1] * factor, v[2] * factor};
    };
    transformBodies(out, 0, countA, diskOrientation(kInclinationA, 0.0), scaled(orbit.separation, shareA),
                    scaled(orbit.velocity, shareA));
    transformBodies(out, countA, countB, diskOrientation(parameterValue(values, "inclination") * kDegree, kNodeB),
                    scaled(orbit.separation, shareB), scaled(orbit.velocity, shareB));
    removeCentreOfMassMotion(out, 0, bodyCount);
}

} // namespace

Scenario galaxyCollisionScenario() {
    return {"galaxy-collision",
            "two disk galaxies on a parabolic collision course (the default scene)",
            "Two spiral galaxies (disk and bulge each, like disk-galaxy) fall towards each other on a parabolic orbit, "
            "the way the Milky Way and Andromeda will. Galaxy A spins nearly in the orbital plane and in the same "
            "sense as the orbit; galaxy B is tilted by the inclination parameter.",
            "Before the first pericentre passage the disks rotate quietly. At the passage tides pull long, thin "
            "tidal tails and bridges out of the prograde disk (A) while the tilted one (B) is puffed up; the galaxies "
            "fall back, pass again and merge into one hot, rounder remnant. Lower the mass ratio for a minor merger.",
            kParameters,
            {65536, 0.01, 0.05, "tree", 1},
            galaxyCollisionTimeScales,
            generateGalaxyCollision};
}

} // namespace gravlab::scenario
