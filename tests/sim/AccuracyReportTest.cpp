// The accuracy report's maths on constructed cases: a fake backend whose accelerations differ from the fp64 reference
// by known relative errors in known directions, the deterministic sample, nearest-rank percentiles, and the reuse of
// the reference.
#include "SimTestSupport.hpp"
#include "core/CpuBackend.hpp"

#include <gravlab/sim/AccuracyReport.hpp>

#include <algorithm>
#include <gtest/gtest.h>
#include <numeric>
#include <set>

namespace gravlab {
namespace {

/// Draws nothing: the report never asks what is drawn.
class NoVisuals final : public VisualSource {
public:
    std::size_t vertexCount() const override { return 0; }
    void writeVertices(std::span<RenderVertex>) const override {}
    void setColorMode(ColorMode) override {}
    ColorMode colorMode() const override { return ColorMode::Component; }
};

/// Holds bodies and answers readAccelerations with a_ref,i + e_i |a_ref,i| u_i (u_i a random unit vector), so body
/// i's relative error is exactly e_i. Like a tree solver that sorts its bodies, it reverses their order (and the
/// errors with them) when it computes accelerations: the report must pair accelerations with readBodies' order.
class KnownErrorBackend final : public SimulationBackend {
    Device device() const override { return Device::Cpu; }

public:
    KnownErrorBackend(Bodies bodies, std::vector<double> errors, std::mt19937_64& random)
        : m_bodies(std::move(bodies)), m_errors(std::move(errors)), m_random(random) {}

    std::string description() const override { return "known errors"; }
    void load(const Bodies& bodies) override { m_bodies = bodies; }
    void step(const SimParams&, int) override {}
    void reverseVelocities() override {
        for (std::vector<float>* component : {&m_bodies.vx, &m_bodies.vy, &m_bodies.vz})
            for (float& value : *component)
                value = -value;
    }
    void readBodies(Bodies& out) const override { out = m_bodies; }
    Diagnostics diagnostics(const SimParams&) const override { return {}; }
    std::vector<PhaseTiming> lastStepTimings() const override { return {}; }
    VisualSource& visuals() override { return m_visuals; }
    const VisualSource& visuals() const override { return m_visuals; }

    void readAccelerations(const SimParams& params, Vec3Arrays<float>& out) override {
        lastSolver = params.solver;
        reverseOrder();
        Vec3Arrays<double> exact;
        computeAccelerationsFp64(m_bodies, params.gravity(), exact);
        out.resize(m_bodies.size());
        std::normal_distribution<double> normal;
        for (std::size_t i = 0; i < m_bodies.size(); ++i) {
            simtest::Vec3 direction{normal(m_random), normal(m_random), normal(m_random)};
            direction = simtest::scale(direction, 1.0 / simtest::norm(direction));
            const simtest::Vec3 reference{exact.x[i], exact.y[i], exact.z[i]};
            const simtest::Vec3 wrong =
                simtest::add(reference, simtest::scale(direction, m_errors[i] * simtest::norm(reference)));
            out.x[i] = float(wrong[0]);
            out.y[i] = float(wrong[1]);
            out.z[i] = float(wrong[2]);
        }
    }

    const std::vector<double>& errors() const { return m_errors; }
    std::string lastSolver = "direct";

private:
    void reverseOrder() {
        for (std::vector<float>* component : {&m_bodies.x, &m_bodies.y, &m_bodies.z, &m_bodies.vx, &m_bodies.vy,
                                              &m_bodies.vz, &m_bodies.mass, &m_bodies.colorKey})
            std::reverse(component->begin(), component->end());
        std::reverse(m_errors.begin(), m_errors.end());
    }

