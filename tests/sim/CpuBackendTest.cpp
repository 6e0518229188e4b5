// The CPU backend's bookkeeping: KDK with cached accelerations that follow changes of G and softening, render
// vertices, timings, and detection of non-finite state with rollback.
#include "core/CpuBackend.hpp"

#include "SimTestSupport.hpp"
#include "core/Leapfrog.hpp"

#include <gtest/gtest.h>

namespace gravlab {
namespace {

/// KDK composed by hand from the solver and the kick/drift functions, recomputing the first acceleration.
void referenceStep(Bodies& bodies, const SimParams& params) {
    const GravityParams gravity = params.gravity();
    const auto dt = float(params.timeStep);
    Vec3Arrays<float> accelerations;
    computeAccelerationsCpu(bodies, gravity, accelerations);
    kickCpu(bodies, accelerations, 0.5f * dt);
    driftCpu(bodies, dt);
    computeAccelerationsCpu(bodies, gravity, accelerations);
    kickCpu(bodies, accelerations, 0.5f * dt);
}

TEST(CpuBackend, StepsMatchHandComposedKdkAcrossChangesOfGravity) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies reference = simtest::randomBodies(300, random);
    CpuBackend backend;
    backend.load(reference);

    SimParams params;
    params.timeStep = 0.01;
    params.softeningLength = 0.05;
    backend.step(params, 2);
    referenceStep(reference, params);
    referenceStep(reference, params);
    // A new softening and G must not reuse the cached accelerations for the first half kick.
    params.softeningLength = 0.2;
    backend.step(params, 1);
    referenceStep(reference, params);
    params.gravitationalConstant = 3.0;
    backend.step(params, 1);
    referenceStep(reference, params);

    Bodies stepped;
    backend.readBodies(stepped);
    // Same functions on the same data with the same static OpenMP partition: the results agree bit for bit.
    EXPECT_EQ(stepped.x, reference.x);
    EXPECT_EQ(stepped.vx, reference.vx);
    EXPECT_EQ(stepped.vz, reference.vz);
}

TEST(CpuBackend, WritesRenderVerticesAndReportsItself) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = simtest::randomBodies(50, random);
    for (std::size_t i = 0; i < bodies.size(); ++i)
        bodies.colorKey[i] = float(i) / 50.0f;
    CpuBackend backend;
    backend.load(bodies);
    std::vector<RenderVertex> vertices(50);
    backend.visuals().writeVertices(vertices);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        EXPECT_EQ(vertices[i].x, bodies.x[i]);
        EXPECT_EQ(vertices[i].y, bodies.y[i]);
        EXPECT_EQ(vertices[i].z, bodies.z[i]);
        EXPECT_EQ(vertices[i].colorScalar, bodies.colorKey[i]);
    }
    std::vector<RenderVertex> tooFew(49);
    EXPECT_THROW(backend.visuals().writeVertices(tooFew), std::invalid_argument);
    EXPECT_EQ(backend.visuals().vertexCount(), bodies.size());
    EXPECT_FALSE(backend.visuals().canWriteVerticesOnDevice()) << "the bodies live on the host";
    EXPECT_THROW(backend.visuals().writeVerticesOnDevice(vertices.data(), vertices.size(), StreamHandle{}),
                 std::logic_error);

    EXPECT_NE(backend.description().find("CPU (OpenMP, "), std::string::npos) << backend.description();
    backend.step(SimParams{}, 3);
    const std::vector<PhaseTiming> timings = backend.lastStepTimings();
    ASSERT_EQ(timings.size(), 2u);
    EXPECT_EQ(timings[0].phase, "force");
    EXPECT_EQ(timings[1].phase, "integrate");
    EXPECT_GT(timings[0].milliseconds, 0.0);
}

TEST(CpuBackend, RejectsBodyArraysOfDifferentLengths) {
    Bodies bodies;
    bodies.resize(4);
    bodies.vz.resize(3);
    CpuBackend backend;
    EXPECT_THROW(backend.load(bodies), std::invalid_argument);
}

// With valid parameters and masses of order 1 the float solver's accelerations are bounded by about G M / eps^2
// (<= 1e13), so a state only stops being finite when the time step acts on extreme data; these bodies are built to
// overflow: 1e30 / (1e-3)^3 exceeds the float range in the first force evaluation.
Bodies overflowingPair() {
    Bodies bodies;
    bodies.resize(2);
    simtest::setBody(bodies, 0, {0, 0, 0}, {0, 0, 0}, 1e30);
    simtest::setBody(bodies, 1, {1e-3, 0, 0}, {0, 0, 0}, 1e30);
    return bodies;
}

TEST(CpuBackend, NonFiniteStateIsReportedWithItsStepAndRolledBack) {
    Bodies bodies = overflowingPair();
    CpuBackend backend;
    backend.load(bodies);
    SimParams params;
    params.timeStep = 1.0;
    params.softeningLength = 1e-5;
    try {
        backend.step(params, 5);
        FAIL() << "no exception";
    } catch (const NonFiniteStateError& error) {
        EXPECT_EQ(error.step(), 1u);
        EXPECT_EQ(error.affectedBodies(), 2u);
        const std::string message = error.what();
        EXPECT_NE(message.find("step 1: 2 of 2 bodies have non-finite positions or velocities"), std::string::npos)
            << message;
        EXPECT_NE(message.find("time step too large?"), std::string::npos) << message;
    }
    Bodies after;
    backend.readBodies(after);
    EXPECT_EQ(after.x, bodies.x) << "the state before the call must be restored";
    EXPECT_EQ(after.vx, bodies.vx);
}

/// A body flying at 3e38 per time unit overflows float positions (max 3.4e38) in its second step of dt = 1. Every
/// solver must see the infinite position after the drift without failing (the tree builds from it), and the step
/// check must name step 2.
void expectOverflowNamesTheFailingStep(std::string solver) {
    Bodies bodies;
    bodies.resize(2);
    simtest::setBody(bodies, 0, {0, 0, 0}, {0, 0, 0}, 0.5);
    simtest::setBody(bodies, 1, {1, 0, 0}, {3e38, 0, 0}, 0.5);
    CpuBackend backend;
    backend.load(bodies);
    SimParams params;
    params.solver = solver;
    params.timeStep = 1.0;
    try {
        backend.step(params, 4);
        FAIL() << "no exception";
    } catch (const NonFiniteStateError& error) {
        EXPECT_EQ(error.step(), 2u) << error.what();
    }
}

TEST(CpuBackend, OverflowAfterSeveralStepsNamesTheFailingStep) {
    for (const std::string solver : {"direct", "tree"}) {
        SCOPED_TRACE(std::string(solver));
        expectOverflowNamesTheFailingStep(solver);
    }
}

} // namespace
} // namespace gravlab
