// The scenarios' counter-based random numbers: moments of the uniform and normal variates, and stream separation.
#include "SimTestSupport.hpp"
#include "core/Random.hpp"

#include <gtest/gtest.h>

namespace gravlab {
namespace {

constexpr int kDraws = 1000000;

TEST(RandomStream, UniformHasTheMomentsOfU01) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    RandomStream random(seed, 7);
    double sum = 0, sumSquares = 0, smallest = 1, largest = 0;
    for (int k = 0; k < kDraws; ++k) {
        const double u = random.uniform();
        sum += u;
        sumSquares += u * u;
        smallest = std::min(smallest, u);
        largest = std::max(largest, u);
    }
    const double mean = sum / kDraws, variance = sumSquares / kDraws - mean * mean;
    // Standard errors at 1e6 draws: mean sqrt(1/12 / N) = 2.9e-4, variance ~ sqrt(1/180 / N) = 7.5e-5; 5 sigma.
    EXPECT_NEAR(mean, 0.5, 1.5e-3);
    EXPECT_NEAR(variance, 1.0 / 12.0, 4e-4);
    EXPECT_GE(smallest, 0.0);
    EXPECT_LT(largest, 1.0);
}

TEST(RandomStream, NormalHasZeroMeanUnitVarianceAndNoSkew) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    RandomStream random(seed, 11);
    double sum = 0, sumSquares = 0, sumCubes = 0, sumFourth = 0;
    for (int k = 0; k < kDraws; ++k) {
        const double n = random.normal();
        sum += n;
        sumSquares += n * n;
        sumCubes += n * n * n;
        sumFourth += n * n * n * n;
    }
    // Standard errors at 1e6 draws: mean 1e-3, second moment sqrt(2 / N) = 1.4e-3, third sqrt(15 / N) = 3.9e-3,
    // fourth sqrt(96 / N) = 9.8e-3; bounds are 5 sigma. The fourth moment (3) tells a Gaussian from other shapes.
    EXPECT_NEAR(sum / kDraws, 0.0, 5e-3);
    EXPECT_NEAR(sumSquares / kDraws, 1.0, 7e-3);
    EXPECT_NEAR(sumCubes / kDraws, 0.0, 2e-2);
    EXPECT_NEAR(sumFourth / kDraws, 3.0, 5e-2);
}

TEST(RandomStream, StreamsAreReproducibleAndNeighbouringStreamsUnrelated) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    RandomStream first(seed, 42), again(seed, 42), neighbour(seed, 43), otherSeed(seed + 1, 42);
    // A SplitMix counter advanced by the golden increment would make stream 43 a shifted copy of stream 42 if the
    // start were not hashed: compare the neighbour against several offsets of the first stream.
    std::vector<std::uint64_t> reference(64);
    for (auto& value : reference)
        value = first.nextBits();
    for (const std::uint64_t value : reference)
        EXPECT_EQ(again.nextBits(), value);
    for (int k = 0; k < 64; ++k) {
        const std::uint64_t n = neighbour.nextBits(), o = otherSeed.nextBits();
        EXPECT_EQ(std::count(reference.begin(), reference.end(), n), 0);
        EXPECT_EQ(std::count(reference.begin(), reference.end(), o), 0);
    }
}

} // namespace
} // namespace gravlab
