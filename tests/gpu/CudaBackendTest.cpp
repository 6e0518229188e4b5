// CudaBackend through the SimulationBackend interface, against the CPU backend and the fp64 CPU diagnostics.
#include "device/cuda/CudaBackend.hpp"

#include "GpuTestSupport.hpp"
#include "core/CpuBackend.hpp"

#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <cmath>
#include <iostream>

namespace gravlab::gputest {
namespace {

SimParams paramsFor(std::string solver, double timeStep, double softening) {
    SimParams params;
    params.solver = solver;
    params.timeStep = timeStep;
    params.softeningLength = softening;
    return params;
}

/// The largest |E - E0| / |E0| seen at checkpoints every steps / 10 steps, energies from the fp64 CPU diagnostics.
/// The maximum over the run is used because leapfrog's energy error oscillates: at one given step it may happen to
/// pass through zero on one path and not on the other.
double maxRelativeEnergyError(SimulationBackend& backend, const SimParams& params, const Bodies& start, int steps) {
    backend.load(start);
    const double initial = computeDiagnosticsCpu(start, params.gravity()).totalEnergy();
    double worst = 0.0;
    Bodies state;
    for (int checkpoint = 0; checkpoint < 10; ++checkpoint) {
        backend.step(params, steps / 10);
        backend.readBodies(state);
        const double energy = computeDiagnosticsCpu(state, params.gravity()).totalEnergy();
        worst = std::max(worst, std::abs(energy - initial) / std::abs(initial));
    }
    return worst;
}

// 1000 KDK steps of a 1k-body Plummer sphere (about 1.8 crossing times at dt = 0.005). Leapfrog's energy error is an
// O(dt^2) oscillation set by the orbits, not by the arithmetic, so each GPU solver must land near the CPU path's
// error: within a factor 3 of it (the orbits diverge chaotically between paths, so the errors are alike, not equal)
// plus 2e-6 for fp32 rounding that differs between the paths (measured on an H100: 1.4e-6 on both paths).
TEST_F(CudaDeviceTest, EnergyDriftOverThousandStepsMatchesCpuPath) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const Bodies start = generateScenario("plummer", 1024, seed);
    const int steps = 1000;

    CpuBackend cpu;
    const double cpuDrift = maxRelativeEnergyError(cpu, paramsFor("direct", 0.005, 0.05), start, steps);
    EXPECT_LT(cpuDrift, 1e-3) << "the reference run itself is off";
    for (const std::string solver : {"direct", "direct-symmetric"}) {
        SCOPED_TRACE(std::string("solver ") + std::string(solver));
        CudaBackend gpu;
        const double gpuDrift = maxRelativeEnergyError(gpu, paramsFor(solver, 0.005, 0.05), start, steps);
        std::cout << solver << ": max |dE/E| over " << steps << " steps: GPU " << gpuDrift << ", CPU " << cpuDrift
                  << "\n";
        EXPECT_LE(gpuDrift, 3.0 * cpuDrift + 2e-6);
    }
}

// A few steps from the same state on both backends: KDK with identical half steps keeps the states within the
// solvers' fp32 force differences (under 1e-6 of the magnitude sum, which is below 50 here, times dt per step) and
// a few roundings of each coordinate: 1e-6 relative for positions, 5e-6 for velocities. A kick of dt instead of
// dt/2, or a missing kick, moves velocities by about a dt = 2.5e-3 and fails.
TEST_F(CudaDeviceTest, FewStepsMatchCpuBackendState) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const Bodies start = generateScenario("plummer", 777, seed);
    const SimParams params = paramsFor("direct-symmetric", 0.005, 0.05);
    // The CPU has the plain direct sum only: the same physics, each pair evaluated from both sides.
    const SimParams cpuParams = paramsFor("direct", 0.005, 0.05);
    CpuBackend cpu;
    CudaBackend gpu;
    cpu.load(start);
    gpu.load(start);
    cpu.step(cpuParams, 3);
    gpu.step(params, 2);
    gpu.step(params, 1); // across step() calls the cached accelerations must carry over
    Bodies cpuState, gpuState;
    cpu.readBodies(cpuState);
    gpu.readBodies(gpuState);
    double worstPosition = 0.0, worstVelocity = 0.0;
    const auto relative = [](float a, float b) { return std::abs(double(a) - b) / (1.0 + std::abs(double(b))); };
    for (std::size_t i = 0; i < start.size(); ++i) {
        worstPosition = std::max({worstPosition, relative(gpuState.x[i], cpuState.x[i]),
                                  relative(gpuState.y[i], cpuState.y[i]), relative(gpuState.z[i], cpuState.z[i])});
        worstVelocity = std::max({worstVelocity, relative(gpuState.vx[i], cpuState.vx[i]),
                                  relative(gpuState.vy[i], cpuState.vy[i]), relative(gpuState.vz[i], cpuState.vz[i])});
        ASSERT_EQ(cpuState.mass[i], gpuState.mass[i]);
        ASSERT_EQ(cpuState.colorKey[i], gpuState.colorKey[i]);
    }
    std::cout << "3 steps: worst relative |dx| " << worstPosition << ", worst relative |dv| " << worstVelocity << "\n";
    EXPECT_LE(worstPosition, 1e-6);
    EXPECT_LE(worstVelocity, 5e-6);
}

