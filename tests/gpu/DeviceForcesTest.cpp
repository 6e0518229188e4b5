// Every registered CUDA direct-sum solver against the fp64 CPU reference (DirectSumCpu.hpp) and against each other.
#include "GpuTestSupport.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>

#include <iostream>

namespace gravlab::gputest {
namespace {

/// The direct sums: every solver registered for CUDA that builds no tree.
const std::vector<std::string> kSolvers = [] {
    std::vector<std::string> names;
    for (const SolverInfo& solver : solverInfos())
        if (solver.runsOn(Device::Cuda) && !solver.drawsTreeCells)
            names.emplace_back(solver.name);
    return names;
}();

/// The fp64 reference accelerations of some targets and their magnitude sums A_i.
struct Reference {
    std::vector<std::size_t> targets;
    Vec3Arrays<double> accelerations;
    std::vector<double> scale;
};

Reference referenceFor(const Bodies& bodies, const GravityParams& gravity, std::vector<std::size_t> targets) {
    Reference reference{std::move(targets), {}, {}};
    computeAccelerationsFp64(bodies, gravity, reference.targets, reference.accelerations);
    reference.scale = magnitudeSums(bodies, gravity, reference.targets);
    return reference;
}

/// Evaluates every solver on bodies and checks the reference's targets with fp32DirectSumBound.
void expectSolversMatchReference(const Bodies& bodies, const GravityParams& gravity, const Reference& reference) {
    const double bound = fp32DirectSumBound(bodies.size());
    for (const std::string& solver : kSolvers) {
        SCOPED_TRACE("solver " + std::string(solver) + ", N = " + std::to_string(bodies.size()));
        const Vec3Arrays<float> device = deviceAccelerations(solver, bodies, gravity);
        const ErrorReport report =
            compareAccelerations(device, reference.targets, reference.accelerations, reference.scale);
        std::cout << solver << " N=" << bodies.size() << ": worst |a - a_fp64| / A_i = " << report.worstRatio
                  << " (bound " << bound << ")\n";
        EXPECT_LE(report.worstRatio, bound) << "worst target " << reference.targets[report.worstIndex];
    }
}

/// Both ends, the neighbours of the first pair-once group boundary and random bodies, count in all.
std::vector<std::size_t> sampledTargets(std::size_t bodyCount, std::size_t count, std::mt19937_64& random) {
    const std::size_t b = kSymmetricGroupSize;
    std::vector<std::size_t> targets = {0, 1, b - 1, b, b + 1, bodyCount - 2, bodyCount - 1};
    std::uniform_int_distribution<std::size_t> anyBody(0, bodyCount - 1);
    while (targets.size() < count)
        targets.push_back(anyBody(random));
    return targets;
}

TEST_F(CudaDeviceTest, EachSolverMatchesFp64ReferenceOnRandomBodies) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(3000 + random() % 2000, random);
    const GravityParams gravity = randomGravity(random);
    expectSolversMatchReference(bodies, gravity, referenceFor(bodies, gravity, allIndices(bodies.size())));
}

// Group and tile boundaries of both kernels: a lone body (no pairs: exactly zero), a pair, one short of, at and past
// the pair-once group size B (a diagonal block covers B + 1 bodies), several groups with a ragged end, and the tiled
// kernel's tile (128) and block (512 targets) edges.
TEST_F(CudaDeviceTest, EachSolverMatchesFp64ReferenceAtBlockEdges) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::size_t b = kSymmetricGroupSize;
    const std::size_t sizes[] = {1, 2, 3, 127, 129, b - 1, b, b + 1, b + 2, 2 * b + 1, 3 * b + 7};
    for (const std::size_t count : sizes) {
        const Bodies bodies = randomBall(count, random);
        const GravityParams gravity = randomGravity(random);
        expectSolversMatchReference(bodies, gravity, referenceFor(bodies, gravity, allIndices(count)));
    }
}

// A size past 2^20 with a ragged end: a random sample of targets plus both ends and the neighbours of a pair-once
// group boundary, each against the fp64 reference's targets overload.
TEST_F(CudaDeviceTest, EachSolverMatchesFp64ReferenceOnAMillionAndThreeBodies) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::size_t count = 1'000'003;
    const Bodies bodies = randomBall(count, random);
    const GravityParams gravity = randomGravity(random);
    std::vector<std::size_t> targets = sampledTargets(count, 200, random);
    expectSolversMatchReference(bodies, gravity, referenceFor(bodies, gravity, std::move(targets)));
}

