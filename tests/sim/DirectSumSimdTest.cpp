// The SIMD float direct sum (DirectSumSimd.cpp) on every SIMD target this CPU runs, against the fp64 oracle and an
// inline fp64 sum; listed targets, coincident pairs with zero softening, and independence from the thread count.
#include "direct/DirectSumSimd.hpp"

#include "ForcedSimdTarget.hpp"
#include "SimTestSupport.hpp"

#include <gravlab/sim/CpuFmaPeak.hpp>
#include <gravlab/sim/DirectSumCpu.hpp>

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>
#include <hwy/targets.h>
#include <numbers>
#include <omp.h>
#include <string>
#include <vector>

namespace gravlab {
namespace {

constexpr double kFloatRounding = 0x1p-24; ///< u, half an ulp of 1 in float

/// Plummer sphere of scale radius 1 sampled here (inverse of its cumulative mass, isotropic directions; radii past 20
/// redrawn), with masses in [0.5, 1.5] / N: a dense core and a sparse halo, so terms span many orders of magnitude.
Bodies plummerBodies(std::size_t count, std::mt19937_64& random) {
    std::uniform_real_distribution<double> unit(0.0, 1.0), massFactor(0.5, 1.5);
    Bodies bodies;
    bodies.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        double radius = 0;
        do
            radius = 1.0 / std::sqrt(std::pow(std::max(unit(random), 1e-12), -2.0 / 3.0) - 1.0);
        while (radius > 20.0);
        const double cosTheta = 2.0 * unit(random) - 1.0, phi = 2.0 * std::numbers::pi * unit(random);
        const double sinTheta = std::sqrt(1.0 - cosTheta * cosTheta);
        simtest::setBody(bodies, i,
                         {radius * sinTheta * std::cos(phi), radius * sinTheta * std::sin(phi), radius * cosTheta},
                         {0, 0, 0}, massFactor(random) / double(count));
    }
    return bodies;
}

/// A few tight clumps (Gaussian, sigma 1e-3) scattered over a box of side 20: near neighbours at 1e-4 of the clump
/// separations, where float differences of nearby positions lose most of their digits.
Bodies clusteredBodies(std::size_t count, std::mt19937_64& random) {
    std::uniform_real_distribution<double> centre(-10.0, 10.0), massFactor(0.5, 1.5);
    std::normal_distribution<double> offset(0.0, 1e-3);
    const std::size_t clumps = std::min<std::size_t>(count, 5);
    std::vector<simtest::Vec3> centres(clumps);
    for (simtest::Vec3& c : centres)
        c = {centre(random), centre(random), centre(random)};
    Bodies bodies;
    bodies.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        const simtest::Vec3& c = centres[i % clumps];
        simtest::setBody(bodies, i, {c[0] + offset(random), c[1] + offset(random), c[2] + offset(random)}, {0, 0, 0},
                         massFactor(random) / double(count));
    }
    return bodies;
}

/// G sum_j |m_j (x_j - x_i)| / (r^2 + eps^2)^(3/2) over j with r > 0: the scale of the float sum's rounding errors.
double termMagnitudeSum(const Bodies& bodies, const GravityParams& gravity, std::size_t target) {
    double sum = 0;
    for (std::size_t j = 0; j < bodies.size(); ++j) {
        const simtest::Vec3 d = simtest::sub(simtest::positionOf(bodies, j), simtest::positionOf(bodies, target));
        const double r2 = simtest::dot(d, d);
        if (r2 == 0)
            continue;
        const double softened2 = r2 + gravity.softeningLength * gravity.softeningLength;
        sum += gravity.gravitationalConstant * bodies.mass[j] * std::sqrt(r2) / (softened2 * std::sqrt(softened2));
    }
    return sum;
}

/// Worst |a_float - a_fp64| / termMagnitudeSum over the bodies, with the fp64 oracle.
double worstScaledError(const Bodies& bodies, const GravityParams& gravity) {
    Vec3Arrays<double> reference;
    computeAccelerationsFp64(bodies, gravity, reference);
    Vec3Arrays<float> solver;
    EXPECT_FALSE(computeAccelerationsCpu(bodies, gravity, solver).has_value()) << "no coincident pair was made";
    double worst = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const simtest::Vec3 error =
            simtest::sub({solver.x[i], solver.y[i], solver.z[i]}, {reference.x[i], reference.y[i], reference.z[i]});
        const double scale = termMagnitudeSum(bodies, gravity, i);
        if (scale == 0) // one body: its own term is its whole sum, and must be exactly zero
            EXPECT_EQ(simtest::norm(error), 0.0) << "body " << i;
        else
            worst = std::max(worst, simtest::norm(error) / scale);
    }
    return worst;
}