// GPU diagnostics against computeDiagnosticsCpu (all fp64) on the same bodies. Kinetic energy and the momenta are
// fp64 sums of exact products of floats on both sides, differing only in order: 1e-12 of the magnitude sums. The
// potential's terms are fp32 on the GPU (rsqrt relative error 2^-22.9 plus four roundings, under 4e-7) and all of
// one sign, so the sum's relative error is below that too: bound 5e-7 (measured on an H100: 6e-9).
TEST_F(CudaDeviceTest, DiagnosticsMatchCpuFp64) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(4000 + random() % 1000, random);
    SimParams params;
    const GravityParams gravity = randomGravity(random);
    params.gravitationalConstant = gravity.gravitationalConstant;
    params.softeningLength = gravity.softeningLength;

    CudaBackend gpu;
    gpu.load(bodies);
    const Diagnostics device = gpu.diagnostics(params);
    const Diagnostics reference = computeDiagnosticsCpu(bodies, gravity);

    double momentumScale = 0.0, angularScale = 0.0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const double speed = std::hypot(bodies.vx[i], bodies.vy[i], bodies.vz[i]);
        momentumScale += bodies.mass[i] * speed;
        angularScale += bodies.mass[i] * speed * std::hypot(bodies.x[i], bodies.y[i], bodies.z[i]);
    }
    EXPECT_NEAR(device.kineticEnergy, reference.kineticEnergy, 1e-12 * reference.kineticEnergy);
    EXPECT_NEAR(device.potentialEnergy, reference.potentialEnergy, 5e-7 * std::abs(reference.potentialEnergy));
    for (int axis = 0; axis < 3; ++axis) {
        EXPECT_NEAR(device.linearMomentum[axis], reference.linearMomentum[axis], 1e-12 * momentumScale);
        EXPECT_NEAR(device.angularMomentum[axis], reference.angularMomentum[axis], 1e-12 * angularScale);
    }
    std::cout << "potential energy: GPU " << device.potentialEnergy << ", CPU fp64 " << reference.potentialEnergy
              << " (relative difference "
              << std::abs(device.potentialEnergy - reference.potentialEnergy) / std::abs(reference.potentialEnergy)
              << ")\n";
}

