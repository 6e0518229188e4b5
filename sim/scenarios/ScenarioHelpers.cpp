// Helpers shared by the scenario generators: storing one body, isotropic directions, centring, rigid transforms.
//
// Design note: centre-of-mass sums run in double over the float bodies, so the residual momentum after centring is
// at the level of float rounding of the stored values, not of the summation.
#include "core/Parallel.hpp"
#include "scenarios/ScenarioGenerators.hpp"

#include <gravlab/sim/Precision.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace gravlab::scenario {

void storeBody(Bodies& bodies, std::size_t index, const BodyState& body) {
    bodies.x[index] = float(body.position[0]);
    bodies.y[index] = float(body.position[1]);
    bodies.z[index] = float(body.position[2]);
    bodies.vx[index] = float(body.velocity[0]);
    bodies.vy[index] = float(body.velocity[1]);
    bodies.vz[index] = float(body.velocity[2]);
    bodies.mass[index] = float(body.mass);
    bodies.colorKey[index] = float(body.colorKey);
}

double samplePlummerMassFraction(RandomStream& random) {
    return kPlummerMassTruncation * random.uniformOpen();
}

double plummerRadius(double scaleRadius, double massFraction) {
    return scaleRadius / std::sqrt(std::pow(massFraction, -2.0 / 3.0) - 1.0);
}

namespace {

/// Speed in units of the local escape speed, from g(q) = q^2 (1 - q^2)^(7/2) (rejection sampling under the bound 0.1;
/// max g = 0.0922 at q^2 = 2/9).
double samplePlummerSpeedFraction(RandomStream& random) {
    for (;;) {
        const double q = random.uniform();
        const double height = 0.1 * random.uniform();
        if (height < q * q * std::pow(1.0 - q * q, 3.5))
            return q;
    }
}

} // namespace

BodyState samplePlummerBody(RandomStream& random, const PlummerSphere& sphere, double bodyMass, double speedScale) {
    const double massFraction = samplePlummerMassFraction(random);
    const double radius = plummerRadius(sphere.scaleRadius, massFraction);
    const double escapeSpeed =
        std::sqrt(2.0 * sphere.mass) * std::pow(radius * radius + sphere.scaleRadius * sphere.scaleRadius, -0.25);
    const double speed = speedScale * samplePlummerSpeedFraction(random) * escapeSpeed;
    const Vec3d where = isotropicDirection(random);
    const Vec3d heading = isotropicDirection(random);
    return {{radius * where[0], radius * where[1], radius * where[2]},
            {speed * heading[0], speed * heading[1], speed * heading[2]},
            bodyMass,
            massFraction};
}

RelativeState keplerPericentre(double totalMass, double semiMajorAxis, double eccentricity, double direction) {
    const double pericentre = semiMajorAxis * (1.0 - eccentricity);
    const double speed = std::sqrt(totalMass * (1.0 + eccentricity) / pericentre);
    const double c = std::cos(direction), s = std::sin(direction);
    return {{pericentre * c, pericentre * s, 0.0}, {-speed * s, speed * c, 0.0}};
}

double keplerSemiMajorAxis(double totalMass, double period) {
    const double meanMotionInverse = period / (2.0 * std::numbers::pi);
    return std::cbrt(totalMass * meanMotionInverse * meanMotionInverse);
}

Vec3d isotropicDirection(RandomStream& random) {
    const double cosTheta = random.uniform(-1.0, 1.0);
    const double sinTheta = std::sqrt(std::max(0.0, 1.0 - cosTheta * cosTheta));
    const double phi = 2.0 * std::numbers::pi * random.uniform();
    return {sinTheta * std::cos(phi), sinTheta * std::sin(phi), cosTheta};
}

