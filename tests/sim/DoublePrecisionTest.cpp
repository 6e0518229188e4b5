// Double precision (Precision.hpp) on the CPU backend: an eccentric Kepler binary stepped with the direct-fp64 solver
// follows an independent long-double KDK integration of the same steps to fp64 rounding, where single precision
// departs from it by float rounding; the low parts travel with their bodies through ORB's build and migration; a
// precision change converts the state in place.
//
// Why a long-double reference and not |E(t) - E(0)|: at e = 0.9 and 1000 steps per period the leapfrog's own energy
// error swings by 9e-2 through each pericentre passage, and its period error moves the sampled phase, so E(t) - E(0)
// measures truncation, not rounding. The reference takes the same KDK steps in 64-bit-mantissa arithmetic: the
// truncation is the same in both, and what is left is the backend's rounding. A standalone integration measured
// 5e-14 (fp64) against 2.5e-5 (float) for the energy over 20 periods, and 4e-13 for float-float pairs with fp64
// accelerations, but 7e-7 when the accelerations are rounded to float (which is why fp64 solvers keep their low
// parts).
#include "SimTestSupport.hpp"
#include "core/CpuBackend.hpp"
#include "orb/OrbCpu.hpp"
#include "orb/OrbMigrationCpu.hpp"

#include <gravlab/sim/Precision.hpp>
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <LowPartTags.hpp>
#include <array>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <numbers>
#include <random>

namespace gravlab {
namespace {

using test::tagLowParts;
using test::tagsFollowIds;
using Real = long double;
using RealVec = std::array<Real, 3>;

constexpr double kEccentricity = 0.9;
constexpr double kKeplerPeriod = 2.0 * std::numbers::pi;
constexpr int kKeplerStepsPerPeriod = 1000;
constexpr int kKeplerPeriods = 20;
// Minimum allowed softening; the reference uses the same, so it shifts nothing between the two.
constexpr double kKeplerSoftening = 1e-5;

/// Two softened point masses stepped by KDK in long double (the test's own integrator, independent of the code's).
struct ReferenceBinary {
    std::array<RealVec, 2> position, velocity;
    std::array<Real, 2> mass;

