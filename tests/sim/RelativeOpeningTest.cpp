// The relative opening criterion of the CPU tree against the fp64 direct sum: its error bound on several shapes, its
// dependence on alpha, and the geometric fallback of an evaluation without previous accelerations.
#include "SimTestSupport.hpp"
#include "core/CpuBackend.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <numeric>
#include <random>

namespace gravlab {
namespace {

SimParams relativeParams(double forceAccuracy) {
    SimParams params;
    params.solver = "tree";
    params.openingAngle = 0.5;
    params.softeningLength = 0.05;
    params.openingCriterion = OpeningCriterion::Relative;
    params.forceAccuracy = forceAccuracy;
    return params;
}

SimParams geometricParams(double theta) {
    SimParams params = relativeParams(0.002);
    params.openingCriterion = OpeningCriterion::Geometric;
    params.openingAngle = theta;
    return params;
}

struct Quantiles {
    double median;
    double p99;
};

/// Errors of accelerations on the sampled targets against the fp64 direct sum of bodies.
Quantiles errorQuantiles(const Bodies& bodies, const Vec3Arrays<float>& accelerations, const SimParams& params,
                         std::mt19937_64& random) {
    std::vector<std::size_t> targets(bodies.size());
    std::iota(targets.begin(), targets.end(), std::size_t{0});
    std::shuffle(targets.begin(), targets.end(), random);
    targets.resize(std::min<std::size_t>(targets.size(), 1500));
    Vec3Arrays<double> reference;
    computeAccelerationsFp64(bodies, params.gravity(), targets, reference);
    std::vector<double> errors(targets.size());
    for (std::size_t t = 0; t < targets.size(); ++t) {
        const std::size_t i = targets[t];
        errors[t] = std::hypot(accelerations.x[i] - reference.x[t], accelerations.y[i] - reference.y[t],
                               accelerations.z[i] - reference.z[t]) /
                    std::hypot(reference.x[t], reference.y[t], reference.z[t]);
    }
    std::sort(errors.begin(), errors.end());
    return {errors[errors.size() / 2], errors[std::size_t(0.99 * double(errors.size() - 1) + 0.5)]};
}

/// The relative criterion's accelerations of the loaded bodies, after one geometric evaluation at theta 0.5 (the
/// previous accelerations it reads).
Vec3Arrays<float> relativeAccelerations(CpuBackend& backend, double forceAccuracy) {
    Vec3Arrays<float> accelerations;
    backend.readAccelerations(geometricParams(0.5), accelerations);
    backend.readAccelerations(relativeParams(forceAccuracy), accelerations);
    return accelerations;
}

// Plummer, disk, galaxy collision and a cold cube of 20k to 30k bodies, alpha drawn from [0.0015, 0.004]: the 99th
// percentile of the relative error stays below alpha (measured 0.4 to 0.75 alpha at these N: each body's own criterion
// bounds every accepted cell's error by alpha |a|, and the errors of its cells partly cancel; the ratio grows slowly as
// alpha falls, the error going like alpha^0.6). A walk that ignored the criterion and kept the safety radius alone
// (theta 1) would exceed it tenfold. Halving alpha must shrink the median and keep the bound.
TEST(RelativeOpening, ErrorStaysBelowAlphaOnSeveralShapes) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    for (const char* scenario : {"plummer", "disk-galaxy", "galaxy-collision", "cold-cube"}) {
        SCOPED_TRACE(scenario);
        const Bodies bodies = generateScenario(scenario, 20000 + random() % 10000, random());
        const double forceAccuracy = std::uniform_real_distribution<double>(0.0015, 0.004)(random);
        CpuBackend backend;
        backend.load(bodies);
        const Quantiles coarse = errorQuantiles(bodies, relativeAccelerations(backend, forceAccuracy),
                                                relativeParams(forceAccuracy), random);
        const Quantiles fine = errorQuantiles(bodies, relativeAccelerations(backend, 0.5 * forceAccuracy),
                                              relativeParams(forceAccuracy), random);
        std::cout << scenario << ", N = " << bodies.size() << ", alpha " << forceAccuracy << ": median "
                  << coarse.median << ", p99 " << coarse.p99 << "; alpha / 2: median " << fine.median << ", p99 "
                  << fine.p99 << "\n";
        EXPECT_LE(coarse.p99, forceAccuracy);
        EXPECT_LE(fine.p99, forceAccuracy);
        EXPECT_LT(fine.median, coarse.median);
    }
}

// Right after a load there are no previous accelerations: the relative criterion falls back to the geometric one at
// theta, bit for bit; the next evaluation (another alpha forces one) uses the criterion and differs.
TEST(RelativeOpening, FirstEvaluationAfterLoadIsGeometric) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Bodies bodies = generateScenario("plummer", 5000, seed);
    CpuBackend geometric, relative;
    geometric.load(bodies);
    relative.load(bodies);
    Vec3Arrays<float> expected, fallback, criterion;
    geometric.readAccelerations(geometricParams(0.5), expected);
    relative.readAccelerations(relativeParams(0.002), fallback);
    EXPECT_EQ(fallback.x, expected.x);
    EXPECT_EQ(fallback.z, expected.z);
    relative.readAccelerations(relativeParams(0.003), criterion);
    EXPECT_NE(criterion.x, expected.x);
}

} // namespace
} // namespace gravlab