void placeCircularTracers(Bodies& out, std::size_t first, std::uint64_t seed, double innerRadius, double widthFraction,
                          double colorKey) {
    const double mass = kTracerMass / double(out.size() - first);
    for (std::size_t i = first; i < out.size(); ++i) {
        RandomStream random(seed, i);
        const double radius = innerRadius * (1.0 + widthFraction * random.uniform());
        const double azimuth = 2.0 * std::numbers::pi * random.uniform();
        const double speed = std::sqrt(1.0 / radius);
        const double c = std::cos(azimuth), s = std::sin(azimuth);
        storeBody(out, i, {{radius * c, radius * s, 0.0}, {-speed * s, speed * c, 0.0}, mass, colorKey});
    }
}

void sampleBodiesAtRest(Bodies& out, std::size_t bodyCount, std::uint64_t seed, PlacedBody (*place)(RandomStream&)) {
    out.resize(bodyCount);
    const double mass = 1.0 / double(bodyCount);
    const auto count = std::int64_t(bodyCount);
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelSampling)
    for (std::int64_t i = 0; i < count; ++i) {
        RandomStream random(seed, std::uint64_t(i));
        const PlacedBody body = place(random);
        storeBody(out, std::size_t(i), {body.position, {0, 0, 0}, mass, body.colorKey});
    }
    removeCentreOfMassMotion(out, 0, bodyCount);
}

void removeCentreOfMassMotion(Bodies& bodies, std::size_t first, std::size_t count) {
    double totalMass = 0;
    Vec3d massPosition{}, momentum{};
    // Positions and velocities in double: the floats, or the float-float pairs of a double-precision state, which are
    // shifted as pairs so they keep their 48 bits.
    for (std::size_t i = first; i < first + count; ++i) {
        const double m = bodies.mass[i];
        const std::array<double, 3> position = positionFp64(bodies, i), velocity = velocityFp64(bodies, i);
        totalMass += m;
        for (int k = 0; k < 3; ++k) {
            massPosition[k] += m * position[k];
            momentum[k] += m * velocity[k];
        }
    }
    if (totalMass <= 0)
        return;
    const Vec3d centre{massPosition[0] / totalMass, massPosition[1] / totalMass, massPosition[2] / totalMass};
    const Vec3d drift{momentum[0] / totalMass, momentum[1] / totalMass, momentum[2] / totalMass};
    for (std::size_t i = first; i < first + count; ++i) {
        const std::array<double, 3> position = positionFp64(bodies, i), velocity = velocityFp64(bodies, i);
        storePositionFp64(bodies, i, {position[0] - centre[0], position[1] - centre[1], position[2] - centre[2]});
        storeVelocityFp64(bodies, i, {velocity[0] - drift[0], velocity[1] - drift[1], velocity[2] - drift[2]});
    }
}

void transformBodies(Bodies& bodies, std::size_t first, std::size_t count, const std::array<Vec3d, 3>& rotation,
                     const Vec3d& offsetPosition, const Vec3d& offsetVelocity) {
    const auto rotate = [&rotation](double x, double y, double z, int row) {
        return rotation[row][0] * x + rotation[row][1] * y + rotation[row][2] * z;
    };
    for (std::size_t i = first; i < first + count; ++i) {
        const double x = bodies.x[i], y = bodies.y[i], z = bodies.z[i];
        const double vx = bodies.vx[i], vy = bodies.vy[i], vz = bodies.vz[i];
        bodies.x[i] = float(rotate(x, y, z, 0) + offsetPosition[0]);
        bodies.y[i] = float(rotate(x, y, z, 1) + offsetPosition[1]);
        bodies.z[i] = float(rotate(x, y, z, 2) + offsetPosition[2]);
        bodies.vx[i] = float(rotate(vx, vy, vz, 0) + offsetVelocity[0]);
        bodies.vy[i] = float(rotate(vx, vy, vz, 1) + offsetVelocity[1]);
        bodies.vz[i] = float(rotate(vx, vy, vz, 2) + offsetVelocity[2]);
    }
}

} // namespace gravlab::scenario

namespace gravlab {

void moveToCentreOfMassFrame(Bodies& bodies) {
    scenario::removeCentreOfMassMotion(bodies, 0, bodies.size());
}

} // namespace gravlab
