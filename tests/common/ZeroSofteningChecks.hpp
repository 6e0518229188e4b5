#pragma once
// Checks of the direct solvers with softening 0 (the exact Newtonian problem), shared by the CPU and GPU tests: each
// runs through the SimulationBackend interface, so one backend and solver name cover a whole implementation.
//   forces      accelerations against a long double pair sum computed here, j != i, with no softening
//   Kepler      an eccentric two-body orbit returns to its start after the analytic period 2 pi sqrt(a^3 / (G M))
//   coincidence two distinct bodies at one position make step() throw CoincidentBodiesError naming both ids and the
//               position, and leave the state exactly as it was
// Inputs are drawn from std::mt19937_64 with the caller's seed (printed by the caller on failure).
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/CoincidentBodies.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <gtest/gtest.h>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace gravlab::test {

/// N bodies uniform in [-1, 1]^3 with masses in [0.5, 1.5] / N, velocities in [-0.3, 0.3]^3, ids 1000 + 7 i (so a
/// report that names indices instead of ids is caught).
inline Bodies zeroSofteningBodies(std::size_t count, std::mt19937_64& random) {
    std::uniform_real_distribution<double> coordinate(-1.0, 1.0), massFactor(0.5, 1.5), speed(-0.3, 0.3);
    Bodies bodies;
    bodies.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        bodies.x[i] = float(coordinate(random));
        bodies.y[i] = float(coordinate(random));
        bodies.z[i] = float(coordinate(random));
        bodies.vx[i] = float(speed(random));
        bodies.vy[i] = float(speed(random));
        bodies.vz[i] = float(speed(random));
        bodies.mass[i] = float(massFactor(random) / double(count));
        bodies.colorKey[i] = 0.5f;
        bodies.id[i] = 1000 + 7 * std::uint64_t(i);
    }
    return bodies;
}

/// Newtonian accelerations in long double, a_i = G sum_{j != i} m_j d_ij / |d_ij|^3, and the magnitude sums
/// A_i = G sum_{j != i} m_j / |d_ij|^2 that fp32 rounding is relative to.
struct NewtonReference {
    std::vector<std::array<long double, 3>> acceleration;
    std::vector<long double> magnitudeSum;
};

inline NewtonReference newtonReference(const Bodies& bodies, double gravitationalConstant) {
    const std::size_t count = bodies.size();
    NewtonReference reference{std::vector<std::array<long double, 3>>(count), std::vector<long double>(count)};
    for (std::size_t i = 0; i < count; ++i) {
        std::array<long double, 3> sum{0, 0, 0};
        long double magnitudes = 0;
        for (std::size_t j = 0; j < count; ++j) {
            if (j == i)
                continue;
            const long double d[3] = {(long double)bodies.x[j] - bodies.x[i], (long double)bodies.y[j] - bodies.y[i],
                                      (long double)bodies.z[j] - bodies.z[i]};
            const long double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            const long double weight = (long double)bodies.mass[j] / (r2 * std::sqrt(r2));
            for (int k = 0; k < 3; ++k)
                sum[std::size_t(k)] += weight * d[k];
            magnitudes += (long double)bodies.mass[j] / r2;
        }
        for (int k = 0; k < 3; ++k)
            reference.acceleration[i][std::size_t(k)] = gravitationalConstant * sum[std::size_t(k)];
        reference.magnitudeSum[i] = gravitationalConstant * magnitudes;
    }
    return reference;
}

inline SimParams zeroSofteningParams(const std::string& solver) {
    SimParams params;
    params.solver = solver;
    params.softeningLength = 0.0;
    return params;
}

/// readAccelerations of random bodies under softening 0 against newtonReference. bound: largest |a - a_ref| / A_i.
inline void expectNewtonianForces(SimulationBackend& backend, const std::string& solver, std::mt19937_64& random,
                                  double bound) {
    const Bodies bodies = zeroSofteningBodies(std::uniform_int_distribution<std::size_t>(700, 1500)(random), random);
    SimParams params = zeroSofteningParams(solver);
    params.gravitationalConstant = std::uniform_real_distribution<double>(0.5, 2.0)(random);
    backend.load(bodies);
    Vec3Arrays<float> accelerations;
    backend.readAccelerations(params, accelerations);
    const NewtonReference reference = newtonReference(bodies, params.gravitationalConstant);
    long double worst = 0;
    std::size_t worstBody = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const std::array<float, 3> got{accelerations.x[i], accelerations.y[i], accelerations.z[i]};
        long double error2 = 0;
        for (std::size_t k = 0; k < 3; ++k)
            error2 += (got[k] - reference.acceleration[i][k]) * (got[k] - reference.acceleration[i][k]);
        const long double ratio = std::sqrt(error2) / reference.magnitudeSum[i];
        if (!(ratio <= worst)) { // a NaN is the worst of all
            worst = ratio;
            worstBody = i;
        }
    }
    EXPECT_LE(worst, bound) << solver << ", N = " << bodies.size() << ": body " << worstBody << " is off by "
                            << double(worst) << " of its magnitude sum";
}

/// Two bodies on an orbit of eccentricity e about their centre of mass, starting at apocentre along x.
struct KeplerBinary {
    Bodies bodies;
    double period;
    double semiMajorAxis;
};