    explicit ReferenceBinary(const Bodies& bodies) {
        for (std::size_t i = 0; i < 2; ++i) {
            const std::array<double, 3> p = positionFp64(bodies, i), v = velocityFp64(bodies, i);
            position[i] = {p[0], p[1], p[2]};
            velocity[i] = {v[0], v[1], v[2]};
            mass[i] = bodies.mass[i];
        }
    }
    RealVec separation() const {
        return {position[1][0] - position[0][0], position[1][1] - position[0][1], position[1][2] - position[0][2]};
    }
    Real softenedDistance() const {
        const RealVec d = separation();
        return std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + Real(kKeplerSoftening) * Real(kKeplerSoftening));
    }
    void kick(Real duration) {
        const RealVec d = separation();
        const Real r = softenedDistance();
        const Real weight = duration / (r * r * r);
        for (int k = 0; k < 3; ++k) {
            velocity[0][k] += mass[1] * weight * d[k];
            velocity[1][k] -= mass[0] * weight * d[k];
        }
    }
    void step(Real dt) {
        kick(dt / 2);
        for (std::size_t i = 0; i < 2; ++i)
            for (int k = 0; k < 3; ++k)
                position[i][k] += velocity[i][k] * dt;
        kick(dt / 2);
    }
    /// Total angular momentum about the z axis (the orbit lies in the xy plane).
    Real angularMomentum() const {
        Real sum = 0;
        for (std::size_t i = 0; i < 2; ++i)
            sum += mass[i] * (position[i][0] * velocity[i][1] - position[i][1] * velocity[i][0]);
        return sum;
    }
    Real energy() const {
        Real kinetic = 0;
        for (std::size_t i = 0; i < 2; ++i)
            kinetic +=
                mass[i] / 2 *
                (velocity[i][0] * velocity[i][0] + velocity[i][1] * velocity[i][1] + velocity[i][2] * velocity[i][2]);
        return kinetic - mass[0] * mass[1] / softenedDistance();
    }
};

SimParams keplerParams(Precision precision, const char* solver) {
    SimParams params;
    params.scenario = "kepler-binary";
    params.scenarioParams = {{"eccentricity", kEccentricity}, {"period", kKeplerPeriod}};
    params.bodyCount = 2;
    params.backend = BackendKind::Cpu;
    params.solver = solver;
    params.precision = precision;
    params.softeningLength = kKeplerSoftening;
    params.timeStep = kKeplerPeriod / kKeplerStepsPerPeriod;
    return params;
}

struct Departure {
    double energy = 0;      ///< largest |E_backend - E_reference| / |E_reference| at the end of each period
    double position = 0;    ///< largest |x_backend - x_reference| over the semi-major axis (1), either body
    double diagnostics = 0; ///< the same energy departure with E_backend from the backend's own diagnostics
    /// Largest |L(t) - L(0)| / |L(0)| of the backend's state: KDK conserves the angular momentum of a central force
    /// exactly (kicks along r, drifts along v), so whatever changes it is rounding, measured against the analytic
    /// invariant rather than against another integration.
    double angularMomentum = 0;
};

Departure departureFromReference(const SimParams& params) {
    CpuBackend backend;
    Bodies bodies = generateScenario(params.scenario, params.bodyCount, params.seed, params.scenarioParams);
    backend.load(bodies);
    backend.setPrecision(params.precision);
    backend.readBodies(bodies);
    ReferenceBinary reference(bodies);
    const Real initialAngularMomentum = reference.angularMomentum();
    Departure worst;
    for (int period = 0; period < kKeplerPeriods; ++period) {
        backend.step(params, kKeplerStepsPerPeriod);
        for (int s = 0; s < kKeplerStepsPerPeriod; ++s)
            reference.step(Real(params.timeStep));
        backend.readBodies(bodies);
        const ReferenceBinary now(bodies);
        const Real expected = reference.energy();
        worst.energy = std::max(worst.energy, double(std::abs((now.energy() - expected) / expected)));
        worst.angularMomentum =
            std::max(worst.angularMomentum, double(std::abs(now.angularMomentum() / initialAngularMomentum - 1)));
        const double measured = backend.diagnostics(params).totalEnergy();
        worst.diagnostics = std::max(worst.diagnostics, double(std::abs((Real(measured) - expected) / expected)));
        for (std::size_t i = 0; i < 2; ++i)
            for (int k = 0; k < 3; ++k)
                worst.position =
                    std::max(worst.position, double(std::abs(now.position[i][k] - reference.position[i][k])));
    }
    return worst;
}

TEST(DoublePrecision, EccentricKeplerBinaryFollowsTheFp64StepsToRoundingWhereSinglePrecisionDoesNot) {
    const Departure fp64 = departureFromReference(keplerParams(Precision::Double, "direct-fp64"));
    const Departure single = departureFromReference(keplerParams(Precision::Single, "direct"));
    RecordProperty("double_energy_departure", simtest::scientific(fp64.energy));
    RecordProperty("double_position_departure", simtest::scientific(fp64.position));
    RecordProperty("single_energy_departure", simtest::scientific(single.energy));
    RecordProperty("double_angular_momentum_change", simtest::scientific(fp64.angularMomentum));
    RecordProperty("single_angular_momentum_change", simtest::scientific(single.angularMomentum));
    // Bounds: pairs round to 48 bits (4e-15) per update, 8e4 updates of a random walk give ~1e-12 in energy and the
    // position error grows along the orbit (phase) to ~1e-11 (standalone: 4e-13 and 8e-12); 1e-10 and 1e-9 leave a
    // margin of 100 while float lands at ~1e-5 and ~1e-3. The diagnostics read the pairs: with the float part alone
    // they would see float's 1e-7 rounding of the positions.
    EXPECT_LT(fp64.energy, 1e-10);
    EXPECT_LT(fp64.diagnostics, 1e-10);
    EXPECT_LT(fp64.position, 1e-9);
    EXPECT_GT(single.energy, 1e-8);
    EXPECT_GT(single.position, 1e-6);
    // Angular momentum: rounding of 48-bit pairs random-walks to ~1e-13 over 8e4 updates, float's to ~1e-6.
    EXPECT_LT(fp64.angularMomentum, 1e-11);
    EXPECT_GT(single.angularMomentum, 1e-9);
}

TEST(DoublePrecision, LowPartsTravelWithTheirBodiesThroughOrbBuildAndMigration) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = simtest::randomBodies(3000, random);
    bodies.numberSequentially();
    tagLowParts(bodies);
    OrbCpu orb;
    orb.build(bodies, 8);
    EXPECT_TRUE(tagsFollowIds(bodies));
    bool reordered = false;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        reordered = reordered || bodies.id[i] != i;
    EXPECT_TRUE(reordered);

