// The OpenGL compute backend against independent references: the fp64 direct sum (DirectSumCpu.hpp, O(N^2) in
// double), the CPU backend's KDK steps, the fp64 energy of a Kepler binary written in the test (EnergyReference.hpp),
// and the bodies the test made (round trips, vertices). Runs on Mesa's llvmpipe through EGL in CI, so N stays at a
// few hundred to a thousand; skips with the reason when no GL 4.5 context with compute shaders can be made.
#include "RenderTestSupport.hpp"

#include <gravlab/render/BodyVertexFeed.hpp>
#include <gravlab/render/GlCompute.hpp>
#include <gravlab/render/GlObjects.hpp>
#include <gravlab/render/ParticleRenderer.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <EnergyReference.hpp>
#include <IdentityChecks.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

namespace gravlab::test {
namespace {

class GlComputeBackendTest : public HeadlessGlTest {
protected:
    void SetUp() override {
        HeadlessGlTest::SetUp();
        if (IsSkipped())
            return;
        const GlComputeSupport support = queryGlComputeSupport();
        if (!support.usable())
            GTEST_SKIP() << "this GL context cannot run the compute backend: it lacks " << support.missing;
    }

    static SimParams glParams(double softening = 0.05) {
        SimParams params;
        params.backend = BackendKind::Gl;
        params.solver = "direct";
        params.softeningLength = softening;
        return params;
    }
};

/// G sum_j |m_j d_ij| / (r^2 + eps^2)^(3/2) in fp64: the sum of the magnitudes of body i's pair terms, the scale
/// against which float summation error is bounded.
double pairMagnitudeSum(const Bodies& bodies, std::size_t i, const GravityParams& gravity) {
    double sum = 0;
    for (std::size_t j = 0; j < bodies.size(); ++j) {
        const double dx = double(bodies.x[j]) - bodies.x[i], dy = double(bodies.y[j]) - bodies.y[i],
                     dz = double(bodies.z[j]) - bodies.z[i];
        const double r2 = dx * dx + dy * dy + dz * dz + gravity.softeningLength * gravity.softeningLength;
        sum += double(bodies.mass[j]) * std::sqrt(dx * dx + dy * dy + dz * dz) / (r2 * std::sqrt(r2));
    }
    return gravity.gravitationalConstant * sum;
}

/// Checks the GL backend's accelerations of bodies against the fp64 direct sum, body by body, within the bound of
/// recursive float summation; prints the largest relative error.
void expectAccelerationsWithinSummationError(const Bodies& bodies, const SimParams& params) {
    const std::unique_ptr<SimulationBackend> backend = createGlComputeBackend(params);
    backend->load(bodies);
    Vec3Arrays<float> gl;
    backend->readAccelerations(params, gl);
    const GravityParams gravity = params.gravity();
    Vec3Arrays<double> reference;
    computeAccelerationsFp64(bodies, gravity, reference);
    // Recursive float summation of N terms errs by at most N u times the sum of their magnitudes (Higham, Accuracy
    // and Stability of Numerical Algorithms, 4.2), u = 2^-24; each term carries about 20 u more from its own
    // arithmetic (a difference, a dot product, inversesqrt within 2 ulp by the GLSL spec, three products, G; the range
    // guard's scalings are exact powers of two).
    const double unitRoundoff = std::ldexp(1.0, -24);
    const std::size_t count = bodies.size();
    std::size_t worst = 0;
    double worstRatio = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const double error = std::hypot(gl.x[i] - reference.x[i], gl.y[i] - reference.y[i], gl.z[i] - reference.z[i]);
        const double bound = double(count + 20) * unitRoundoff * pairMagnitudeSum(bodies, i, gravity);
        ASSERT_LE(error, bound) << "body " << i;
        const double magnitude = std::hypot(reference.x[i], reference.y[i], reference.z[i]);
        if (error / magnitude > worstRatio) {
            worstRatio = error / magnitude;
            worst = i;
        }
    }
    std::cout << "[ gl ] N = " << count << ": largest relative error " << worstRatio << " (body " << worst << ")\n";
}

// A work group holds 512 targets and a tile 128 sources: 257, 777 and 1000 leave padded tiles and groups.
TEST_F(GlComputeBackendTest, AccelerationsMatchTheFp64DirectSumWithinFloatSummationError) {
    for (const std::size_t count : {std::size_t{257}, std::size_t{777}, std::size_t{1000}}) {
        const std::uint64_t seed = freshSeed();
        SCOPED_TRACE(seedTrace(seed) + ", N = " + std::to_string(count));
        std::mt19937_64 random(seed);
        SimParams params = glParams(std::uniform_real_distribution<double>(0.01, 0.1)(random));
        params.gravitationalConstant = std::uniform_real_distribution<double>(0.5, 2.0)(random);
        expectAccelerationsWithinSummationError(bodiesWithIdentities(count, seed), params);
    }
}

// Bodies 1e13 length units apart: unscaled, 1 / r^3 ~ 1e-39 would leave float's normal range and the GPU would flush
// it to zero; the shader's range guard (positions scaled by 2^-20 on load) keeps every factor normal.
TEST_F(GlComputeBackendTest, AccelerationsStayAccurateAcrossAstronomicalDistances) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    Bodies bodies = bodiesWithIdentities(300, seed);
    for (auto* coordinate : {&bodies.x, &bodies.y, &bodies.z})
        for (float& value : *coordinate)
            value *= 1e13f;
    expectAccelerationsWithinSummationError(bodies, glParams(1.0));
}