inline KeplerBinary eccentricBinary(std::mt19937_64& random, double gravitationalConstant, double eccentricity) {
    std::uniform_real_distribution<double> massDraw(0.3, 1.0), axisDraw(0.5, 1.5);
    const double m1 = massDraw(random), m2 = massDraw(random), a = axisDraw(random);
    const double totalMass = m1 + m2;
    const double apocentre = a * (1.0 + eccentricity);
    // Vis-viva at apocentre: v^2 = G M (2 / r - 1 / a).
    const double speed = std::sqrt(gravitationalConstant * totalMass * (2.0 / apocentre - 1.0 / a));
    KeplerBinary binary{Bodies{}, 2.0 * std::numbers::pi * std::sqrt(a * a * a / (gravitationalConstant * totalMass)),
                        a};
    Bodies& bodies = binary.bodies;
    bodies.resize(2);
    const double share[2] = {-m2 / totalMass, m1 / totalMass};
    const double mass[2] = {m1, m2};
    for (std::size_t i = 0; i < 2; ++i) {
        bodies.x[i] = float(share[i] * apocentre);
        bodies.y[i] = bodies.z[i] = 0.0f;
        bodies.vx[i] = bodies.vz[i] = 0.0f;
        bodies.vy[i] = float(share[i] * speed);
        bodies.mass[i] = float(mass[i]);
        bodies.colorKey[i] = 0.5f;
        bodies.id[i] = 40 + i;
    }
    return binary;
}

/// One analytic period of an e = 0.6 orbit under softening 0: the separation vector returns to its start.
inline void expectKeplerPeriod(SimulationBackend& backend, const std::string& solver, std::mt19937_64& random) {
    SimParams params = zeroSofteningParams(solver);
    params.gravitationalConstant = std::uniform_real_distribution<double>(0.5, 2.0)(random);
    const KeplerBinary binary = eccentricBinary(random, params.gravitationalConstant, 0.6);
    constexpr int kSteps = 5000;
    params.timeStep = binary.period / kSteps;
    backend.load(binary.bodies);
    backend.step(params, kSteps);
    Bodies after;
    backend.readBodies(after);
    const double start[3] = {double(binary.bodies.x[1]) - binary.bodies.x[0], 0.0, 0.0};
    const double end[3] = {double(after.x[1]) - after.x[0], double(after.y[1]) - after.y[0],
                           double(after.z[1]) - after.z[0]};
    const double miss = std::hypot(end[0] - start[0], end[1] - start[1], end[2] - start[2]) / binary.semiMajorAxis;
    // Leapfrog's phase error per orbit is about 2 pi (2 pi / steps)^2 / 24 for a circle; the pericentre of e = 0.6
    // is passed (1 - e)^-1.5 = 4 times faster, which multiplies it by about 16: ~7e-6 rad. Float positions add ~6e-8
    // per step, ~4e-6 as a random walk over 5000 steps, 3e-4 if every rounding aligned. 5e-4 of a is the bound; a
    // wrong G or mass factor changes the period by order one, a first-order integrator misses by ~1e-2.
    EXPECT_LT(miss, 5e-4) << solver << ": after one period the separation is off by " << miss << " of a";
    // And the orbit did go round: half a period later it must be at pericentre, far from the start.
    backend.step(params, kSteps / 2);
    backend.readBodies(after);
    const double halfway = double(after.x[1]) - after.x[0];
    EXPECT_NEAR(halfway / binary.semiMajorAxis, -(1.0 - 0.6), 1e-2) << solver << ": not at pericentre half a period on";
}

/// Bodies 3 and 11 of a random set moved onto one point: step() throws naming both ids and the point, and the state
/// (positions, velocities, ids) is the loaded one.
inline void expectCoincidentPairReported(SimulationBackend& backend, const std::string& solver,
                                         std::mt19937_64& random) {
    Bodies bodies = zeroSofteningBodies(64, random);
    bodies.x[11] = bodies.x[3];
    bodies.y[11] = bodies.y[3];
    bodies.z[11] = bodies.z[3];
    backend.load(bodies);
    SimParams params = zeroSofteningParams(solver);
    params.timeStep = 1e-3;
    try {
        backend.step(params, 3);
        ADD_FAILURE() << solver << ": no CoincidentBodiesError for two bodies at one position";
    } catch (const CoincidentBodiesError& error) {
        const std::uint64_t ids[2] = {error.pair().firstId, error.pair().secondId};
        EXPECT_EQ(std::min(ids[0], ids[1]), bodies.id[3]) << error.what();
        EXPECT_EQ(std::max(ids[0], ids[1]), bodies.id[11]) << error.what();
        EXPECT_EQ(error.pair().position, (std::array<float, 3>{bodies.x[3], bodies.y[3], bodies.z[3]})) << error.what();
        const std::string message = error.what();
        for (const std::string& part : {std::to_string(bodies.id[3]), std::to_string(bodies.id[11]),
                                        std::string("softening"), std::string("restored to step 0")})
            EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' missing from: " << message;
    }
    Bodies after;
    backend.readBodies(after);
    ASSERT_EQ(after.size(), bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        // The backend may hold the bodies in another order (ORB); without ORB it keeps the loaded one.
        EXPECT_EQ(after.id[i], bodies.id[i]);
        EXPECT_EQ(after.x[i], bodies.x[i]);
        EXPECT_EQ(after.y[i], bodies.y[i]);
        EXPECT_EQ(after.z[i], bodies.z[i]);
        EXPECT_EQ(after.vx[i], bodies.vx[i]);
        EXPECT_EQ(after.vy[i], bodies.vy[i]);
        EXPECT_EQ(after.vz[i], bodies.vz[i]);
    }
}

} // namespace gravlab::test