    Bodies m_bodies;
    std::vector<double> m_errors;
    std::mt19937_64& m_random;
    NoVisuals m_visuals;
};

// The fake's accelerations are rounded to float, which moves each error by at most ~2 float epsilons of |a| (1.2e-7
// relative); 1e-6 absolute separates neighbouring constructed errors (1e-4 apart) cleanly.
constexpr double kRoundingTolerance = 1e-6;

TEST(AccuracyReport, PercentilesOfKnownErrorsOnEveryBody) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    // Errors 1e-4, 2e-4, ..., 0.1 in a random order: nearest rank puts the median at the 500th (0.05), p90 at the
    // 900th (0.09), p99 at the 990th (0.099) and the maximum at 0.1.
    std::vector<double> errors(1000);
    for (std::size_t i = 0; i < errors.size(); ++i)
        errors[i] = double(i + 1) * 1e-4;
    std::shuffle(errors.begin(), errors.end(), random);
    KnownErrorBackend backend(simtest::randomBodies(1000, random), errors, random);
    SimParams params;
    params.solver = "tree";
    AccuracyReference reference(4096, 7);
    const AccuracyMeasurement measurement = measureAccuracy(backend, params, reference);
    EXPECT_EQ(backend.lastSolver, "tree");
    EXPECT_EQ(measurement.errors.sampleCount, 1000u) << "N below the sample size: every body";
    EXPECT_NEAR(measurement.errors.median, 0.05, kRoundingTolerance);
    EXPECT_NEAR(measurement.errors.percentile90, 0.09, kRoundingTolerance);
    EXPECT_NEAR(measurement.errors.percentile99, 0.099, kRoundingTolerance);
    EXPECT_NEAR(measurement.errors.max, 0.1, kRoundingTolerance);
    EXPECT_GT(measurement.referenceMilliseconds, 0.0);
}

TEST(AccuracyReport, SampledBodiesGiveTheirOwnErrorsStatistics) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::size_t count = 6000, sampleCount = 1500;
    std::vector<double> errors(count);
    std::uniform_real_distribution<double> logError(-6.0, -1.0);
    for (double& error : errors)
        error = std::pow(10.0, logError(random));
    KnownErrorBackend backend(simtest::randomBodies(count, random), errors, random);
    AccuracyReference reference(sampleCount, random());
    const AccuracyMeasurement measurement = measureAccuracy(backend, SimParams{}, reference);

    const std::vector<std::size_t>& sample = reference.sampleIndices();
    ASSERT_EQ(sample.size(), sampleCount);
    EXPECT_TRUE(std::is_sorted(sample.begin(), sample.end()));
    EXPECT_EQ(std::set<std::size_t>(sample.begin(), sample.end()).size(), sampleCount) << "indices repeat";
    EXPECT_LT(sample.back(), count);
    // Expected statistics from the sampled bodies' known errors (in the order the backend now holds them).
    std::vector<double> sampled;
    for (const std::size_t i : sample)
        sampled.push_back(backend.errors()[i]);
    std::sort(sampled.begin(), sampled.end());
    const auto rank = [&](std::size_t percent) { return sampled[(percent * sampleCount + 99) / 100 - 1]; };
    // Errors span 1e-6 to 0.1, so the float rounding (1.2e-7 of |a|) is judged relative to each error plus 1e-6.
    EXPECT_NEAR(measurement.errors.median, rank(50), 2e-7 + 1e-6 * rank(50));
    EXPECT_NEAR(measurement.errors.percentile99, rank(99), 2e-7 + 1e-6 * rank(99));
    EXPECT_NEAR(measurement.errors.max, sampled.back(), 2e-7 + 1e-6 * sampled.back());
}

