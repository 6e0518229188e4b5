#pragma once
// Shared pieces of the GPU tests: the skip-without-device fixture, fresh random inputs, device force evaluation and
// the error measure used against the fp64 reference.
//
// Design note: every GPU test derives from CudaDeviceTest, whose SetUp() skips the test with the printed reason when
// no CUDA device is present (CI machines, this project's development machines), so the suite compiles and runs
// everywhere and only executes on a GPU. Inputs come from std::mt19937_64 with a fresh seed per test, printed via
// SCOPED_TRACE so a failure can be replayed (GRAVLAB_TEST_SEED=<seed> --gtest_filter=<test>). Force errors are measured
// per target against the magnitude sum A_i = G sum_j m_j |r_ij| / (r_ij^2 + eps^2)^(3/2): fp32 rounding of each term
// and of the running sums is relative to the size of the terms and partial sums, not to the net force, which can cancel
// to almost nothing.
#include "device/cuda/CudaStream.hpp"
#include "device/cuda/DeviceBodies.hpp"
#include "direct/cuda/DeviceForces.hpp"
#include "solvers/SolverRegistration.hpp"
#include "solvers/cuda/CudaForceSolver.hpp"

#include <gravlab/sim/DeviceInfo.hpp>

#include <TestSupport.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <gtest/gtest.h>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace gravlab::gputest {

class CudaDeviceTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string reason;
        if (!cudaDeviceAvailable(reason))
            GTEST_SKIP() << "GPU test skipped: " << reason;
    }
};

/// A new seed per call, or GRAVLAB_TEST_SEED when set (to replay a failure with the seed it printed).
using gravlab::test::freshSeed;
using gravlab::test::seedTrace;

/// Bodies uniform in a ball of the given radius, masses uniform in [0.5, 1.5] / N (unequal, so a solver that swaps
/// m_i and m_j fails), velocities uniform in [-0.5, 0.5]^3, colour keys uniform in [0, 1].
inline Bodies randomBall(std::size_t count, std::mt19937_64& random, double radius = 1.0) {
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_real_distribution<double> zeroToOne(0.0, 1.0);
    Bodies bodies;
    bodies.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        double x, y, z;
        do {
            x = unit(random);
            y = unit(random);
            z = unit(random);
        } while (x * x + y * y + z * z > 1.0);
        bodies.x[i] = float(radius * x);
        bodies.y[i] = float(radius * y);
        bodies.z[i] = float(radius * z);
        bodies.vx[i] = float(0.5 * unit(random));
        bodies.vy[i] = float(0.5 * unit(random));
        bodies.vz[i] = float(0.5 * unit(random));
        bodies.mass[i] = float((0.5 + zeroToOne(random)) / double(count));
        bodies.colorKey[i] = float(zeroToOne(random));
    }
    return bodies;
}

/// G in [0.5, 2], softening in [0.01, 0.1]: inside SimParams' ranges, never the defaults.
inline GravityParams randomGravity(std::mt19937_64& random) {
    std::uniform_real_distribution<double> g(0.5, 2.0);
    std::uniform_real_distribution<double> softening(0.01, 0.1);
    return {g(random), softening(random)};
}

