// The CPU backend's inspection of one body, named by id: its state as readBodies() and readAccelerations() have it, an
// fp64 potential summed here independently, the same body after ORB reorders, and ORB domains where count balance
// puts them.
#include "SimTestSupport.hpp"

#include <gravlab/sim/BodyInspection.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <IdentityChecks.hpp>
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

SimParams inspectionCpuParams() {
    SimParams params;
    params.backend = BackendKind::Cpu;
    params.solver = "tree";
    params.timeStep = 0.02;
    params.softeningLength = 0.03;
    params.gravitationalConstant = 1.7;
    return params;
}

/// -G sum_{j != i} m_j / sqrt(r^2 + eps^2) in long double, the reference the inspection's fp64 sum must match.
double referencePotential(const Bodies& bodies, std::size_t i, const SimParams& params) {
    long double sum = 0;
    for (std::size_t j = 0; j < bodies.size(); ++j) {
        if (j == i)
            continue;
        const long double dx = (long double)bodies.x[j] - bodies.x[i];
        const long double dy = (long double)bodies.y[j] - bodies.y[i];
        const long double dz = (long double)bodies.z[j] - bodies.z[i];
        const long double eps = params.softeningLength;
        sum += (long double)bodies.mass[j] / std::sqrt(dx * dx + dy * dy + dz * dz + eps * eps);
    }
    return double(-(long double)params.gravitationalConstant * sum);
}

TEST(BodyInspection, TwoBodiesGiveTheAnalyticPotential) {
    Bodies bodies;
    bodies.resize(2);
    bodies.x = {0.0f, 3.0f};
    bodies.y = {0.0f, 4.0f};
    bodies.mass = {2.0f, 0.5f};
    bodies.id = {10, 20};
    // phi_0 = -G m_1 / sqrt(25 + eps^2), phi_1 = -G m_0 / sqrt(25 + eps^2).
    const GravityParams gravity{2.0, 1.0};
    EXPECT_NEAR(potentialAtBodyFp64(bodies, 0, gravity), -2.0 * 0.5 / std::sqrt(26.0), 1e-15);
    EXPECT_NEAR(potentialAtBodyFp64(bodies, 1, gravity), -2.0 * 2.0 / std::sqrt(26.0), 1e-15);
    EXPECT_THROW(potentialAtBodyFp64(bodies, 2, gravity), std::out_of_range);
}

TEST(BodyInspection, MatchesTheStateAndAnIndependentPotential) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const SimParams params = inspectionCpuParams();
    Simulation simulation(params, Snapshot{test::bodiesWithIdentities(1500, seed)});
    simulation.step(3);
    const Bodies now = test::bodiesOf(simulation);
    Vec3Arrays<float> accelerations;
    simulation.backend().readAccelerations(params, accelerations);
    for (const std::size_t i : {std::size_t{0}, std::size_t{777}, now.size() - 1}) {
        const std::optional<BodyInspection> inspection = simulation.backend().inspectBody(params, now.id[i]);
        ASSERT_TRUE(inspection.has_value());
        EXPECT_EQ(inspection->identity, (BodyIdentity{now.id[i], now.component[i]}));
        EXPECT_EQ(inspection->index, i);
        EXPECT_EQ(inspection->position, (std::array{now.x[i], now.y[i], now.z[i]}));
        EXPECT_EQ(inspection->velocity, (std::array{now.vx[i], now.vy[i], now.vz[i]}));
        ASSERT_TRUE(inspection->acceleration.has_value()) << "the last step's accelerations are current";
        EXPECT_EQ(*inspection->acceleration, (std::array{accelerations.x[i], accelerations.y[i], accelerations.z[i]}));
        EXPECT_EQ(inspection->mass, now.mass[i]);
        const double phi = referencePotential(now, i, params);
        // fp64 against long double over 1500 terms of one sign: a few ulp of the sum.
        EXPECT_NEAR(inspection->potential, phi, 1e-12 * std::abs(phi));
        const double v2 = double(now.vx[i]) * now.vx[i] + double(now.vy[i]) * now.vy[i] + double(now.vz[i]) * now.vz[i];
        EXPECT_NEAR(inspection->specificEnergy(), 0.5 * v2 + phi, 1e-12 * std::abs(phi));
        EXPECT_FALSE(inspection->orbDomain.has_value()) << "ORB is off";
    }
    EXPECT_FALSE(simulation.backend().inspectBody(params, 3).has_value()) << "ids are random above 2^40 or 2^62";
    SimParams softer = params;
    softer.softeningLength *= 2.0; // not what the cached accelerations were computed with
    const std::optional<BodyInspection> stale = simulation.backend().inspectBody(softer, now.id[0]);
    ASSERT_TRUE(stale.has_value());
    EXPECT_FALSE(stale->acceleration.has_value()) << "an inspection never runs a force evaluation";
    EXPECT_NEAR(stale->potential, referencePotential(now, 0, softer), 1e-12 * std::abs(stale->potential));
}