// The pair-once solver against the tiled one on the same input, at a size for each of the pair-once kernel's two
// block shapes (64k bodies and more use the wide one): two independent fp32 evaluations, so the bound is twice the
// one each meets against fp64. Clustered input (a tight core inside a wide halo) gives close pairs and a wide range
// of separations.
TEST_F(CudaDeviceTest, SymmetricSolverMatchesTiledSolver) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    for (const std::size_t baseCount : {20000, 66000}) {
        Bodies bodies = randomBall(baseCount + random() % 5000, random, 10.0);
        const Bodies core = randomBall(bodies.size() / 4, random, 0.05);
        for (std::size_t i = 0; i < core.size(); ++i) {
            bodies.x[i] = core.x[i];
            bodies.y[i] = core.y[i];
            bodies.z[i] = core.z[i];
        }
        const GravityParams gravity = randomGravity(random);
        const Vec3Arrays<float> tiled = deviceAccelerations("direct", bodies, gravity);
        const Vec3Arrays<float> symmetric = deviceAccelerations("direct-symmetric", bodies, gravity);

        const std::vector<std::size_t> targets = sampledTargets(bodies.size(), 3000, random);
        const std::vector<double> scale = magnitudeSums(bodies, gravity, targets);
        Vec3Arrays<double> tiledAsReference;
        tiledAsReference.resize(targets.size());
        for (std::size_t t = 0; t < targets.size(); ++t) {
            tiledAsReference.x[t] = tiled.x[targets[t]];
            tiledAsReference.y[t] = tiled.y[targets[t]];
            tiledAsReference.z[t] = tiled.z[targets[t]];
        }
        const ErrorReport report = compareAccelerations(symmetric, targets, tiledAsReference, scale);
        const double bound = 2.0 * fp32DirectSumBound(bodies.size());
        std::cout << "symmetric vs tiled N=" << bodies.size() << ": worst ratio " << report.worstRatio << " (bound "
                  << bound << ")\n";
        EXPECT_LE(report.worstRatio, bound) << "N = " << bodies.size() << ", worst body " << targets[report.worstIndex];
    }
}

// Work weights: every body's sum covers all N bodies, so both solvers write N into acceleration.w, on the unsliced
// and the sliced (atomic) paths of the tiled kernel (a few hundred bodies fill fewer than 4 tiles per slice; 10^5 are
// sliced) and on the pair-once kernel's, whose vector atomics must leave w alone. The array starts as NaN, so a
// weight left unwritten fails.
TEST_F(CudaDeviceTest, EachSolverWritesWorkWeightN) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    for (const std::size_t count : {std::size_t{1}, 700 + random() % 100, 100000 + random() % 1000}) {
        const Bodies bodies = randomBall(count, random);
        for (const std::string& solver : kSolvers) {
            SCOPED_TRACE("solver " + std::string(solver) + ", N = " + std::to_string(count));
            CudaStream stream;
            DeviceBodies device;
            uploadBodies(bodies, device, stream.get());
            CUDA_CHECK(cudaMemsetAsync(device.acceleration.data(), 0xff, device.acceleration.bytes(), stream.get()));
            runDeviceSolver(solver, device, randomGravity(random), stream.get());
            std::vector<float4> acceleration(count);
            device.acceleration.download(acceleration, stream.get());
            stream.synchronize();
            for (std::size_t i = 0; i < count; ++i)
                ASSERT_EQ(acceleration[i].w, float(count)) << "body " << i;
        }
    }
}

// Bodies spread over 1e16 length units: the factor m / r^3 is near 1e-50, below fp32's smallest denormal, while the
// accelerations m / r^2 (about 1e-34) are ordinary floats. Without the range guard of ForceMath.cuh (positions
// scaled by 2^-20 before cubing) every acceleration here would come out as zero.
TEST_F(CudaDeviceTest, RangeGuardKeepsForcesAtHugeSeparations) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(500, random, 1e16);
    const GravityParams gravity{1.0, 0.05};
    expectSolversMatchReference(bodies, gravity, referenceFor(bodies, gravity, allIndices(bodies.size())));
}

} // namespace
} // namespace gravlab::gputest
