#pragma once
// Helpers for the simulation tests: fresh seeds, random body sets and small fp64 vector maths.
//
// Design note: test inputs come from std::mt19937_64, not from the simulation's own RandomStream, so a broken
// generator in sim/ cannot make its own inputs look right. Each test draws a fresh seed and prints it through
// SCOPED_TRACE, so a failure can be replayed with GRAVLAB_TEST_SEED=<seed> (tests/common/TestSupport.hpp).
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <TestSupport.hpp>
#include <array>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <random>
#include <sstream>
#include <string>

namespace gravlab::simtest {

/// The disk-galaxy scenario's colour keys mark its components: disk bodies run from 0.1 to 0.7, the bulge is 0.9.
inline constexpr float kLargestDiskGalaxyDiskColour = 0.75f;

using Vec3 = std::array<double, 3>;

using gravlab::test::freshSeed;
using gravlab::test::seedTrace;

/// Four significant digits in scientific notation, for recorded measurements.
inline std::string scientific(double value) {
    std::ostringstream text;
    text << std::scientific << std::setprecision(3) << value;
    return text.str();
}

inline Vec3 sub(const Vec3& a, const Vec3& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline Vec3 add(const Vec3& a, const Vec3& b) {
    return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
inline Vec3 scale(const Vec3& a, double s) {
    return {a[0] * s, a[1] * s, a[2] * s};
}
inline double dot(const Vec3& a, const Vec3& b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline double norm(const Vec3& a) {
    return std::sqrt(dot(a, a));
}
inline Vec3 cross(const Vec3& a, const Vec3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

inline Vec3 positionOf(const Bodies& bodies, std::size_t i) {
    return {bodies.x[i], bodies.y[i], bodies.z[i]};
}
inline Vec3 velocityOf(const Bodies& bodies, std::size_t i) {
    return {bodies.vx[i], bodies.vy[i], bodies.vz[i]};
}

inline void setBody(Bodies& bodies, std::size_t i, const Vec3& position, const Vec3& velocity, double mass) {
    bodies.x[i] = float(position[0]);
    bodies.y[i] = float(position[1]);
    bodies.z[i] = float(position[2]);
    bodies.vx[i] = float(velocity[0]);
    bodies.vy[i] = float(velocity[1]);
    bodies.vz[i] = float(velocity[2]);
    bodies.mass[i] = float(mass);
    bodies.colorKey[i] = 0.5f;
}

/// N bodies uniform in the cube [-1, 1]^3 with masses uniform in [0.5, 1.5] / N and Gaussian velocities of
/// dispersion 0.3 per component.
inline Bodies randomBodies(std::size_t count, std::mt19937_64& random) {
    std::uniform_real_distribution<double> coordinate(-1.0, 1.0), massFactor(0.5, 1.5);
    std::normal_distribution<double> speed(0.0, 0.3);
    Bodies bodies;
    bodies.resize(count);
    for (std::size_t i = 0; i < count; ++i)
        setBody(bodies, i, {coordinate(random), coordinate(random), coordinate(random)},
                {speed(random), speed(random), speed(random)}, massFactor(random) / double(count));
    return bodies;
}

/// Total mass-weighted sums in fp64.
struct Moments {
    double mass = 0;
    Vec3 massPosition{};
    Vec3 momentum{};
};

inline Moments momentsOf(const Bodies& bodies, std::size_t first, std::size_t count) {
    Moments result;
    for (std::size_t i = first; i < first + count; ++i) {
        const double m = bodies.mass[i];
        result.mass += m;
        result.massPosition = add(result.massPosition, scale(positionOf(bodies, i), m));
        result.momentum = add(result.momentum, scale(velocityOf(bodies, i), m));
    }
    return result;
}

/// A Plummer sphere from the scenario registry with masses varied by factors in [0.5, 1.5] (renormalised), so a
/// force or tree that mixes up m_i and m_j shows instead of hiding behind equal masses; seeded by the caller's
/// generator.
inline Bodies variedMassPlummer(std::size_t count, std::mt19937_64& random) {
    Bodies bodies = generateScenario("plummer", count, random());
    std::uniform_real_distribution<double> factor(0.5, 1.5);
    double total = 0;
    for (float& m : bodies.mass) {
        m = float(m * factor(random));
        total += m;
    }
    for (float& m : bodies.mass)
        m = float(m / total);
    return bodies;
}

} // namespace gravlab::simtest
