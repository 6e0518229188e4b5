// The side-by-side comparison with both runs on the CUDA backend, mirroring tests/app/ComparisonTest.cpp: the
// divergence of the GPU tree against the GPU direct sum equals the rms computed here from both runs' bodies matched by
// id (a std::map), also when the GPU ORB reorders the comparison run, and each run's energy error equals the drift
// computed here by the plain fp64 loops of EnergyReference.hpp.
//
// Design note: nothing here asks for bit-identical runs (the GPU tree's build uses atomics, so two runs of it need not
// agree to the last bit); the references are computed from the bodies the backends hand back, so the checks are the
// CPU test's: fp64 sums of the same squares (1e-12 relative); the energies differ by the device's summation (1e-9
// absolute on a drift, see the test).
#include "GpuTestSupport.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <Comparison.hpp>
#include <EnergyReference.hpp>
#include <IdentityChecks.hpp>
#include <map>

namespace gravlab {
namespace {

class ComparisonGpu : public gputest::CudaDeviceTest {};

using test::bodiesOf;

SimParams gpuPlummer(std::uint64_t seed) {
    SimParams params;
    params.scenario = "plummer";
    params.bodyCount = 4096;
    params.seed = seed;
    params.backend = BackendKind::Cuda;
    params.solver = "direct";
    params.timeStep = 0.01;
    return params;
}

ComparisonCadence everySample() {
    ComparisonCadence cadence;
    cadence.energyIntervalSeconds = 0;
    cadence.maxEnergySeconds = 1e9; // measure at every sample however long it takes: the test checks them all
    cadence.wallSeconds = [] { return 0.0; };
    return cadence;
}

double rmsById(const Bodies& a, const Bodies& b) {
    std::map<std::uint64_t, std::size_t> indexInB;
    for (std::size_t j = 0; j < b.size(); ++j)
        indexInB[b.id[j]] = j;
    double sum = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::size_t j = indexInB.at(a.id[i]);
        sum += std::pow(double(a.x[i]) - b.x[j], 2) + std::pow(double(a.y[i]) - b.y[j], 2) +
               std::pow(double(a.z[i]) - b.z[j], 2);
    }
    return std::sqrt(sum / double(a.size()));
}

void runFrames(Simulation& main, Comparison& comparison, int frames, int stepsPerFrame) {
    for (int frame = 0; frame < frames; ++frame) {
        main.step(stepsPerFrame);
        comparison.follow(main);
    }
}

TEST_F(ComparisonGpu, TreeAgainstDirectMatchesTheRmsAndTheEnergyDriftsComputedHere) {
    const std::uint64_t seed = gputest::freshSeed();
    SCOPED_TRACE(gputest::seedTrace(seed));
    const SimParams params = gpuPlummer(seed);
    Simulation main(params);
    const test::EnergyFp64 mainStart =
        test::energyFp64(bodiesOf(main), params.gravitationalConstant, params.softeningLength);
    Comparison comparison(main, {.solver = "tree", .openingAngle = 0.9, .orbDomainCount = std::nullopt, .substeps = 1},
                          everySample());
    runFrames(main, comparison, 4, 5);

    const double reference = rmsById(bodiesOf(main), bodiesOf(comparison.run()));
    ASSERT_GT(reference, 0.0) << "theta 0.9 must change the forces, or this test shows nothing";
    const DivergenceSample& latest = comparison.history().latest();
    EXPECT_NEAR(latest.rmsPositionDifference, reference, 1e-12 * reference);
    const auto drift = [&](const Simulation& run) {
        const double now =
            test::energyFp64(bodiesOf(run), params.gravitationalConstant, params.softeningLength).total();
        return std::abs(now - mainStart.total()) / std::abs(mainStart.total());
    };
    // Both runs started from the initial conditions, so both drifts are against the same E0 here. The device's
    // energies accumulate in fp64 over pair distances taken from float positions, which puts about 1e-10 of |E| of
    // summation-order noise into each drift (seen up to 1.8e-10 on an H100); a wrong E0 or state would be 1e-7 off.
    EXPECT_NEAR(latest.energyErrorA, drift(main), 1e-9);
    EXPECT_NEAR(latest.energyErrorB, drift(comparison.run()), 1e-9);
}

TEST_F(ComparisonGpu, BodiesReorderedByTheGpuOrbAreMatchedById) {
    const std::uint64_t seed = gputest::freshSeed();
    SCOPED_TRACE(gputest::seedTrace(seed));
    Simulation main(gpuPlummer(seed));
    Comparison comparison(main, {.solver = "direct", .openingAngle = 0.5, .orbDomainCount = 16, .substeps = 1},
                          everySample());
    runFrames(main, comparison, 3, 4);

    const Bodies a = bodiesOf(main);
    const Bodies b = bodiesOf(comparison.run());
    std::size_t sameIdAtSameIndex = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        sameIdAtSameIndex += a.id[i] == b.id[i] ? 1 : 0;
    ASSERT_LT(sameIdAtSameIndex, a.size() / 2) << "ORB did not reorder the comparison run; the test shows nothing";
    const double reference = rmsById(a, b);
    EXPECT_NEAR(comparison.history().latest().rmsPositionDifference, reference, 1e-12 * reference + 1e-300);
    // The same direct forces summed in another order: fp32 rounding only (the CPU test's bound).
    EXPECT_LT(reference, 1e-4);
}

} // namespace
} // namespace gravlab
