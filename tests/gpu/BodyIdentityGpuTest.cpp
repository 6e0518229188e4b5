// On the GPU, bodies keep their 64-bit ids and components through the ORB build's gather, migration's scatter and a
// rolled-back step: the device moves a load order with the bodies and the host tables translate it back.
#include "GpuTestSupport.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <IdentityChecks.hpp>

namespace gravlab {
namespace {

class BodyIdentityGpu : public gputest::CudaDeviceTest {};

SimParams gpuParams() {
    SimParams params;
    params.backend = BackendKind::Cuda;
    params.solver = "tree";
    params.timeStep = 0.05;
    return params;
}

TEST_F(BodyIdentityGpu, OrbPartitionMovesWholeBodies) {
    const std::uint64_t seed = test::freshSeed();
    SCOPED_TRACE(test::seedTrace(seed));
    const Bodies original = test::bodiesWithIdentities(50000, seed);
    SimParams params = gpuParams();
    params.orb.domainCount = 64;
    Simulation simulation(params, Snapshot{original});
    Bodies now;
    simulation.backend().readBodies(now);
    EXPECT_NE(now.id, original.id) << "64 domains over random bodies should have reordered them";
    EXPECT_EQ(test::identityMismatch(original, now, true), "");
    EXPECT_EQ(simulation.backend().bodyIdentity(12345), (BodyIdentity{now.id[12345], now.component[12345]}));
}

TEST_F(BodyIdentityGpu, IdsSurviveStepsWithMigrationAndRebuilds) {
    const std::uint64_t seed = test::freshSeed();
    SCOPED_TRACE(test::seedTrace(seed));
    const Bodies original = test::bodiesWithIdentities(40000, seed);
    SimParams params = gpuParams();
    params.orb.domainCount = 32;
    params.orb.rebuildInterval = 7;
    Simulation simulation(params, Snapshot{original});
    simulation.step(20);
    Bodies now;
    simulation.backend().readBodies(now);
    EXPECT_EQ(test::identityMismatch(original, now, false), "");
}

TEST_F(BodyIdentityGpu, ARolledBackStepRestoresTheOrder) {
    const std::uint64_t seed = test::freshSeed();
    SCOPED_TRACE(test::seedTrace(seed));
    Bodies original = test::bodiesWithIdentities(20000, seed);
    SimParams params = gpuParams();
    params.orb.domainCount = 16;
    params.orb.rebuildInterval = 1000;
    Simulation simulation(params, Snapshot{original});
    simulation.step(3); // migrations reorder the bodies
    Bodies before;
    simulation.backend().readBodies(before);
    SimParams blowUp = simulation.params();
    blowUp.timeStep = 1.0;
    blowUp.softeningLength = 1e-5;
    blowUp.gravitationalConstant = 1e12; // the next steps overflow
    simulation.setParams(blowUp);
    EXPECT_THROW(simulation.step(5), NonFiniteStateError);
    Bodies after;
    simulation.backend().readBodies(after);
    EXPECT_EQ(after.id, before.id);
    EXPECT_EQ(after.x, before.x);
    EXPECT_EQ(test::identityMismatch(original, after, false), "");
}

} // namespace
} // namespace gravlab
