// The CUDA backend's inspection of one body, named by id, against the CPU oracle: the state it read back, the fp64
// potential summed on the host, the CPU backend's inspection of the same bodies, and the same body found again after
// ORB builds and migrations have moved it.
#include "GpuTestSupport.hpp"

#include <gravlab/sim/BodyInspection.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <IdentityChecks.hpp>
#include <algorithm>

namespace gravlab {
namespace {

class BodyInspectionGpu : public gputest::CudaDeviceTest {};

SimParams inspectionGpuParams() {
    SimParams params;
    params.backend = BackendKind::Cuda;
    params.solver = "tree";
    params.timeStep = 0.02;
    params.softeningLength = 0.02;
    params.gravitationalConstant = 1.3;
    return params;
}

// Both sides sum the same fp64 pair terms of the same fp32 positions, in different orders: relative differences of
// a few ulp times log N.
constexpr double kPotentialTolerance = 1e-12;

TEST_F(BodyInspectionGpu, MatchesTheReadBackStateAndTheCpuInspection) {
    const std::uint64_t seed = test::freshSeed();
    SCOPED_TRACE(test::seedTrace(seed));
    SimParams params = inspectionGpuParams();
    params.orb.domainCount = 16;
    Simulation gpu(params, Snapshot{test::bodiesWithIdentities(60000, seed)});
    gpu.step(5);
    const Bodies now = test::bodiesOf(gpu);
    Vec3Arrays<float> accelerations;
    gpu.backend().readAccelerations(params, accelerations);

    SimParams cpuParams = params;
    cpuParams.backend = BackendKind::Cpu;
    cpuParams.orb.domainCount = 0; // keeps the read-back order, so indices agree
    Simulation cpu(cpuParams, Snapshot{now});
    const GravityParams gravity = params.gravity();
    for (const std::size_t i : {std::size_t{0}, std::size_t{31337}, now.size() - 1}) {
        const std::optional<BodyInspection> inspection = gpu.backend().inspectBody(params, now.id[i]);
        ASSERT_TRUE(inspection.has_value());
        EXPECT_EQ(inspection->identity, (BodyIdentity{now.id[i], now.component[i]}));
        EXPECT_EQ(inspection->index, i);
        EXPECT_EQ(inspection->position, (std::array{now.x[i], now.y[i], now.z[i]}));
        EXPECT_EQ(inspection->velocity, (std::array{now.vx[i], now.vy[i], now.vz[i]}));
        ASSERT_TRUE(inspection->acceleration.has_value()) << "the last step's accelerations are current";
        EXPECT_EQ(*inspection->acceleration, (std::array{accelerations.x[i], accelerations.y[i], accelerations.z[i]}));
        EXPECT_EQ(inspection->mass, now.mass[i]);
        const double phi = potentialAtBodyFp64(now, i, gravity);
        EXPECT_NEAR(inspection->potential, phi, kPotentialTolerance * std::abs(phi));
        const std::optional<BodyInspection> onCpu = cpu.backend().inspectBody(cpuParams, now.id[i]);
        ASSERT_TRUE(onCpu.has_value());
        EXPECT_NEAR(inspection->specificEnergy(), onCpu->specificEnergy(), kPotentialTolerance * std::abs(phi));
        ASSERT_TRUE(inspection->orbDomain.has_value());
        EXPECT_LT(*inspection->orbDomain, 16u);
    }
    EXPECT_FALSE(gpu.backend().inspectBody(params, 3).has_value()) << "ids are random above 2^40 or 2^62";
}

TEST_F(BodyInspectionGpu, TheSameIdFindsTheSameBodyAfterOrbReorders) {
    const std::uint64_t seed = test::freshSeed();
    SCOPED_TRACE(test::seedTrace(seed));
    const Bodies original = test::bodiesWithIdentities(40000, seed);
    SimParams params = inspectionGpuParams();
    params.orb.domainCount = 32;
    params.orb.rebuildInterval = 4;
    Simulation simulation(params, Snapshot{original});
    simulation.step(9); // migrations and two re-partitions
    const Bodies now = test::bodiesOf(simulation);
    ASSERT_NE(now.id, original.id) << "32 domains over random bodies should have reordered them";
    for (const std::size_t loaded : {std::size_t{7}, std::size_t{22222}, original.size() - 1}) {
        const std::optional<BodyInspection> inspection = simulation.backend().inspectBody(params, original.id[loaded]);
        ASSERT_TRUE(inspection.has_value());
        EXPECT_EQ(now.id[inspection->index], original.id[loaded]);
        EXPECT_EQ(inspection->mass, original.mass[loaded]) << "masses are distinct, so this is the body loaded";
        EXPECT_EQ(inspection->identity.component, original.component[loaded]);
        EXPECT_EQ(inspection->position[0], now.x[inspection->index]);
    }
}

TEST_F(BodyInspectionGpu, PositionsOfAFewBodiesByIdAfterOrbReorders) {
    const std::uint64_t seed = test::freshSeed();
    SCOPED_TRACE(test::seedTrace(seed));
    const Bodies original = test::bodiesWithIdentities(30000, seed);
    SimParams params = inspectionGpuParams();
    params.orb.domainCount = 16;
    Simulation simulation(params, Snapshot{original});
    simulation.step(4);
    std::vector<std::uint64_t> ids{3}; // no body has id 3
    for (std::size_t loaded = 11; loaded < original.size(); loaded += 3331)
        ids.push_back(original.id[loaded]);
    const std::vector<std::optional<BodyPosition>> positions = simulation.backend().bodyPositions(ids);
    ASSERT_EQ(positions.size(), ids.size());
    EXPECT_FALSE(positions[0].has_value());
    const Bodies now = test::bodiesOf(simulation);
    for (std::size_t k = 1; k < ids.size(); ++k) {
        const auto i = std::size_t(std::find(now.id.begin(), now.id.end(), ids[k]) - now.id.begin());
        ASSERT_LT(i, now.size());
        ASSERT_TRUE(positions[k].has_value());
        EXPECT_EQ(*positions[k], (BodyPosition{now.x[i], now.y[i], now.z[i]}));
    }
}

TEST_F(BodyInspectionGpu, OrbDomainIsWhereCountBalancePutsTheBody) {
    const std::uint64_t seed = test::freshSeed();
    SCOPED_TRACE(test::seedTrace(seed));
    SimParams params = inspectionGpuParams();
    params.orb.domainCount = 7;
    params.orb.balance = OrbBalance::Count;
    const std::size_t count = 30001;
    Simulation simulation(params, Snapshot{test::bodiesWithIdentities(count, seed)});
    const Bodies now = test::bodiesOf(simulation);
    for (std::size_t i = 0; i < count; i += 2999) {
        const std::optional<BodyInspection> inspection = simulation.backend().inspectBody(params, now.id[i]);
        ASSERT_TRUE(inspection.has_value());
        ASSERT_TRUE(inspection->orbDomain.has_value());
        // Right after a partition with count balance, domain k holds body indices [floor(N k / np), floor(N (k+1) /
        // np)).
        const std::uint32_t k = *inspection->orbDomain;
        EXPECT_GE(i, count * k / 7);
        EXPECT_LT(i, count * (k + 1) / 7);
    }
}

} // namespace
} // namespace gravlab