TEST_F(GlComputeBackendTest, KdkStepsMatchTheCpuBackendWithinFloatTolerance) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const Bodies bodies = bodiesWithIdentities(600, seed);
    SimParams params = glParams();
    params.timeStep = 0.01;
    const std::unique_ptr<SimulationBackend> gl = createGlComputeBackend(params);
    gl->load(bodies);
    gl->step(params, 4);
    SimParams cpuParams = params;
    cpuParams.backend = BackendKind::Cpu;
    const std::unique_ptr<SimulationBackend> cpu = createBackend(cpuParams);
    cpu->load(bodies);
    cpu->step(cpuParams, 4);
    Bodies onGl, onCpu;
    gl->readBodies(onGl);
    cpu->readBodies(onCpu);
    // The two force sums differ by float rounding, at most N u sum|a_ij| ~ 600 * 6e-8 * 1 ~ 4e-5 here (masses total
    // 1/2 within a unit cube); over 4 steps of 0.01 the velocities then differ by about 4 dt 4e-5 = 1.6e-6 and the
    // positions by far less, next to the kicks' and drifts' own rounding (u |v|, u |x|, ~1e-7): bounds of 1e-5 and
    // 2e-6 leave a margin of a few and still catch a wrong half step (dt/2 a ~ 1e-3).
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        EXPECT_NEAR(onGl.vx[i], onCpu.vx[i], 1e-5) << "body " << i;
        EXPECT_NEAR(onGl.vy[i], onCpu.vy[i], 1e-5) << "body " << i;
        EXPECT_NEAR(onGl.vz[i], onCpu.vz[i], 1e-5) << "body " << i;
        EXPECT_NEAR(onGl.x[i], onCpu.x[i], 2e-6) << "body " << i;
        EXPECT_NEAR(onGl.y[i], onCpu.y[i], 2e-6) << "body " << i;
        EXPECT_NEAR(onGl.z[i], onCpu.z[i], 2e-6) << "body " << i;
    }
    // The steps moved the bodies: the comparison is not of two untouched copies.
    EXPECT_GT(std::abs(onGl.vx[0] - bodies.vx[0]) + std::abs(onGl.vy[0] - bodies.vy[0]), 1e-4);
}

