// Scenario "galaxy-collision" (the default scene): two disk galaxies on a parabolic collision course.
//
// Design note: galaxy A gets ceil(N/2) bodies and galaxy B floor(N/2), so N is honoured exactly; each is the
// "disk-galaxy" model with total mass 1 (so the scene's total mass is 2). Their centres start kStartSeparation = 10
// disk scale lengths apart on the parabolic two-point-mass orbit with pericentre kPericentre = 3, reached after
// t = sqrt(p^3 / (G M)) (D + D^3 / 3) / 2 = 14.1 time units (Barker's equation, p = 2 r_p, D = tan(f / 2),
// M = M_A + M_B = 2); the disks overlap noticeably from t ~ 10. A spins 20 degrees from the orbital plane
// (prograde, the configuration that throws long tidal tails), B is inclined by 60 degrees about a perpendicular axis.
// Colours: A's disk 0.1-0.3 and bulge 0.4, B's disk 0.6-0.8 and bulge 0.9. The centre of mass of the scene is at the
// origin and at rest.
#include "scenarios/DiskGalaxyModel.hpp"
#include "scenarios/ScenarioGenerators.hpp"

#include <cmath>
#include <numbers>

namespace gravlab::scenario {
namespace {

constexpr double kPericentre = 3.0;
constexpr double kStartSeparation = 10.0;
constexpr double kInclinationA = 20.0 * std::numbers::pi / 180.0;
constexpr double kInclinationB = 60.0 * std::numbers::pi / 180.0;
constexpr double kNodeB = 90.0 * std::numbers::pi / 180.0;
constexpr std::uint64_t kGalaxyATag = 0x67616c61787941ull; // "galaxyA"
constexpr std::uint64_t kGalaxyBTag = 0x67616c61787942ull; // "galaxyB"

struct RelativeOrbit {
    Vec3d separation; ///< position of B relative to A
    Vec3d velocity;   ///< velocity of B relative to A
};

/// Incoming parabolic orbit of two point masses with total mass totalMass (G = 1), in the x-y plane, with orbital
/// angular momentum along +z.
RelativeOrbit incomingParabola(double totalMass) {
    const double semiLatusRectum = 2.0 * kPericentre;
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

} // namespace

void generateGalaxyCollision(Bodies& out, std::size_t bodyCount, std::uint64_t seed) {
    const DiskGalaxyModel model;
    const std::size_t countA = (bodyCount + 1) / 2;
    const std::size_t countB = bodyCount / 2;
    out.resize(bodyCount);
    const std::size_t bulgeA = bulgeBodyCount(model, countA);
    const std::size_t bulgeB = bulgeBodyCount(model, countB);
    sampleDiskGalaxy(model, {0.1, 0.3, 0.4}, deriveSeed(seed, kGalaxyATag), countA - bulgeA, bulgeA, 0, out);
    sampleDiskGalaxy(model, {0.6, 0.8, 0.9}, deriveSeed(seed, kGalaxyBTag), countB - bulgeB, bulgeB, countA, out);

    const double massA = countA > 0 ? model.diskMass + model.bulgeMass : 0.0;
    const double massB = countB > 0 ? model.diskMass + model.bulgeMass : 0.0;
    const double totalMass = massA + massB;
    const RelativeOrbit orbit = incomingParabola(totalMass);
    // Each galaxy moves opposite to the other in proportion to the other's mass, so the centre of mass stays put.
    const double shareA = -massB / totalMass, shareB = massA / totalMass;
    const auto scaled = [](const Vec3d& v, double factor) {
        return Vec3d{v[0] * factor, v[1] * factor, v[2] * factor};
    };
    transformBodies(out, 0, countA, diskOrientation(kInclinationA, 0.0), scaled(orbit.separation, shareA),
                    scaled(orbit.velocity, shareA));
    transformBodies(out, countA, countB, diskOrientation(kInclinationB, kNodeB), scaled(orbit.separation, shareB),
                    scaled(orbit.velocity, shareB));
    removeCentreOfMassMotion(out, 0, bodyCount);
}

} // namespace gravlab::scenario
