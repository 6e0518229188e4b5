// The fp64 direct sum on the GPU against the CPU fp64 oracle, and as a solver the CUDA backend steps with.
#include "GpuTestSupport.hpp"
#include "device/cuda/CudaBackend.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>

#include <iostream>

namespace gravlab::gputest {
namespace {

TEST_F(CudaDeviceTest, DirectFp64MatchesTheCpuFp64OracleToFloatRounding) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(2000 + random() % 3000, random);
    const GravityParams gravity = randomGravity(random);
    const std::vector<std::size_t> targets = allIndices(bodies.size());
    Vec3Arrays<double> reference;
    computeAccelerationsFp64(bodies, gravity, targets, reference);
    const ErrorReport report = compareAccelerations(deviceAccelerations("direct-fp64", bodies, gravity), targets,
                                                    reference, magnitudeSums(bodies, gravity, targets));
    std::cout << "direct-fp64 N=" << bodies.size() << ": worst |a - a_fp64| / A_i = " << report.worstRatio << "\n";
    // Both sum the same float inputs in double; only the final rounding to float (2^-24 relative to |a| <= A_i) and
    // the order of the fp64 additions differ, so 1e-6 of A_i is a loose bound, far below the float sums' error.
    EXPECT_LE(report.worstRatio, 1e-6) << "worst target " << targets[report.worstIndex];
}

TEST_F(CudaDeviceTest, DirectFp64StepsThroughTheBackendWithItsPhase) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    CudaBackend backend;
    backend.load(randomBall(1024, random));
    SimParams params;
    params.solver = "direct-fp64";
    params.timeStep = 0.001;
    const double before = backend.diagnostics(params).totalEnergy();
    backend.step(params, 20);
    const double after = backend.diagnostics(params).totalEnergy();
    const std::vector<PhaseTiming> timings = backend.lastStepTimings();
    ASSERT_EQ(timings.size(), 2u);
    EXPECT_EQ(timings[0].phase, "force");
    EXPECT_GT(timings[0].milliseconds, 0.0);
    EXPECT_EQ(timings[1].phase, "integrate");
    // Leapfrog with dt = 0.001 on a softened ball: the energy stays within 1e-4 of its start over 20 steps.
    EXPECT_LE(std::abs(after - before), 1e-4 * std::abs(before));
}

} // namespace
} // namespace gravlab::gputest
