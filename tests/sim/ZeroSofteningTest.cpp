// Softening 0 on the CPU: the direct solver's forces against a long double Newtonian sum, an eccentric Kepler orbit
// against its analytic period, a coincident pair reported with the state rolled back (ZeroSofteningChecks.hpp), and
// validation that keeps the tree at a positive softening and says why.
#include "SimTestSupport.hpp"
#include "core/CpuBackend.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <ZeroSofteningChecks.hpp>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

TEST(ZeroSoftening, DirectForcesMatchTheNewtonianSum) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    CpuBackend backend;
    // As DirectSumFloatTest: fp32 terms and sums err by a few 1e-7 of the magnitude sum A_i at N ~ 1000 (a random
    // walk of N roundings); 1e-5 of A_i leaves a wide margin while a NaN, a softened or a missing term fails it.
    test::expectNewtonianForces(backend, "direct", random, 1e-5);
}

TEST(ZeroSoftening, KeplerOrbitKeepsTheAnalyticPeriod) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    CpuBackend backend;
    test::expectKeplerPeriod(backend, "direct", random);
}

TEST(ZeroSoftening, CoincidentPairIsReportedAndTheStateKept) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    CpuBackend backend;
    test::expectCoincidentPairReported(backend, "direct", random);
}

TEST(ZeroSoftening, CoincidentPairReachesTheSimulationsCaller) {
    std::mt19937_64 random(simtest::freshSeed());
    Bodies bodies = test::zeroSofteningBodies(40, random);
    bodies.x[9] = bodies.x[30];
    bodies.y[9] = bodies.y[30];
    bodies.z[9] = bodies.z[30];
    SimParams params;
    params.backend = BackendKind::Cpu;
    params.softeningLength = 0.0;
    params.timeStep = 1e-3;
    Simulation simulation(params, Snapshot{bodies});
    EXPECT_THROW(simulation.step(3), CoincidentBodiesError);
    EXPECT_EQ(simulation.stepCount(), 0u) << "a rolled-back step does not count";
}

TEST(ZeroSoftening, PositiveSofteningIgnoresCoincidentPairs) {
    // Softened, two bodies at one point simply exert no force on each other (r = 0 gives 0 * finite): no error.
    std::mt19937_64 random(7);
    Bodies bodies = test::zeroSofteningBodies(16, random);
    bodies.x[5] = bodies.x[4];
    bodies.y[5] = bodies.y[4];
    bodies.z[5] = bodies.z[4];
    CpuBackend backend;
    backend.load(bodies);
    SimParams params;
    params.softeningLength = 0.05;
    EXPECT_NO_THROW(backend.step(params, 2));
}

TEST(ZeroSoftening, ValidationKeepsTheTreePositiveAndNamesIt) {
    SimParams params;
    params.softeningLength = 0.0;
    EXPECT_NO_THROW(validateSimParams(params)) << "the default solver, direct, takes softening 0";
    params.solver = "tree";
    try {
        validateSimParams(params);
        ADD_FAILURE() << "tree with softening 0 was accepted";
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), "softening");
        const std::string message = error.what();
        for (const std::string part : {"softening = 0 is out of range for solver 'tree'", "1e-05 <= softening <= 10",
                                       "'direct'", "'direct-fp64'"})
            EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' missing from: " << message;
    }
    params.softeningLength = kSmallestPositiveSoftening;
    EXPECT_NO_THROW(validateSimParams(params));
    params.softeningLength = -1e-3;
    params.solver = "direct";
    EXPECT_THROW(validateSimParams(params), InvalidParameterError);
}

} // namespace
} // namespace gravlab
