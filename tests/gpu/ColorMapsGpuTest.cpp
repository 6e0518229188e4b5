// The colour maps of per-body quantities on the CUDA backend: speed, |a| and density against the CPU backend's values
// for the same bodies and against values computed here, the tree-force error against the fp64 CPU direct sum, the
// sample above the all-bodies limit, a reused error map after the bodies were permuted, and the exact solver's
// fallback.
#include "ColourReorderChecks.hpp"
#include "GpuTestSupport.hpp"
#include "color/ForceErrorSample.hpp"
#include "color/cuda/ScalarColorsGpu.hpp"
#include "core/CpuBackend.hpp"
#include "device/cuda/CudaBackend.hpp"

#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <algorithm>

namespace gravlab::gputest {
namespace {

SimParams paramsFor(const char* solver) {
    SimParams params;
    params.solver = solver;
    params.openingAngle = 0.7;
    params.softeningLength = 0.05;
    return params;
}

struct Colored {
    std::vector<float> values;
    std::vector<RenderVertex> vertices;
    ColorScale scale;
};

Colored colorIn(SimulationBackend& backend, ColorMode mode) {
    backend.visuals().setColorMode(mode);
    Colored state;
    state.vertices.resize(backend.visuals().vertexCount());
    backend.visuals().writeVertices(state.vertices);
    backend.visuals().readColorValues(state.values);
    state.scale = backend.visuals().colorScale(nbodyUnits());
    return state;
}

// Speeds from the same float velocities: the device's sqrtf is correctly rounded, as the host's, and the sum of
// squares differs at most by fma contraction: 1e-6 relative. The range comes from the same sample, so the vertex
// scalars agree to the same order.
TEST_F(CudaDeviceTest, SpeedsAndTheirColoursMatchTheCpuBackend) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(100'000, random);
    CpuBackend cpu;
    CudaBackend gpu;
    cpu.load(bodies);
    gpu.load(bodies);
    const Colored onCpu = colorIn(cpu, ColorMode::Speed);
    const Colored onGpu = colorIn(gpu, ColorMode::Speed);
    ASSERT_EQ(onGpu.values.size(), bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const double speed = std::sqrt(double(bodies.vx[i]) * bodies.vx[i] + double(bodies.vy[i]) * bodies.vy[i] +
                                       double(bodies.vz[i]) * bodies.vz[i]);
        ASSERT_NEAR(onGpu.values[i], speed, 1e-6 * speed + 1e-12) << "body " << i;
        ASSERT_NEAR(onGpu.vertices[i].colorScalar, onCpu.vertices[i].colorScalar, 1e-5f) << "body " << i;
    }
    EXPECT_NEAR(onGpu.scale.low, onCpu.scale.low, 1e-6 * onCpu.scale.high);
    EXPECT_NEAR(onGpu.scale.high, onCpu.scale.high, 1e-6 * onCpu.scale.high);
}

// |a| against the norm of the accelerations the backend hands out: the same floats, so 1e-6 relative.
TEST_F(CudaDeviceTest, AccelerationMagnitudesAreTheNormsOfTheLastForces) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    CudaBackend gpu;
    gpu.load(randomBall(50'000, random));
    Vec3Arrays<float> accelerations;
    gpu.readAccelerations(paramsFor("tree"), accelerations);
    const Colored state = colorIn(gpu, ColorMode::Acceleration);
    ASSERT_EQ(state.values.size(), accelerations.size());
    for (std::size_t i = 0; i < accelerations.size(); ++i) {
        const double a = std::hypot(double(accelerations.x[i]), double(accelerations.y[i]), double(accelerations.z[i]));
        ASSERT_NEAR(state.values[i], a, 1e-6 * a) << "body " << i;
    }
    EXPECT_TRUE(state.scale.logarithmic);
}

// The potential map on the GPU is its tree potential walk at the last evaluation's settings, under the direct solver
// too (a separate octree) and under the tree (the stepping octree): against the fp64 CPU pair sum the relative errors
// are the tree's at theta 0.7, the 99th percentile under 1e-3 and none above 5e-3, as on the CPU.
TEST_F(CudaDeviceTest, PotentialsMatchTheFp64PairSum) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(20'000, random);
    for (const char* solver : {"direct", "tree"}) {
        SCOPED_TRACE(solver);
        CudaBackend gpu;
        gpu.load(bodies);
        const SimParams params = paramsFor(solver);
        Vec3Arrays<float> accelerations;
        gpu.readAccelerations(params, accelerations);
        const Colored state = colorIn(gpu, ColorMode::Potential);
        ASSERT_EQ(state.values.size(), bodies.size()) << state.scale.note;
        Bodies current;
        gpu.readBodies(current); // the order of the values
        std::vector<double> reference;
        computeDirectPotentialsFp64(current, params.gravity(), reference);
        std::vector<double> errors(current.size());
        for (std::size_t i = 0; i < current.size(); ++i) {
            errors[i] = std::abs(state.values[i] - reference[i]) / std::abs(reference[i]);
            ASSERT_LT(errors[i], 5e-3) << "body " << i;
        }
        std::sort(errors.begin(), errors.end());
        EXPECT_LT(errors[errors.size() * 99 / 100], 1e-3);
    }
}

// The same grid (bounds from the same sample) on both devices; cell sums differ only by the order of the float
// additions (atomics), about 1e-6 relative for cells of tens of bodies.
TEST_F(CudaDeviceTest, GridDensitiesMatchTheCpuBackend) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const Bodies bodies = generateScenario("plummer", 200'000, seed);
    CpuBackend cpu;
    CudaBackend gpu;
    cpu.load(bodies);
    gpu.load(bodies);
    const Colored onCpu = colorIn(cpu, ColorMode::Density);
    const Colored onGpu = colorIn(gpu, ColorMode::Density);
    ASSERT_EQ(onGpu.values.size(), bodies.size());
    std::size_t inGrid = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        ASSERT_NEAR(onGpu.values[i], onCpu.values[i], 1e-5 * onCpu.values[i]) << "body " << i;
        inGrid += onCpu.values[i] > 0 ? 1 : 0;
    }
    EXPECT_GT(inGrid, bodies.size() * 9 / 10) << "the grid should hold nearly every body of a Plummer sphere";
}

/// The error a checked body should show and how far the device's fp32 direct sum may move it.
struct ExpectedError {
    double error;     ///< |a_tree - a_direct| / |a_direct|, a_direct from the fp64 oracle
    double tolerance; ///< see the test's comment
};

std::vector<ExpectedError> expectedErrors(const Bodies& bodies, const Vec3Arrays<float>& tree, const SimParams& params,
                                          const std::vector<std::size_t>& targets) {
    const GravityParams gravity = params.gravity();
    Vec3Arrays<double> direct;
    computeAccelerationsFp64(bodies, gravity, targets, direct);
    const std::vector<double> sums = magnitudeSums(bodies, gravity, targets);
    const double bound = fp32DirectSumBound(bodies.size());
    std::vector<ExpectedError> expected;
    for (std::size_t k = 0; k < targets.size(); ++k) {
        const std::size_t i = targets[k];
        const double reference = std::hypot(direct.x[k], direct.y[k], direct.z[k]);
        const double error =
            std::hypot(tree.x[i] - direct.x[k], tree.y[i] - direct.y[k], tree.z[i] - direct.z[k]) / reference;
        // The fp32 direct sum is off by at most bound * A_i; that moves both |a_tree - a_direct| and |a_direct| by as
        // much, so the ratio by at most bound * A_i / |a_direct| * (1 + error); twice that, plus the ratio's own float
        // rounding.
        expected.push_back({error, 2.0 * bound * sums[k] / reference * (1.0 + error) + 1e-5 * error});
    }
    return expected;
}

// Against the fp64 oracle, within the fp32 direct sum's bound (GpuTestSupport.hpp): a missing or doubled source
// block, a wrong softening or a swapped target moves the error by far more than that.
TEST_F(CudaDeviceTest, ForceErrorsMatchTheFp64DirectSumAndSampleAboveTheLimit) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    for (const std::size_t count : {std::size_t{20'000}, kForceErrorAllBodiesLimitCuda + 40'000}) {
        SCOPED_TRACE("N = " + std::to_string(count));
        const Bodies bodies = generateScenario("plummer", count, seed);
        CudaBackend gpu;
        gpu.load(bodies);
        const SimParams params = paramsFor("tree");
        Vec3Arrays<float> tree;
        gpu.readAccelerations(params, tree);
        const Colored state = colorIn(gpu, ColorMode::ForceError);
        ASSERT_EQ(state.values.size(), count);
        const std::size_t sampled = forceErrorSampleCount(count, kForceErrorAllBodiesLimitCuda);
        std::vector<std::size_t> checkedHere;
        for (std::size_t k = 0; k < sampled; k += sampled / 200)
            checkedHere.push_back(std::size_t(std::uint64_t(k) * count / sampled));
        const std::vector<ExpectedError> expected = expectedErrors(bodies, tree, params, checkedHere);
        for (std::size_t k = 0; k < checkedHere.size(); ++k)
            EXPECT_NEAR(state.values[checkedHere[k]], expected[k].error, expected[k].tolerance)
                << "body " << checkedHere[k];
        const auto withValue =
            std::count_if(state.values.begin(), state.values.end(), [](float v) { return !std::isnan(v); });
        EXPECT_EQ(std::size_t(withValue), sampled);
        for (std::size_t i = 0; i < count; ++i) {
            if (std::isnan(state.values[i])) {
                ASSERT_EQ(state.vertices[i].colorScalar, kUnsampledColorScalar) << "body " << i;
            }
        }
    }
}

/// A device array reversed in place, through the host.
template <typename T> void reverseOnDevice(DeviceBuffer<T>& values, cudaStream_t stream) {
    std::vector<T> host(values.size());
    values.download(host, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::reverse(host.begin(), host.end());
    values.upload(host, stream);
}

/// Every body's colour scalar after one write of the force-error map.
std::vector<RenderVertex> forceErrorColours(ScalarColorsGpu& colors, const GpuColorInputs& inputs,
                                            cudaStream_t stream) {
    DeviceBuffer<RenderVertex> vertices(inputs.bodies.size());
    EXPECT_TRUE(colors.write(inputs, vertices.data(), stream));
    std::vector<RenderVertex> host(vertices.size());
    vertices.download(host, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return host;
}

// A force-error map is reused for a while across states, during which ORB may permute the bodies (load order
// included): each body must still show its own error. The device bodies reversed, the map reused (the same state
// version): colour by colour, every body's is the one it had (the CPU backend's twin: ColorMapsCpuTest).
TEST_F(CudaDeviceTest, AReusedForceErrorMapFollowsItsBodiesThroughAReorder) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const Bodies bodies = generateScenario("plummer", 20'000, seed);
    const SimParams params = paramsFor("tree");
    CudaBackend gpu;
    gpu.load(bodies);
    Vec3Arrays<float> tree;
    gpu.readAccelerations(params, tree);
    CudaStream stream;
    DeviceBodies device;
    uploadBodies(bodies, device, stream.get());
    std::vector<float4> accelerations(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i)
        accelerations[i] = float4{tree.x[i], tree.y[i], tree.z[i], 0.0f};
    device.acceleration.upload(accelerations, stream.get());
    ScalarColorsGpu colors;
    colors.coloring().setMode(ColorMode::ForceError);
    const GpuColorInputs inputs{device, true, params.gravity(), &findSolver("tree"), 7, {}};
    const std::vector<RenderVertex> before = forceErrorColours(colors, inputs, stream.get());
    reverseOnDevice(device.positionMass, stream.get());
    reverseOnDevice(device.velocityColor, stream.get());
    reverseOnDevice(device.acceleration, stream.get());
    reverseOnDevice(device.loadOrder, stream.get());
    test::expectColoursFollowTheReversal(before, forceErrorColours(colors, inputs, stream.get()));
}

TEST_F(CudaDeviceTest, ExactSolverHasNoTreeErrorAndKeepsComponentColours) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(3000, random);
    CudaBackend gpu;
    gpu.load(bodies);
    Vec3Arrays<float> accelerations;
    gpu.readAccelerations(paramsFor("direct"), accelerations);
    const Colored state = colorIn(gpu, ColorMode::ForceError);
    EXPECT_EQ(state.scale.legend, ColorLegend::Components);
    EXPECT_NE(state.scale.note.find("exact solver 'direct'"), std::string::npos) << state.scale.note;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        ASSERT_EQ(state.vertices[i].colorScalar, bodies.colorKey[i]) << "body " << i;
}

} // namespace
} // namespace gravlab::gputest