TEST(BodyInspection, MassWeightedEnergiesAddUpToKineticPlusTwicePotential) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const SimParams params = inspectionCpuParams();
    Simulation simulation(params, Snapshot{test::bodiesWithIdentities(300, seed)});
    const Bodies now = test::bodiesOf(simulation);
    double sum = 0;
    for (std::size_t i = 0; i < now.size(); ++i)
        sum += double(now.mass[i]) * simulation.backend().inspectBody(params, now.id[i])->specificEnergy();
    // sum_i m_i (v_i^2 / 2 + phi_i) = K + 2 W: every pair appears twice among the phi_i.
    const Diagnostics diagnostics = simulation.backend().diagnostics(params);
    const double expected = diagnostics.kineticEnergy + 2.0 * diagnostics.potentialEnergy;
    EXPECT_NEAR(sum, expected, 1e-10 * std::abs(diagnostics.potentialEnergy));
}

TEST(BodyInspection, TheSameIdFindsTheSameBodyAfterOrbReorders) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies original = test::bodiesWithIdentities(2000, seed);
    SimParams params = inspectionCpuParams();
    params.orb.domainCount = 8;
    params.orb.rebuildInterval = 3;
    Simulation simulation(params, Snapshot{original});
    for (const std::size_t loaded : {std::size_t{5}, std::size_t{1234}}) {
        const std::uint64_t id = original.id[loaded];
        simulation.step(7); // migrations and two re-partitions
        const Bodies now = test::bodiesOf(simulation);
        ASSERT_NE(now.id, original.id) << "8 domains over random bodies should have reordered them";
        const std::optional<BodyInspection> inspection = simulation.backend().inspectBody(params, id);
        ASSERT_TRUE(inspection.has_value());
        EXPECT_EQ(now.id[inspection->index], id);
        EXPECT_EQ(inspection->mass, original.mass[loaded]) << "masses are distinct, so this is the body loaded";
        EXPECT_EQ(inspection->identity.component, original.component[loaded]);
        EXPECT_EQ(inspection->position,
                  (std::array{now.x[inspection->index], now.y[inspection->index], now.z[inspection->index]}));
    }
}

TEST(BodyInspection, PositionsOfAFewBodiesByIdAfterOrbReorders) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies original = test::bodiesWithIdentities(1500, seed);
    SimParams params = inspectionCpuParams();
    params.orb.domainCount = 4;
    Simulation simulation(params, Snapshot{original});
    simulation.step(4);
    const std::vector<std::uint64_t> ids{original.id[3], 3, original.id[1499], original.id[700]};
    const std::vector<std::optional<BodyPosition>> positions = simulation.backend().bodyPositions(ids);
    ASSERT_EQ(positions.size(), ids.size());
    EXPECT_FALSE(positions[1].has_value()) << "no body has id 3";
    const Bodies now = test::bodiesOf(simulation);
    for (const std::size_t k : {std::size_t{0}, std::size_t{2}, std::size_t{3}}) {
        const auto i = std::size_t(std::find(now.id.begin(), now.id.end(), ids[k]) - now.id.begin());
        ASSERT_LT(i, now.size());
        ASSERT_TRUE(positions[k].has_value());
        EXPECT_EQ(*positions[k], (BodyPosition{now.x[i], now.y[i], now.z[i]}));
    }
}

TEST(BodyInspection, OrbDomainIsWhereCountBalancePutsTheBody) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    SimParams params = inspectionCpuParams();
    params.orb.domainCount = 5;
    params.orb.balance = OrbBalance::Count;
    const std::size_t count = 1003;
    Simulation simulation(params, Snapshot{test::bodiesWithIdentities(count, seed)});
    const Bodies now = test::bodiesOf(simulation);
    for (std::size_t i = 0; i < count; i += 97) {
        const std::optional<BodyInspection> inspection = simulation.backend().inspectBody(params, now.id[i]);
        ASSERT_TRUE(inspection.has_value());
        ASSERT_TRUE(inspection->orbDomain.has_value());
        // Right after a partition with count balance, domain k holds body indices [floor(N k / np), floor(N (k+1) /
        // np)).
        const std::uint32_t k = *inspection->orbDomain;
        EXPECT_GE(i, count * k / 5);
        EXPECT_LT(i, count * (k + 1) / 5);
    }
}

} // namespace
} // namespace gravlab