TEST_F(GlComputeBackendTest, KeplerBinaryConservesEnergyOverAnOrbit) {
    SimParams params = glParams(1e-3);
    params.timeStep = 2.0 * 3.14159265358979 / 2000.0; // 2000 steps per period (e = 0.5, semi-major axis 1)
    const Bodies binary = generateScenario("kepler-binary", 2, 1, {});
    const std::unique_ptr<SimulationBackend> backend = createGlComputeBackend(params);
    backend->load(binary);
    const double initial = energyFp64(binary, 1.0, params.softeningLength).total();
    double largestError = 0;
    for (int sample = 0; sample < 20; ++sample) {
        backend->step(params, 100);
        Bodies now;
        backend->readBodies(now);
        largestError =
            std::max(largestError, std::abs(energyFp64(now, 1.0, params.softeningLength).total() / initial - 1));
    }
    // KDK keeps the energy error bounded at O((omega dt)^2) with omega = sqrt(G M / r_peri^3) = 2.8 at pericentre
    // (r = 0.5): (2.8 * 3.1e-3)^2 ~ 8e-5; float rounding adds about sqrt(2000) u ~ 3e-6. A wrong kick (a full step
    // instead of a half) or a sign error gives errors of order 1.
    std::cout << "[ gl ] Kepler binary: largest relative energy error over one orbit " << largestError << "\n";
    EXPECT_LT(largestError, 2e-4);
    EXPECT_GT(largestError, 0.0); // energies were really measured on a moving state
}

TEST_F(GlComputeBackendTest, ReadBodiesReturnsTheLoadedBodiesBitForBit) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const Bodies bodies = bodiesWithIdentities(999, seed);
    const std::unique_ptr<SimulationBackend> backend = createGlComputeBackend(glParams());
    backend->load(bodies);
    Bodies back;
    backend->readBodies(back);
    ASSERT_EQ(back.size(), bodies.size());
    const auto sameBits = [](const std::vector<float>& a, const std::vector<float>& b) {
        return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
    };
    EXPECT_TRUE(sameBits(back.x, bodies.x) && sameBits(back.y, bodies.y) && sameBits(back.z, bodies.z));
    EXPECT_TRUE(sameBits(back.vx, bodies.vx) && sameBits(back.vy, bodies.vy) && sameBits(back.vz, bodies.vz));
    EXPECT_TRUE(sameBits(back.mass, bodies.mass) && sameBits(back.colorKey, bodies.colorKey));
    EXPECT_EQ(back.id, bodies.id);
    EXPECT_EQ(back.component, bodies.component);
    EXPECT_EQ(backend->bodyIdentity(998), (BodyIdentity{bodies.id[998], bodies.component[998]}));
}

TEST_F(GlComputeBackendTest, VertexWriteFillsAGlBufferWithPositionsAndColourKeys) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const Bodies bodies = bodiesWithIdentities(300, seed);
    const std::unique_ptr<SimulationBackend> backend = createGlComputeBackend(glParams());
    backend->load(bodies);
    // A buffer larger than needed, as the renderer's may be; its tail must stay as it was.
    const std::size_t capacity = 320;
    std::vector<RenderVertex> sentinel(capacity, RenderVertex{-7.0f, -7.0f, -7.0f, -7.0f});
    GlBuffer buffer = createBuffer();
    glNamedBufferStorage(buffer.id(), GLsizeiptr(capacity * sizeof(RenderVertex)), sentinel.data(),
                         GL_DYNAMIC_STORAGE_BIT);
    const VisualSource& visuals = backend->visuals();
    ASSERT_TRUE(visuals.canWriteVerticesToGlBuffer());
    visuals.writeVerticesToGlBuffer({buffer.id()}, capacity);
    std::vector<RenderVertex> written(capacity);
    glGetNamedBufferSubData(buffer.id(), 0, GLsizeiptr(capacity * sizeof(RenderVertex)), written.data());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        EXPECT_EQ(written[i].x, bodies.x[i]) << "vertex " << i;
        EXPECT_EQ(written[i].y, bodies.y[i]) << "vertex " << i;
        EXPECT_EQ(written[i].z, bodies.z[i]) << "vertex " << i;
        EXPECT_EQ(written[i].colorScalar, bodies.colorKey[i]) << "vertex " << i;
    }
    for (std::size_t i = bodies.size(); i < capacity; ++i)
        EXPECT_EQ(written[i].x, -7.0f) << "vertex " << i << " lies past the bodies";
    EXPECT_THROW(visuals.writeVerticesToGlBuffer({buffer.id()}, 299), std::invalid_argument);
}