// A body whose drift overflows to infinity in the first step: the step must throw NonFiniteStateError naming step 1
// and the count, and leave exactly the loaded state behind: with ORB off (the rollback keeps positions and velocities
// alone) and on (it keeps the whole arrays, since migration may reorder masses, colours and ids).
TEST_F(CudaDeviceTest, NonFiniteStateIsReportedAndRolledBack) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(300, random);
    const std::size_t runaway = random() % bodies.size();
    bodies.x[runaway] = 3e38f;
    bodies.vx[runaway] = 3e38f;
    const SimParams params = paramsFor("direct", 1.0, 0.05);

    for (const std::string solver : {"direct", "direct-symmetric"}) {
        for (const std::uint32_t orbDomains : {0u, 8u}) {
            SCOPED_TRACE(std::string("solver ") + std::string(solver) + ", ORB domains " + std::to_string(orbDomains));
            SimParams solverParams = params;
            solverParams.solver = solver;
            solverParams.orb.domainCount = orbDomains;
            CudaBackend gpu;
            gpu.load(bodies);
            try {
                gpu.step(solverParams, 5);
                ADD_FAILURE() << "no NonFiniteStateError";
            } catch (const NonFiniteStateError& error) {
                EXPECT_EQ(error.step(), 1u);
                EXPECT_GE(error.affectedBodies(), 1u);
                EXPECT_NE(std::string(error.what()).find("step 1"), std::string::npos) << error.what();
            }
            Bodies after;
            gpu.readBodies(after);
            EXPECT_EQ(after.x, bodies.x);
            EXPECT_EQ(after.vx, bodies.vx);
            EXPECT_EQ(after.vz, bodies.vz);
            EXPECT_EQ(after.mass, bodies.mass);
            EXPECT_EQ(after.colorKey, bodies.colorKey);
            EXPECT_EQ(after.id, bodies.id);
        }
    }
}

// The host render path copies exactly the device state: positions and colour keys, bit for bit.
TEST_F(CudaDeviceTest, HostRenderVerticesAreTheBodyPositions) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const Bodies start = generateScenario("galaxy-collision", 5000, seed);
    CudaBackend gpu;
    gpu.load(start);
    gpu.step(paramsFor("direct", 0.005, 0.05), 2);
    Bodies state;
    gpu.readBodies(state);
    std::vector<RenderVertex> vertices(state.size(), RenderVertex{NAN, NAN, NAN, NAN});
    gpu.visuals().writeVertices(vertices);
    for (std::size_t i = 0; i < state.size(); ++i) {
        ASSERT_EQ(vertices[i].x, state.x[i]) << "body " << i;
        ASSERT_EQ(vertices[i].y, state.y[i]) << "body " << i;
        ASSERT_EQ(vertices[i].z, state.z[i]) << "body " << i;
        ASSERT_EQ(vertices[i].colorScalar, state.colorKey[i]) << "body " << i;
    }
}

TEST_F(CudaDeviceTest, AbsurdBodyCountIsRefusedNamingNAndMemory) {
    const std::uint64_t absurd = 1'000'000'000'000ull;
    try {
        requireDeviceMemoryForBodies(absurd, CudaBackend::kDeviceBytesPerBody);
        ADD_FAILURE() << "no error for " << absurd << " bodies";
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("1000000000000 bodies"), std::string::npos) << message;
        // N times the bytes per body, in decimal terabytes with two decimals (1e12 bodies: the per-body count in TB).
        const std::string needed = std::to_string(CudaBackend::kDeviceBytesPerBody) + ".00 TB";
        EXPECT_NE(message.find(needed), std::string::npos) << message;
        EXPECT_NE(message.find("at most"), std::string::npos) << message;
    }
    EXPECT_NO_THROW(requireDeviceMemoryForBodies(1'000'000, CudaBackend::kDeviceBytesPerBody));
}

TEST_F(CudaDeviceTest, StepTimingsNameForceAndIntegratePhases) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CudaBackend gpu;
    gpu.load(generateScenario("plummer", 4096, seed));
    gpu.step(paramsFor("direct-symmetric", 0.005, 0.05), 3);
    const std::vector<PhaseTiming> timings = gpu.lastStepTimings();
    ASSERT_EQ(timings.size(), 2u);
    EXPECT_EQ(timings[0].phase, "force");
    EXPECT_EQ(timings[1].phase, "integrate");
    EXPECT_GT(timings[0].milliseconds, 0.0);
    EXPECT_GT(timings[1].milliseconds, 0.0);
}

} // namespace
} // namespace gravlab::gputest
