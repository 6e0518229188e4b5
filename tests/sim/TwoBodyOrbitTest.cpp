// A two-body circular orbit, stepped by the CPU backend's leapfrog, returns to its start after one analytic period.
#include "SimTestSupport.hpp"
#include "core/CpuBackend.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <numbers>

namespace gravlab {
namespace {

using simtest::Vec3;

struct CircularBinary {
    Bodies bodies;
    double period;
    double separation;
    double relativeSpeed;
};

/// Two bodies of random masses on a circular orbit of random size and orientation, centre of mass at rest at the
/// origin. Period from Kepler's third law: T = 2 pi sqrt(a^3 / (G (m1 + m2))).
CircularBinary randomCircularBinary(std::mt19937_64& random, double gravitationalConstant) {
    std::uniform_real_distribution<double> massDraw(0.2, 1.0), separationDraw(0.5, 2.0);
    std::normal_distribution<double> gaussian;
    const double m1 = massDraw(random), m2 = massDraw(random), a = separationDraw(random);
    const double totalMass = m1 + m2;
    const Vec3 normal = [&] {
        const Vec3 v{gaussian(random), gaussian(random), gaussian(random)};
        return simtest::scale(v, 1.0 / simtest::norm(v));
    }();
    const Vec3 helper = std::abs(normal[0]) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
    const Vec3 e1 = [&] {
        const Vec3 v = simtest::cross(normal, helper);
        return simtest::scale(v, 1.0 / simtest::norm(v));
    }();
    const Vec3 e2 = simtest::cross(normal, e1);
    const double speed = std::sqrt(gravitationalConstant * totalMass / a);
    CircularBinary binary;
    binary.bodies.resize(2);
    simtest::setBody(binary.bodies, 0, simtest::scale(e1, -a * m2 / totalMass),
                     simtest::scale(e2, -speed * m2 / totalMass), m1);
    simtest::setBody(binary.bodies, 1, simtest::scale(e1, a * m1 / totalMass),
                     simtest::scale(e2, speed * m1 / totalMass), m2);
    binary.period = 2.0 * std::numbers::pi * std::sqrt(a * a * a / (gravitationalConstant * totalMass));
    binary.separation = a;
    binary.relativeSpeed = speed;
    return binary;
}

TEST(TwoBodyOrbit, CircularOrbitReturnsToItsStartAfterOnePeriod) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    SimParams params;
    params.gravitationalConstant = std::uniform_real_distribution<double>(0.5, 2.0)(random);
    // Softening at its minimum, 1e-5: it weakens the force by 1.5 (eps / a)^2 < 1e-9 and shifts the period by half
    // that, far below the tolerance below.
    params.softeningLength = 1e-5;
    const CircularBinary binary = randomCircularBinary(random, params.gravitationalConstant);
    constexpr int kStepsPerPeriod = 2000;
    params.timeStep = binary.period / kStepsPerPeriod;

    CpuBackend backend;
    backend.load(binary.bodies);
    backend.step(params, kStepsPerPeriod);
    Bodies after;
    backend.readBodies(after);

    // Tolerance: leapfrog advances the phase of a circular orbit by (omega dt)^2 / 24 per radian, i.e. by
    // 2 pi (2 pi / 2000)^2 / 24 = 2.6e-6 rad per period; float storage adds rounding of ~6e-8 per step, up to
    // ~1e-4 in the (unreached) worst case of 2000 aligned roundings and ~3e-6 as a random walk. Runs measure
    // 1e-6 to 1e-5 of the separation. 1e-4 of the separation (and of the relative speed) is the bound; a first-order
    // integrator (a stale or missing half kick) misses by ~omega dt = 3e-3, a wrong force law by order one.
    constexpr double kRelativeTolerance = 1e-4;
    double worstPositionError = 0;
    for (std::size_t i = 0; i < 2; ++i) {
        const double positionError =
            simtest::norm(simtest::sub(simtest::positionOf(after, i), simtest::positionOf(binary.bodies, i)));
        const double velocityError =
            simtest::norm(simtest::sub(simtest::velocityOf(after, i), simtest::velocityOf(binary.bodies, i)));
        worstPositionError = std::max(worstPositionError, positionError / binary.separation);
        EXPECT_LT(positionError, kRelativeTolerance * binary.separation) << "body " << i;
        EXPECT_LT(velocityError, kRelativeTolerance * binary.relativeSpeed) << "body " << i;
    }

    RecordProperty("worst_position_error_over_separation", simtest::scientific(worstPositionError));

    // Half a period later the bodies are on the other side of the centre of mass.
    backend.load(binary.bodies);
    backend.step(params, kStepsPerPeriod / 2);
    backend.readBodies(after);
    for (std::size_t i = 0; i < 2; ++i) {
        const Vec3 opposite = simtest::scale(simtest::positionOf(binary.bodies, i), -1.0);
        EXPECT_LT(simtest::norm(simtest::sub(simtest::positionOf(after, i), opposite)),
                  kRelativeTolerance * binary.separation)
            << "body " << i << " after half a period";
    }
}

} // namespace
} // namespace gravlab
