#pragma once
// Internal to the scenario registry: the generator functions and the helpers they share.
//
// Design note: each scenario's file holds its generator, which fills all of `out` (resized to bodyCount), and its
// gallery entry (a function returning its Scenario row); the registry in Scenarios.cpp only lists them. Generators give
// every body its own RandomStream, so a body's sample depends only on (seed, body index) and loops may run in parallel.
// Positions and velocities are computed in double and stored as float.
#include "core/Random.hpp"

#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gravlab::scenario {

Scenario galaxyCollisionScenario();
Scenario diskGalaxyScenario();
Scenario ringGalaxyScenario();
Scenario satelliteStreamScenario();
Scenario plummerScenario();
Scenario coldSphereScenario();
Scenario coldCubeScenario();
Scenario keplerBinaryScenario();
Scenario planetarySystemScenario();

/// The value of a parameter in complete values (Scenarios.hpp); a missing one is a programming error.
double parameterValue(const ScenarioParams& values, std::string_view name);

using Vec3d = std::array<double, 3>;

struct BodyState {
    Vec3d position;
    Vec3d velocity;
    double mass;
    double colorKey;
};

void storeBody(Bodies& bodies, std::size_t index, const BodyState& body);

/// Unit vector uniformly distributed over the sphere.
Vec3d isotropicDirection(RandomStream& random);

/// Plummer samples (the plummer scenario, the disk galaxy's bulge) draw their enclosed mass fraction from
/// (0, kPlummerMassTruncation], so no body lies beyond 38.7 scale radii. Untruncated, a body lies beyond R with
/// probability 1.5 (a / R)^2: among 10^5 bodies one beyond 10^3 a turns up in one sample in seven, and one beyond
/// 10^4 a in one in 700; such a body alone moves the centre of mass, and with it every other body, by 0.06 of the
/// virial radius (a seed of the profile test found one), and it stretches every bounding box (the tree's root, ORB's
/// root, the camera's framing).
inline constexpr double kPlummerMassTruncation = 0.999;
/// A uniform enclosed mass fraction in (0, kPlummerMassTruncation].
double samplePlummerMassFraction(RandomStream& random);
/// The radius enclosing massFraction of a Plummer sphere of this scale radius a: M(r) = r^3 / (r^2 + a^2)^(3/2)
/// inverted.
double plummerRadius(double scaleRadius, double massFraction);

struct PlummerSphere {
    double scaleRadius;
    double mass;
};
/// One body of a Plummer sphere sampled from its distribution function (Aarseth, Henon & Wielen 1974: radius from
/// the inverted mass profile, speed q v_esc with q from g(q) = q^2 (1 - q^2)^(7/2), isotropic directions), velocity
/// scaled by speedScale (1: equilibrium); colorKey is the enclosed mass fraction.
BodyState samplePlummerBody(RandomStream& random, const PlummerSphere& sphere, double bodyMass, double speedScale);

/// Relative position and velocity of two bodies.
struct RelativeState {
    Vec3d position;
    Vec3d velocity;
};
/// The pericentre of a Keplerian ellipse (G = 1) in the x-y plane, angular momentum along +z, the pericentre in the
/// direction at angle `direction` (radians) from the x axis: r_p = a (1 - e), v_p = sqrt(M (1 + e) / r_p).
RelativeState keplerPericentre(double totalMass, double semiMajorAxis, double eccentricity, double direction);
/// Semi-major axis of the Kepler orbit with this period about this total mass (G = 1): a = (M (T / 2 pi)^2)^(1/3).
double keplerSemiMajorAxis(double totalMass, double period);

/// The total mass of a scenario's tracers: positive, since every body needs a mass (the solvers and the files assume
/// it), and small enough that they disturb nothing measurably.
inline constexpr double kTracerMass = 1e-6;
/// Tracers: bodies [first, out.size()) on circular orbits about a unit mass at the origin in the x-y plane (speed
/// sqrt(1 / r), counter-clockwise), uniform in radius over innerRadius (1 + widthFraction [0, 1)), uniform in
/// azimuth, together kTracerMass, all of colour key colorKey.
void placeCircularTracers(Bodies& out, std::size_t first, std::uint64_t seed, double innerRadius, double widthFraction,
                          double colorKey);

/// Where one body of a cold start goes, and its colour key.
struct PlacedBody {
    Vec3d position;
    double colorKey;
};
/// A cold start (the collapse scenarios): out resized to bodyCount equal-mass bodies (total mass 1) at rest, body i
/// placed by place() from its own stream of seed, then the centre of mass moved to the origin.
void sampleBodiesAtRest(Bodies& out, std::size_t bodyCount, std::uint64_t seed, PlacedBody (*place)(RandomStream&));

/// Shifts bodies [first, first + count) so that their centre of mass is at the origin and at rest.
void removeCentreOfMassMotion(Bodies& bodies, std::size_t first, std::size_t count);

/// Rotates positions and velocities of bodies [first, first + count) by the row-major 3x3 matrix, then adds
/// offsetPosition and offsetVelocity.
void transformBodies(Bodies& bodies, std::size_t first, std::size_t count, const std::array<Vec3d, 3>& rotation,
                     const Vec3d& offsetPosition, const Vec3d& offsetVelocity);

} // namespace gravlab::scenario