// The renderer's side: BodyVertexFeed takes the dispatch path (no host copy, no CUDA splatter) and the particle
// renderer's own buffer holds the bodies after a step, as read back by the backend; copyToHost matches them too.
TEST_F(GlComputeBackendTest, VertexFeedWritesTheRenderersBufferWithoutAHostCopy) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    SimParams params = glParams();
    const std::unique_ptr<SimulationBackend> backend = createGlComputeBackend(params);
    backend->load(bodiesWithIdentities(700, seed));
    backend->step(params, 2);
    Bodies stepped;
    backend->readBodies(stepped);
    std::ostringstream log;
    BodyVertexFeed feed(log);
    ParticleRenderer renderer(16); // too small: the feed must grow it
    feed.update(backend->visuals(), renderer);
    EXPECT_EQ(feed.path(), "GL compute, written into the vertex buffer");
    EXPECT_FALSE(feed.hostVertices().has_value());
    EXPECT_EQ(feed.deviceLight(), nullptr);
    ASSERT_EQ(renderer.vertexCount(), stepped.size());
    std::vector<RenderVertex> drawn(stepped.size());
    glGetNamedBufferSubData(renderer.vertexBuffer(), 0, GLsizeiptr(drawn.size() * sizeof(RenderVertex)), drawn.data());
    const std::span<const RenderVertex> copied = feed.copyToHost(backend->visuals());
    ASSERT_EQ(copied.size(), stepped.size());
    for (std::size_t i = 0; i < stepped.size(); ++i) {
        EXPECT_EQ(drawn[i].x, stepped.x[i]) << "vertex " << i;
        EXPECT_EQ(drawn[i].z, stepped.z[i]) << "vertex " << i;
        EXPECT_EQ(drawn[i].colorScalar, stepped.colorKey[i]) << "vertex " << i;
        EXPECT_EQ(copied[i].y, stepped.y[i]) << "vertex " << i;
    }
    EXPECT_TRUE(log.str().empty()) << log.str();
}

TEST_F(GlComputeBackendTest, AStepThatLeavesNonFiniteBodiesIsRolledBack) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    Bodies bodies = bodiesWithIdentities(100, seed);
    bodies.vx[17] = 3e38f; // the drift overflows this body's position to inf
    SimParams params = glParams();
    params.timeStep = 1.0;
    const std::unique_ptr<SimulationBackend> backend = createGlComputeBackend(params);
    backend->load(bodies);
    EXPECT_THROW(backend->step(params, 3), NonFiniteStateError);
    Bodies back;
    backend->readBodies(back);
    EXPECT_EQ(back.x, bodies.x);
    EXPECT_EQ(back.vx, bodies.vx);
}

TEST_F(GlComputeBackendTest, RefusesWhatItCannotRunNamingTheAlternative) {
    try {
        createGlComputeBackend(glParams(0.0));
        FAIL() << "softening 0 was accepted";
    } catch (const InvalidParameterError& error) {
        EXPECT_NE(std::string(error.what()).find("--backend cpu or cuda"), std::string::npos) << error.what();
    }
    SimParams tree = glParams();
    tree.solver = "tree";
    EXPECT_THROW(createGlComputeBackend(tree), InvalidParameterError);
}

} // namespace
} // namespace gravlab::test