// Bound: one term m (x_j - x_i) / r^3 is computed with a relative error of at most ~31 u on the widest-error targets
// (SSE4/AVX2: rsqrtps' 1.5 x 2^-12 squared by the Newton step is 3.4 u in 1/r, its rounding ~3 u, r^2's roundings
// 2.5 u in 1/r; all tripled by 1/r^3, plus the difference and the products), bounded here by 48 u. The sum over up to
// N terms in one lane adds at most N u times the sum of term magnitudes S, and G one u more: |error| <= (49 + N) u S.
// A kernel without the Newton step errs by 3 x 2^-14 = 3000 u (AVX-512) to 3 x 1.5 x 2^-12 = 18000 u (SSE/AVX2) per
// term, far past the bound at small N; a wrong mass, G or softening by orders of magnitude more.
double errorBound(std::size_t count) {
    return (49.0 + double(count)) * kFloatRounding;
}

TEST(DirectSumSimd, MatchesTheFp64OracleOnEverySimdTarget) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
    ASSERT_FALSE(targets.empty());
    for (const std::int64_t target : targets) {
        const simtest::ForcedSimdTarget forced(target);
        SCOPED_TRACE(std::string("SIMD target ") + hwy::TargetName(target));
        ASSERT_STREQ(directSumSimdTargetName(), hwy::TargetName(target)) << "the dispatch did not follow the mock";
        for (const std::size_t count :
             {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{17}, std::size_t{1000}}) {
            for (const double softening : {0.0, std::uniform_real_distribution<double>(1e-3, 0.05)(random)}) {
                const GravityParams gravity{std::uniform_real_distribution<double>(0.5, 2.0)(random), softening};
                SCOPED_TRACE("N = " + std::to_string(count) + ", G = " + std::to_string(gravity.gravitationalConstant) +
                             ", softening = " + std::to_string(softening));
                EXPECT_LT(worstScaledError(plummerBodies(count, random), gravity), errorBound(count)) << "Plummer";
                EXPECT_LT(worstScaledError(clusteredBodies(count, random), gravity), errorBound(count)) << "clumps";
            }
        }
    }
}

TEST(DirectSumSimd, ListedTargetsGiveTheAllBodyBits) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    // 40 listed targets x N > 2^18 pairs: two threads, blocks cut to 32 targets (targetsPerBlock).
    const std::size_t count = std::uniform_int_distribution<std::size_t>(7000, 8000)(random);
    const Bodies bodies = plummerBodies(count, random);
    for (const double softening : {0.0, 0.01}) {
        const GravityParams gravity{1.3, softening};
        Vec3Arrays<float> all;
        ASSERT_FALSE(computeAccelerationsCpu(bodies, gravity, all).has_value());
        for (const std::size_t listed : {std::size_t{1}, std::size_t{5}, std::size_t{40}, std::size_t{100}, count}) {
            SCOPED_TRACE("N = " + std::to_string(count) + ", " + std::to_string(listed) + " listed, softening " +
                         std::to_string(softening));
            std::vector<std::uint32_t> order(count);
            for (std::size_t i = 0; i < count; ++i)
                order[i] = std::uint32_t(i);
            std::shuffle(order.begin(), order.end(), random); // listed in random order: other lanes and blocks
            order.resize(listed);
            Vec3Arrays<float> some;
            some.resize(count);
            std::fill(some.x.begin(), some.x.end(), -7.0f);
            ASSERT_FALSE(computeAccelerationsCpu(bodies, gravity, order, some).has_value());
            std::vector<bool> isListed(count, false);
            for (const std::uint32_t target : order)
                isListed[target] = true;
            for (std::size_t i = 0; i < count; ++i) {
                if (!isListed[i]) {
                    ASSERT_EQ(some.x[i], -7.0f) << "unlisted body " << i << " was written";
                    continue;
                }
                ASSERT_EQ(std::memcmp(&some.x[i], &all.x[i], sizeof(float)), 0) << "body " << i;
                ASSERT_EQ(std::memcmp(&some.y[i], &all.y[i], sizeof(float)), 0) << "body " << i;
                ASSERT_EQ(std::memcmp(&some.z[i], &all.z[i], sizeof(float)), 0) << "body " << i;
            }
        }
    }
}

