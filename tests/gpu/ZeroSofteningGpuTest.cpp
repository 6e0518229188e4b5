// Softening 0 on the GPU, for each direct solver (tiled, pair-once, fp64): forces against a long double Newtonian sum,
// an eccentric Kepler orbit against its analytic period, and a coincident pair reported with the state rolled back
// (the same checks as the CPU's, ZeroSofteningChecks.hpp).
#include "GpuTestSupport.hpp"
#include "device/cuda/CudaBackend.hpp"

#include <ZeroSofteningChecks.hpp>

namespace gravlab::gputest {
namespace {

const std::vector<std::string> kDirectSolvers{"direct", "direct-symmetric", "direct-fp64"};

TEST_F(CudaDeviceTest, ZeroSofteningForcesMatchTheNewtonianSum) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    CudaBackend backend;
    for (const std::string& solver : kDirectSolvers) {
        // The fp32 sums' bound of the softened tests (GpuTestSupport.hpp: rsqrt.approx and the running sums, relative
        // to A_i) holds unchanged without softening; the fp64 sum only rounds its result to float.
        const double bound = solver == "direct-fp64" ? 1e-6 : fp32DirectSumBound(1500);
        test::expectNewtonianForces(backend, solver, random, bound);
    }
}

TEST_F(CudaDeviceTest, ZeroSofteningKeplerOrbitKeepsTheAnalyticPeriod) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    CudaBackend backend;
    for (const std::string& solver : kDirectSolvers)
        test::expectKeplerPeriod(backend, solver, random);
}

TEST_F(CudaDeviceTest, ZeroSofteningCoincidentPairIsReportedAndTheStateKept) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    CudaBackend backend;
    for (const std::string& solver : kDirectSolvers) {
        test::expectCoincidentPairReported(backend, solver, random);
        // The report is consumed: the next run of a separated set steps without one.
        Bodies apart = test::zeroSofteningBodies(64, random);
        backend.load(apart);
        SimParams params = test::zeroSofteningParams(solver);
        params.timeStep = 1e-4;
        EXPECT_NO_THROW(backend.step(params, 2)) << solver;
    }
}

TEST_F(CudaDeviceTest, ZeroSofteningPairAtTheOriginIsNotMistakenForPadding) {
    // Kernels pad their tiles with massless bodies at the origin; a real pair there must still be found, and a lone
    // body there must not be reported against the padding.
    std::mt19937_64 random(freshSeed());
    CudaBackend backend;
    for (const std::string& solver : kDirectSolvers) {
        Bodies lone = test::zeroSofteningBodies(37, random);
        lone.x[36] = lone.y[36] = lone.z[36] = 0.0f;
        backend.load(lone);
        SimParams params = test::zeroSofteningParams(solver);
        params.timeStep = 1e-4;
        EXPECT_NO_THROW(backend.step(params, 1)) << solver << ": a body at the origin met the padding";
        Bodies pair = lone;
        pair.x[5] = pair.y[5] = pair.z[5] = 0.0f;
        backend.load(pair);
        EXPECT_THROW(backend.step(params, 1), CoincidentBodiesError) << solver;
    }
}

} // namespace
} // namespace gravlab::gputest
