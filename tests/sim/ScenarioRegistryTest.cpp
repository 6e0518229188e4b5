// Every registered scenario: exact body count for tiny and odd N, finite state, positive masses, colour keys in
// [0, 1], determinism in (N, seed) independent of the thread count; plus the cold cube's own shape.
#include "SimTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <algorithm>
#include <gtest/gtest.h>
#include <omp.h>
#include <set>

namespace gravlab {
namespace {

/// Total mass each scenario promises at its default parameters: 1 per stellar system, plus its companions once they
/// have bodies (the collision's second galaxy of mass 1 from N = 2, the ring galaxy's companion of mass 0.5, which
/// gets floor(N / 3) bodies, the stream's satellite of mass 0.01, which gets floor(N / 4)).
double expectedTotalMass(std::string_view scenario, std::size_t count) {
    if (scenario == "galaxy-collision" && count >= 2)
        return 2.0;
    if (scenario == "ring-galaxy" && count >= 3)
        return 1.5;
    if (scenario == "satellite-stream" && count >= 4)
        return 1.01;
    return 1.0;
}

void expectWellFormed(const Bodies& bodies, std::size_t count, double totalMass) {
    ASSERT_EQ(bodies.size(), count);
    for (const std::vector<float>* component :
         {&bodies.y, &bodies.z, &bodies.vx, &bodies.vy, &bodies.vz, &bodies.mass, &bodies.colorKey})
        ASSERT_EQ(component->size(), count);
    double massSum = 0;
    for (std::size_t i = 0; i < count; ++i) {
        for (const float value : {bodies.x[i], bodies.y[i], bodies.z[i], bodies.vx[i], bodies.vy[i], bodies.vz[i]})
            ASSERT_TRUE(std::isfinite(value)) << "body " << i;
        ASSERT_GT(bodies.mass[i], 0.0f) << "body " << i;
        ASSERT_GE(bodies.colorKey[i], 0.0f) << "body " << i;
        ASSERT_LE(bodies.colorKey[i], 1.0f) << "body " << i;
        massSum += bodies.mass[i];
    }
    // Float masses summed in double: relative rounding ~1e-7.
    EXPECT_NEAR(massSum, totalMass, 1e-5 * totalMass);
}

TEST(ScenarioRegistry, NamesAreUniqueAndDescribed) {
    std::set<std::string_view> names;
    for (const Scenario& scenario : scenarios()) {
        EXPECT_TRUE(names.insert(scenario.name).second) << scenario.name;
        EXPECT_FALSE(scenario.description.empty()) << scenario.name;
        EXPECT_EQ(findScenario(scenario.name), &scenario);
    }
    for (const char* required : {"plummer", "cold-cube", "disk-galaxy", "galaxy-collision"})
        EXPECT_TRUE(names.count(required)) << required;
    EXPECT_EQ(findScenario("nebula"), nullptr);
    EXPECT_EQ(SimParams{}.scenario, "galaxy-collision") << "the default scene";
}

TEST(ScenarioRegistry, UnknownNameIsRejectedListingTheKnownOnes) {
    try {
        generateScenario("nebula", 10, 1);
        FAIL() << "no exception";
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), "scenario");
        const std::string message = error.what();
        EXPECT_NE(message.find("'nebula'"), std::string::npos) << message;
        for (const Scenario& scenario : scenarios())
            EXPECT_NE(message.find(std::string(scenario.name)), std::string::npos) << message;
    }
}

TEST(ScenarioRegistry, EveryScenarioHonoursTinyAndOddBodyCounts) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    for (const Scenario& scenario : scenarios()) {
        for (const std::size_t count :
             {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{1001}}) {
            SCOPED_TRACE(std::string(scenario.name) + " with N = " + std::to_string(count));
            expectWellFormed(generateScenario(scenario.name, count, seed), count,
                             expectedTotalMass(scenario.name, count));
        }
    }
}

TEST(ScenarioRegistry, EveryScenarioIsDeterministicAndIndependentOfThreadCount) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const int threads = omp_get_max_threads();
    for (const Scenario& scenario : scenarios()) {
        SCOPED_TRACE(std::string(scenario.name));
        omp_set_num_threads(1);
        const Bodies serial = generateScenario(scenario.name, 777, seed);
        omp_set_num_threads(std::max(threads, 2));
        const Bodies parallel = generateScenario(scenario.name, 777, seed);
        const Bodies otherSeed = generateScenario(scenario.name, 777, seed ^ 1);
        EXPECT_EQ(serial.x, parallel.x);
        EXPECT_EQ(serial.y, parallel.y);
        EXPECT_EQ(serial.z, parallel.z);
        EXPECT_EQ(serial.vx, parallel.vx);
        EXPECT_EQ(serial.vz, parallel.vz);
        EXPECT_EQ(serial.mass, parallel.mass);
        EXPECT_EQ(serial.colorKey, parallel.colorKey);
        EXPECT_NE(serial.x, otherSeed.x);
    }
    omp_set_num_threads(threads);
}

TEST(ColdCubeScenario, IsAUniformCubeAtRest) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    constexpr std::size_t kCount = 20000;
    const Bodies bodies = generateScenario("cold-cube", kCount, seed);
    for (std::size_t i = 0; i < kCount; ++i)
        ASSERT_EQ(simtest::norm(simtest::velocityOf(bodies, i)), 0.0);
    // Each coordinate is uniform on [-1, 1] (shifted by the sample's centre of mass, ~0.6 / sqrt(N) = 0.004).
    // Kolmogorov-Smirnov against the uniform distribution: P(sqrt(N) D > 2.2) = 1.2e-4 for a correct sampler, and
    // the centring shift adds at most 0.002 to D; 2.2 / sqrt(N) + 0.005 = 0.021 is the bound. A cube of the wrong
    // side or a non-uniform (e.g. Gaussian) fill misses by 0.1 or more.
    const double bound = 2.2 / std::sqrt(double(kCount)) + 0.005;
    for (const std::vector<float>* axis : {&bodies.x, &bodies.y, &bodies.z}) {
        std::vector<float> sorted = *axis;
        std::sort(sorted.begin(), sorted.end());
        double distance = 0;
        for (std::size_t k = 0; k < kCount; ++k) {
            const double model = (sorted[k] + 1.0) / 2.0;
            distance =
                std::max({distance, std::abs(double(k + 1) / kCount - model), std::abs(double(k) / kCount - model)});
        }
        EXPECT_LT(distance, bound);
    }
}

} // namespace
} // namespace gravlab