/// fp64 acceleration of target from every body at r > 0 (eps = 0): what the float sum must give a body in a pair.
simtest::Vec3 accelerationSkippingCoincident(const Bodies& bodies, double gravitationalConstant, std::size_t target) {
    simtest::Vec3 sum{0, 0, 0};
    for (std::size_t j = 0; j < bodies.size(); ++j) {
        const simtest::Vec3 d = simtest::sub(simtest::positionOf(bodies, j), simtest::positionOf(bodies, target));
        const double r2 = simtest::dot(d, d);
        if (r2 > 0)
            sum = simtest::add(sum, simtest::scale(d, gravitationalConstant * bodies.mass[j] / (r2 * std::sqrt(r2))));
    }
    return sum;
}

TEST(DirectSumSimd, ZeroSofteningReportsTheSmallestCoincidentBody) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::size_t count = std::uniform_int_distribution<std::size_t>(1500, 2500)(random); // parallel: N^2 > 2^18
    Bodies bodies = simtest::randomBodies(count, random);
    const std::size_t first = std::uniform_int_distribution<std::size_t>(0, count / 2 - 1)(random);
    const std::size_t partner = std::uniform_int_distribution<std::size_t>(count / 2, count - 3)(random);
    const std::size_t late = count - 1;
    const auto placeAt = [&bodies](std::size_t to, std::size_t from) {
        bodies.x[to] = bodies.x[from];
        bodies.y[to] = bodies.y[from];
        bodies.z[to] = bodies.z[from];
    };
    placeAt(partner, first);
    placeAt(late - 1, late); // a second pair, in the last block
    const GravityParams gravity{1.0, 0.0};
    SCOPED_TRACE("N = " + std::to_string(count) + ", pairs (" + std::to_string(first) + ", " + std::to_string(partner) +
                 ") and (" + std::to_string(late - 1) + ", " + std::to_string(late) + ")");

    Vec3Arrays<float> all;
    EXPECT_EQ(computeAccelerationsCpu(bodies, gravity, all), std::optional<std::size_t>(first));
    const std::vector<std::uint32_t> listed{std::uint32_t(late), std::uint32_t(partner), 0};
    Vec3Arrays<float> some;
    some.resize(count);
    const std::optional<std::size_t> listedCoincident = computeAccelerationsCpu(bodies, gravity, listed, some);
    EXPECT_EQ(listedCoincident, std::optional<std::size_t>(first == 0 ? 0 : partner));
    // The pair's bodies get the pull of every other body and nothing from each other or themselves; the same
    // bound as the accuracy test, at this N.
    for (const std::size_t body : {first, partner, late - 1, late}) {
        const simtest::Vec3 exact = accelerationSkippingCoincident(bodies, gravity.gravitationalConstant, body);
        const simtest::Vec3 error = simtest::sub({all.x[body], all.y[body], all.z[body]}, exact);
        EXPECT_LT(simtest::norm(error), errorBound(count) * termMagnitudeSum(bodies, gravity, body)) << "body " << body;
    }
}

TEST(DirectSumSimd, OneThreadAndTwoGiveTheSameBits) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::size_t count = std::uniform_int_distribution<std::size_t>(1500, 2500)(random); // parallel: N^2 > 2^18
    const Bodies bodies = clusteredBodies(count, random);
    const GravityParams gravity{1.0, 0.002};
    const int threads = omp_get_max_threads();
    Vec3Arrays<float> results[2];
    for (const int teamSize : {1, 2}) {
        omp_set_num_threads(teamSize);
        computeAccelerationsCpu(bodies, gravity, results[teamSize - 1]);
    }
    omp_set_num_threads(threads);
    EXPECT_EQ(std::memcmp(results[0].x.data(), results[1].x.data(), count * sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(results[0].y.data(), results[1].y.data(), count * sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(results[0].z.data(), results[1].z.data(), count * sizeof(float)), 0);
}

TEST(DirectSumSimd, FmaPeakRunsOnTheDirectSumsTarget) {
    const CpuFmaPeak peak = measureCpuFmaPeak();
    EXPECT_EQ(peak.simdTarget, directSumSimdTargetName());
    EXPECT_EQ(peak.threads, omp_get_max_threads());
    // 1 GFLOP/s is far below any machine with SIMD (a 2 GHz core with SSE does 16); a rate below it means the timing
    // or the flop count is wrong.
    EXPECT_GT(peak.flopsPerSecond, 1e9);
}

} // namespace
} // namespace gravlab