TEST(AccuracyReport, SampleIsDeterministicDistinctAndSpread) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const std::size_t count = 1000000, sampleCount = 4096;
    const std::vector<std::size_t> first = sampleBodyIndices(count, sampleCount, seed);
    EXPECT_EQ(first, sampleBodyIndices(count, sampleCount, seed));
    EXPECT_NE(first, sampleBodyIndices(count, sampleCount, seed + 1));
    ASSERT_EQ(first.size(), sampleCount);
    EXPECT_EQ(std::set<std::size_t>(first.begin(), first.end()).size(), sampleCount);
    EXPECT_LT(first.back(), count);
    // A uniform sample's mean index is N/2 with standard deviation N / sqrt(12 k) = 4.5e3; 5 sigma is 2.3e4.
    const double mean = std::accumulate(first.begin(), first.end(), 0.0) / double(sampleCount);
    EXPECT_NEAR(mean, 0.5 * double(count), 2.3e4);
    const std::vector<std::size_t> all = sampleBodyIndices(10, sampleCount, seed);
    ASSERT_EQ(all.size(), 10u);
    for (std::size_t i = 0; i < 10; ++i)
        EXPECT_EQ(all[i], i);
}

TEST(AccuracyReport, NearestRankStatisticsAndSpecialValues) {
    // Seven values: the median is the 4th smallest; ceil(0.9 * 7) = ceil(0.99 * 7) = 7, the largest.
    const RelativeErrorStatistics seven = summarizeRelativeErrors({0.7, 0.1, 0.4, 0.2, 0.6, 0.3, 0.5});
    EXPECT_EQ(seven.sampleCount, 7u);
    EXPECT_EQ(seven.median, 0.4);
    EXPECT_EQ(seven.percentile90, 0.7);
    EXPECT_EQ(seven.percentile99, 0.7);
    EXPECT_EQ(seven.max, 0.7);
    // 200 values k / 200: the 100th, 180th and 198th.
    std::vector<double> twoHundred(200);
    for (std::size_t k = 0; k < 200; ++k)
        twoHundred[k] = double(200 - k) / 200.0;
    const RelativeErrorStatistics ranked = summarizeRelativeErrors(twoHundred);
    EXPECT_EQ(ranked.median, 0.5);
    EXPECT_EQ(ranked.percentile90, 0.9);
    EXPECT_EQ(ranked.percentile99, 0.99);
    // A NaN acceleration is an infinitely wrong one, never a small one.
    const RelativeErrorStatistics withNaN = summarizeRelativeErrors({0.1, std::nan(""), 0.2});
    EXPECT_TRUE(std::isinf(withNaN.max));
    EXPECT_EQ(summarizeRelativeErrors({}).sampleCount, 0u);

    const double zero[3] = {0, 0, 0}, unit[3] = {0, 0, 1}, half[3] = {0, 0.5, 1};
    EXPECT_EQ(relativeAccelerationError(zero, zero), 0.0);
    EXPECT_TRUE(std::isinf(relativeAccelerationError(unit, zero)));
    EXPECT_EQ(relativeAccelerationError(half, unit), 0.5);
}

TEST(AccuracyReport, ReferenceIsReusedUntilBodiesOrGravityChange) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    CpuBackend backend;
    backend.load(simtest::randomBodies(3000, random));
    SimParams params;
    params.solver = "tree";
    // Geometric, so that theta decides every evaluation: under the default relative criterion only the first
    // evaluation (no previous accelerations) uses theta, and the second's error is alpha's, not theta 0.9's.
    params.openingCriterion = OpeningCriterion::Geometric;
    AccuracyReference reference(500, seed);
    const AccuracyMeasurement first = measureAccuracy(backend, params, reference);
    EXPECT_GT(first.referenceMilliseconds, 0.0);
    params.openingAngle = 0.9;
    const AccuracyMeasurement second = measureAccuracy(backend, params, reference);
    EXPECT_EQ(second.referenceMilliseconds, 0.0) << "same bodies and gravity: reference reused";
    EXPECT_GT(second.errors.median, first.errors.median) << "theta 0.9 is less accurate than 0.5";
    params.softeningLength = 0.1;
    EXPECT_GT(measureAccuracy(backend, params, reference).referenceMilliseconds, 0.0);
    params.solver = "direct";
    // The float direct sum against fp64: rounding only (~1e-7, see DirectSumFloatTest).
    EXPECT_LT(measureAccuracy(backend, params, reference).errors.max, 1e-5);
}

} // namespace
} // namespace gravlab
