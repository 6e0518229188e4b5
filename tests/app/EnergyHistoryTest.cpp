// The energy ring buffer: the last capacity samples, oldest first, through any number of wraps.
#include <TestSupport.hpp>
#include <gtest/gtest.h>
#include <random>
#include <session/EnergyHistory.hpp>
#include <stdexcept>

namespace gravlab::test {
namespace {

TEST(EnergyHistory, KeepsTheLastCapacitySamplesOldestFirst) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::size_t capacity = std::uniform_int_distribution<std::size_t>(1, 16)(random);
    EnergyHistory history(capacity);
    EXPECT_TRUE(history.empty());
    const std::size_t pushes = std::uniform_int_distribution<std::size_t>(0, 5 * capacity)(random);
    std::vector<EnergySample> pushed;
    std::uniform_real_distribution<double> value(-2.0, 2.0);
    for (std::size_t k = 0; k < pushes; ++k) {
        pushed.push_back({double(k), value(random), value(random), value(random), value(random)});
        history.push(pushed.back());
    }
    const std::size_t kept = std::min(pushes, capacity);
    ASSERT_EQ(history.size(), kept);
    EXPECT_EQ(history.capacity(), capacity);
    for (std::size_t j = 0; j < kept; ++j) {
        const EnergySample& want = pushed[pushes - kept + j];
        EXPECT_EQ(history[j].simulationTime, want.simulationTime) << "sample " << j;
        EXPECT_EQ(history[j].relativeDrift, want.relativeDrift);
        EXPECT_EQ(history[j].kineticEnergy, want.kineticEnergy);
        EXPECT_EQ(history[j].potentialEnergy, want.potentialEnergy);
        EXPECT_EQ(history[j].computeSeconds, want.computeSeconds);
    }
    if (kept > 0) {
        EXPECT_EQ(history.latest().simulationTime, double(pushes - 1));
    }
    EXPECT_THROW((void)history[kept], std::out_of_range);

    history.clear();
    EXPECT_TRUE(history.empty());
    history.push({7.0, 0, 0, 0, 0});
    ASSERT_EQ(history.size(), 1u);
    EXPECT_EQ(history[0].simulationTime, 7.0);
}

TEST(EnergyHistory, RefusesZeroCapacity) {
    EXPECT_THROW(EnergyHistory{0}, std::invalid_argument);
}

} // namespace
} // namespace gravlab::test
