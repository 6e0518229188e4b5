// Float pairs (FloatPair.hpp): splitting a double keeps the nearest float as the high part, holds the double to 48
// bits, and is canonical, so splitting the sum of a split pair gives the same bits. The last promise is what lets the
// CSV and HDF5 files store a pair as one double; it is tried hardest on doubles whose remainder rounds onto exactly
// half an ulp of the high part, where a plain split makes a tie.
#include "TestSupport.hpp"

#include <gravlab/sim/FloatPair.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <vector>

namespace gravlab {
namespace {

/// The float nearest to value, found by looking at high's neighbours rather than by converting.
bool isNearestFloat(float high, double value) {
    const double here = std::abs(value - double(high));
    const double below = std::abs(value - double(std::nextafter(high, -std::numeric_limits<float>::infinity())));
    const double above = std::abs(value - double(std::nextafter(high, std::numeric_limits<float>::infinity())));
    return here <= below && here <= above;
}

/// Doubles of every kind a file or an integrator hands over: random magnitudes from 1e-38 to 1e38, and for each a
/// double whose remainder is just under half an ulp of its float, which float() rounds up onto exactly half an ulp.
std::vector<double> trialValues(std::mt19937_64& random) {
    std::uniform_real_distribution<double> mantissa(1.0, 2.0);
    std::uniform_int_distribution<int> exponent(-125, 126);
    std::vector<double> values;
    for (int i = 0; i < 20000; ++i) {
        const double value = std::ldexp(mantissa(random), exponent(random)) * (i % 2 ? -1.0 : 1.0);
        values.push_back(value);
        const float high = float(value);
        const double halfUlp =
            (double(std::nextafter(std::abs(high), std::numeric_limits<float>::infinity())) - double(std::abs(high))) /
            2.0;
        // halfUlp * (1 - 2^-28) spans 28 bits below high's last one: the sum is exact in a double.
        values.push_back(double(high) + std::copysign(halfUlp - std::ldexp(halfUlp, -28), value));
    }
    values.push_back(32162408e-45); // a remainder in the subnormal floats: 2^-149 away from its float
    return values;
}

TEST(FloatPair, SplitKeepsTheNearestFloatAndIsCanonical) {
    const std::uint64_t seed = test::freshSeed();
    SCOPED_TRACE(test::seedTrace(seed));
    std::mt19937_64 random(seed);
    int ties = 0;
    for (const double value : trialValues(random)) {
        const FloatPair pair = splitDouble(value);
        ASSERT_TRUE(isNearestFloat(pair.high, value)) << std::hexfloat << value << " split to high " << pair.high;
        const double error = std::abs(joinPair(pair.high, pair.low) - value);
        ASSERT_LE(error, std::max(std::abs(value) * 0x1p-48, 0x1p-149)) << std::hexfloat << value;
        const FloatPair again = splitDouble(joinPair(pair.high, pair.low));
        ASSERT_EQ(std::bit_cast<std::uint32_t>(again.high), std::bit_cast<std::uint32_t>(pair.high))
            << std::hexfloat << value << ": the pair's sum splits to another high part";
        ASSERT_EQ(std::bit_cast<std::uint32_t>(again.low), std::bit_cast<std::uint32_t>(pair.low))
            << std::hexfloat << value << ": the pair's sum splits to another low part";
        ties += float(value - double(pair.high)) != pair.low;
    }
    EXPECT_GT(ties, 1000) << "the values should include many remainders that round onto half an ulp";
}

TEST(FloatPair, ANegativeZeroKeepsItsSignThroughJoinAndSplit) {
    EXPECT_TRUE(std::signbit(joinPair(-0.0f, 0.0f)));
    const FloatPair pair = splitDouble(-0.0);
    EXPECT_TRUE(std::signbit(pair.high));
    EXPECT_FALSE(std::signbit(pair.low)) << "a zero low part is +0, as for any float";
    EXPECT_EQ(joinPair(1.0f, 0x1p-30f), 1.0 + 0x1p-30);
}

} // namespace
} // namespace gravlab