    // Move every tenth body to a random place: they migrate to other domains.
    std::vector<OrbCell> cells = orb.cells();
    std::uniform_real_distribution<float> coordinate(-1.0f, 1.0f);
    for (std::size_t i = 0; i < bodies.size(); i += 10)
        bodies.x[i] = coordinate(random), bodies.y[i] = coordinate(random), bodies.z[i] = coordinate(random);
    std::vector<float> work;
    EXPECT_GT(migrateOrbCpu(cells, bodies, work), 0u);
    EXPECT_TRUE(tagsFollowIds(bodies));
}

TEST(DoublePrecision, ARolledBackStepRestoresTheLowParts) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = simtest::randomBodies(64, random);
    bodies.numberSequentially();
    CpuBackend backend;
    test::expectRollbackRestoresLowParts(backend, bodies);
}

TEST(DoublePrecision, RecentringShiftsThePairsNotJustTheFloats) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> coordinate(0.5, 1.5); // off centre: the shift is of order one
    Bodies bodies;
    bodies.resize(100);
    convertPrecision(bodies, Precision::Double);
    std::vector<std::array<double, 3>> positions(bodies.size());
    Real totalMass = 0;
    std::array<Real, 3> weighted{};
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        positions[i] = {coordinate(random), coordinate(random), coordinate(random)};
        storePositionFp64(bodies, i, positions[i]);
        positions[i] = positionFp64(bodies, i); // what the pairs hold
        bodies.mass[i] = 0.01f;
        totalMass += bodies.mass[i];
        for (int k = 0; k < 3; ++k)
            weighted[k] += Real(bodies.mass[i]) * positions[i][k];
    }
    moveToCentreOfMassFrame(bodies);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const std::array<double, 3> moved = positionFp64(bodies, i);
        for (int k = 0; k < 3; ++k) {
            // Pairs hold 48 bits (4e-15 of values of order one); shifting only the floats would miss by ~6e-8.
            EXPECT_NEAR(moved[k], double(Real(positions[i][k]) - weighted[k] / totalMass), 1e-14)
                << "body " << i << " axis " << k;
        }
    }
}

TEST(DoublePrecision, BodiesAcceptLowPartsAllOrNone) {
    Bodies bodies;
    bodies.resize(4);
    EXPECT_TRUE(bodies.consistent());
    EXPECT_FALSE(bodies.hasLowParts());
    bodies.resize(6); // single precision stays without low parts
    EXPECT_TRUE(bodies.xLow.empty());
    convertPrecision(bodies, Precision::Double);
    EXPECT_TRUE(bodies.consistent());
    EXPECT_EQ(bodies.vzLow, std::vector<float>(6, 0.0f));
    bodies.resize(9); // double precision grows its low parts with the bodies
    EXPECT_TRUE(bodies.consistent());
    bodies.yLow.pop_back();
    EXPECT_FALSE(bodies.consistent());
}

TEST(DoublePrecision, SwitchingPrecisionConvertsTheStateInPlace) {
    SimParams params = keplerParams(Precision::Single, "direct-fp64");
    Simulation simulation(params);
    simulation.step(100);
    const Bodies single = simulation.snapshot().bodies;
    ASSERT_FALSE(single.hasLowParts());

    params.precision = Precision::Double;
    const ParamsChange change = simulation.setParams(params);
    EXPECT_FALSE(change.reinitialised);
    EXPECT_TRUE(change.forcesStale);
    Bodies converted = simulation.snapshot().bodies;
    ASSERT_TRUE(converted.hasLowParts());
    EXPECT_EQ(converted.x, single.x); // the same state, now as exact pairs
    EXPECT_EQ(converted.vy, single.vy);
    EXPECT_EQ(converted.xLow, std::vector<float>(2, 0.0f));
    EXPECT_EQ(simulation.stepCount(), 100u);

    simulation.step(100); // double steps give the state low parts of its own
    converted = simulation.snapshot().bodies;
    bool someLowPart = false;
    for (const float low : converted.xLow)
        someLowPart = someLowPart || low != 0.0f;
    EXPECT_TRUE(someLowPart);

    params.precision = Precision::Single;
    simulation.setParams(params);
    const Bodies back = simulation.snapshot().bodies;
    EXPECT_FALSE(back.hasLowParts());
    EXPECT_EQ(back.x, converted.x); // dropping the low parts keeps the float part
}

} // namespace
} // namespace gravlab