/// One force evaluation of a registered device solver on device's bodies, created through the registry as the backend
/// creates it.
inline void runDeviceSolver(const std::string& solver, DeviceBodies& device, const GravityParams& gravity,
                            cudaStream_t stream) {
    const std::unique_ptr<CudaForceSolver> implementation = findSolverRegistration(solver).makeCuda();
    DeviceBuffer<float4> scratch(device.size());
    PhaseTimeline timeline(findSolver(solver).cudaPhases.size());
    timeline.begin(stream);
    implementation->computeAccelerations(device, scratch, {gravity, 0.5f}, stream, timeline);
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

/// Accelerations from one registered device solver (runDeviceSolver); the output array is poisoned with NaN first so
/// an unwritten entry fails.
inline Vec3Arrays<float> deviceAccelerations(const std::string& solver, const Bodies& bodies,
                                             const GravityParams& gravity) {
    CudaStream stream;
    DeviceBodies device;
    uploadBodies(bodies, device, stream.get());
    CUDA_CHECK(cudaMemsetAsync(device.acceleration.data(), 0xff, device.acceleration.bytes(), stream.get()));
    runDeviceSolver(solver, device, gravity, stream.get());
    Vec3Arrays<float> out;
    downloadAccelerations(device, out, stream.get());
    return out;
}

/// A_i for each target (see the design note), in fp64.
inline std::vector<double> magnitudeSums(const Bodies& bodies, const GravityParams& gravity,
                                         std::span<const std::size_t> targets) {
    const double softening2 = gravity.softeningLength * gravity.softeningLength;
    std::vector<double> sums(targets.size(), 0.0);
    for (std::size_t t = 0; t < targets.size(); ++t) {
        const std::size_t i = targets[t];
        double sum = 0.0;
        for (std::size_t j = 0; j < bodies.size(); ++j) {
            const double dx = double(bodies.x[j]) - bodies.x[i];
            const double dy = double(bodies.y[j]) - bodies.y[i];
            const double dz = double(bodies.z[j]) - bodies.z[i];
            const double r2 = dx * dx + dy * dy + dz * dz;
            const double softened2 = r2 + softening2;
            sum += bodies.mass[j] * std::sqrt(r2) / (softened2 * std::sqrt(softened2));
        }
        sums[t] = gravity.gravitationalConstant * sum;
    }
    return sums;
}

inline std::vector<std::size_t> allIndices(std::size_t count) {
    std::vector<std::size_t> indices(count);
    for (std::size_t i = 0; i < count; ++i)
        indices[i] = i;
    return indices;
}

/// The bound on |a - a_ref| / A_i for fp32 direct sums of N terms. Each fp32 term carries a relative error of at most
/// about 7e-7 (rsqrt.approx's 2^-22.9 cubed, plus five roundings of 2^-24): 1e-6 covers it. The running fp32 sums add
/// one rounding of at most 2^-24 times a partial sum (itself at most A_i, usually far less) per term; the roundings
/// have random signs, so they add up like a random walk of N steps: 2 sqrt(N) 2^-24 A_i bounds them with room.
/// A single missing or doubled pair moves a result by about A_i / N, far more than this bound up to N of several
/// thousand; at a million bodies a missing or doubled 512 x 512 block (A_i / 2000) still fails, and a swapped mass
/// (tens of percent) fails everywhere. Measured on an H100: 2e-7 to 7e-7 at N <= 5000, 2.2e-6 at N = 10^6.
inline double fp32DirectSumBound(std::size_t bodyCount) {
    return 1e-6 + 2.0 * std::sqrt(double(bodyCount)) * 0x1p-24;
}

struct ErrorReport {
    double worstRatio = 0.0;    ///< max_i |a_i - ref_i| / A_i
    std::size_t worstIndex = 0; ///< position in the target list
};

/// Compares a[targets[t]] with reference[t] relative to scale[t]; targets with scale 0 (a lone body) must be exactly 0.
inline ErrorReport compareAccelerations(const Vec3Arrays<float>& a, std::span<const std::size_t> targets,
                                        const Vec3Arrays<double>& reference, std::span<const double> scale) {
    ErrorReport report;
    for (std::size_t t = 0; t < targets.size(); ++t) {
        const std::size_t i = targets[t];
        const double dx = a.x[i] - reference.x[t];
        const double dy = a.y[i] - reference.y[t];
        const double dz = a.z[i] - reference.z[t];
        const double error = std::sqrt(dx * dx + dy * dy + dz * dz);
        const double ratio = scale[t] > 0.0 ? error / scale[t] : (error == 0.0 ? 0.0 : INFINITY);
        if (!(ratio <= report.worstRatio)) { // also catches NaN
            report.worstRatio = std::isnan(ratio) ? INFINITY : ratio;
            report.worstIndex = t;
        }
    }
    return report;
}

} // namespace gravlab::gputest
