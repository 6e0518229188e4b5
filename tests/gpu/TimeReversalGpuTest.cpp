// Time reversal on the CUDA backend, mirroring tests/sim/TimeReversalTest.cpp: the negation kernel flips exactly the
// velocity lanes (the colour key stays), and K steps forward, reverseTime(), K steps back return every body, matched
// by id, to where it started, also while ORB domains reorder the bodies.
//
// Design note: the reference is the scenario's initial state, read back before any step. The bound is the CPU test's
// (derived there from fp32 rounding per step accumulating over 2K steps of a symplectic, reversible integrator, and
// measured at 1.6e-6 for these sizes); the device's direct sum is deterministic for a fixed body order, and a
// migration that reorders bodies changes only the order of a float sum, a rounding-level change of the same size.
#include "GpuTestSupport.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <IdentityChecks.hpp>
#include <utility>

namespace gravlab {
namespace {

class TimeReversalGpu : public gputest::CudaDeviceTest {};

constexpr int kSteps = 200;
constexpr double kBound = 1e-5;

SimParams reversalPlummer(std::uint64_t seed, std::uint32_t orbDomains = 0) {
    SimParams params;
    params.scenario = "plummer";
    params.bodyCount = 2000;
    params.seed = seed;
    params.backend = BackendKind::Cuda;
    params.solver = "direct";
    params.orb.domainCount = orbDomains;
    return params;
}

using test::bodiesOf;

TEST_F(TimeReversalGpu, NegatesExactlyTheVelocities) {
    const std::uint64_t seed = gputest::freshSeed();
    SCOPED_TRACE(gputest::seedTrace(seed));
    Simulation simulation(reversalPlummer(seed));
    simulation.step(2);
    const Bodies before = bodiesOf(simulation);
    simulation.reverseTime();
    const Bodies reversed = bodiesOf(simulation);
    ASSERT_EQ(reversed.size(), before.size());
    for (std::size_t i = 0; i < before.size(); ++i) {
        ASSERT_EQ(reversed.x[i], before.x[i]);
        ASSERT_EQ(reversed.y[i], before.y[i]);
        ASSERT_EQ(reversed.z[i], before.z[i]);
        ASSERT_EQ(reversed.vx[i], -before.vx[i]);
        ASSERT_EQ(reversed.vy[i], -before.vy[i]);
        ASSERT_EQ(reversed.vz[i], -before.vz[i]);
        ASSERT_EQ(reversed.colorKey[i], before.colorKey[i]);
    }
    simulation.reverseTime();
    EXPECT_EQ(bodiesOf(simulation).vx, before.vx);
    EXPECT_EQ(simulation.timeDirection(), 1);
}

void expectRoundTrip(std::uint32_t orbDomains) {
    const std::uint64_t seed = gputest::freshSeed();
    SCOPED_TRACE(gputest::seedTrace(seed));
    Simulation simulation(reversalPlummer(seed, orbDomains));
    const Bodies start = bodiesOf(simulation);
    const double startTime = simulation.time();
    for (int i = 0; i < kSteps; ++i)
        simulation.step(1);
    simulation.reverseTime();
    for (int i = 0; i < kSteps; ++i)
        simulation.step(1);
    simulation.reverseTime();
    const auto [position, velocity] = test::distanceById(start, bodiesOf(simulation));
    EXPECT_LT(position, kBound);
    EXPECT_LT(velocity, kBound);
    EXPECT_NEAR(simulation.time(), startTime, 1e-12);
}

TEST_F(TimeReversalGpu, ForwardThenBackReturnsEveryBody) {
    expectRoundTrip(0);
}

TEST_F(TimeReversalGpu, WithOrbDomainsBodiesAreMatchedById) {
    expectRoundTrip(7);
}

} // namespace
} // namespace gravlab
