// The float OpenMP direct sum against the fp64 reference on random bodies.
#include "SimTestSupport.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>

#include <algorithm>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

/// Sum over sources of |G m_j r_ij / (r_ij^2 + eps^2)^(3/2)| for one target: the scale that rounding errors of the
/// terms are proportional to (the net force can be much smaller through cancellation).
double forceMagnitudeSum(const Bodies& bodies, const GravityParams& gravity, std::size_t target) {
    double sum = 0;
    for (std::size_t j = 0; j < bodies.size(); ++j) {
        const simtest::Vec3 d = simtest::sub(simtest::positionOf(bodies, j), simtest::positionOf(bodies, target));
        const double r2 = simtest::dot(d, d) + gravity.softeningLength * gravity.softeningLength;
        sum += gravity.gravitationalConstant * bodies.mass[j] * std::sqrt(simtest::dot(d, d)) / (r2 * std::sqrt(r2));
    }
    return sum;
}

TEST(DirectSumFloat, MatchesFp64ReferenceOnRandomBodies) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::size_t count = std::uniform_int_distribution<std::size_t>(1000, 3000)(random);
    const GravityParams gravity{std::uniform_real_distribution<double>(0.5, 2.0)(random),
                                std::uniform_real_distribution<double>(0.005, 0.1)(random)};
    SCOPED_TRACE("N = " + std::to_string(count) + ", G = " + std::to_string(gravity.gravitationalConstant) +
                 ", softening = " + std::to_string(gravity.softeningLength));
    const Bodies bodies = simtest::randomBodies(count, random);

    Vec3Arrays<double> reference;
    computeAccelerationsFp64(bodies, gravity, reference);
    Vec3Arrays<float> solver;
    computeAccelerationsCpu(bodies, gravity, solver);
    ASSERT_EQ(solver.size(), count);

    // Bound: each float term carries a relative rounding error of a few eps_f (eps_f = 6e-8: the difference, r^2,
    // sqrt, division and products), and summing N terms adds rounding errors that grow like eps_f sqrt(N) times the
    // sum of term magnitudes S_i (a random walk; the worst case eps_f N is not reached in practice). At N <= 3000
    // that is ~3e-6 S_i; runs measure a worst body at 1-2e-6 S_i, so 1e-5 S_i leaves a margin of 5 while a wrong
    // softening, G or mass factor errs by orders of magnitude more. The net force is usually a sizeable fraction of
    // S_i, so the typical (median) error relative to it is of the same order: measured 4-7e-7, bound 5e-6.
    constexpr double kBoundPerMagnitudeSum = 1e-5;
    constexpr double kMedianRelativeBound = 5e-6;
    std::vector<double> relativeErrors(count);
    double worstScaledError = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const simtest::Vec3 exact{reference.x[i], reference.y[i], reference.z[i]};
        const simtest::Vec3 error = simtest::sub({solver.x[i], solver.y[i], solver.z[i]}, exact);
        const double scaled = simtest::norm(error) / forceMagnitudeSum(bodies, gravity, i);
        worstScaledError = std::max(worstScaledError, scaled);
        relativeErrors[i] = simtest::norm(error) / simtest::norm(exact);
    }
    std::nth_element(relativeErrors.begin(), relativeErrors.begin() + count / 2, relativeErrors.end());
    EXPECT_LT(worstScaledError, kBoundPerMagnitudeSum);
    EXPECT_LT(relativeErrors[count / 2], kMedianRelativeBound);
    RecordProperty("worst_error_over_magnitude_sum", simtest::scientific(worstScaledError));
    RecordProperty("median_relative_error", simtest::scientific(relativeErrors[count / 2]));
}

} // namespace
} // namespace gravlab
