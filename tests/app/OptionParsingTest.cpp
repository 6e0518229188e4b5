// The shared option parser: whole and real numbers in forms like "4096" and "1e6"; garbage, NaN, infinity,
// fractions where a whole number is wanted and values outside the range are refused with a sentence that names the
// field, quotes the value as typed and states what is allowed; subcommand refusals become CLI::ValidationError.
#include <OptionParsing.hpp>
#include <TestSupport.hpp>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace gravlab::test {
namespace {

constexpr ParamRange kCountRange{"count", 1.0, 1e6, true, "number of things"};
constexpr ParamRange kStepRange{"step", 0.0, 1.0, false, "step length"};

/// The message of the InvalidParameterError that parsing text throws; fails the test when it is accepted.
std::string refusal(const ParamRange& range, const std::string& text, NumberKind kind) {
    try {
        const double value = parseNumberInRange(range, text, kind);
        ADD_FAILURE() << "'" << text << "' was accepted as " << value;
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), std::string(range.name)) << text;
        return error.what();
    }
    return {};
}

TEST(OptionParsing, AcceptsWholeNumbersInEveryNotation) {
    EXPECT_EQ(parseNumberInRange(kCountRange, "4096", NumberKind::Whole), 4096.0);
    EXPECT_EQ(parseNumberInRange(kCountRange, "1e6", NumberKind::Whole), 1e6);
    EXPECT_EQ(parseNumberInRange(kCountRange, "2.5e3", NumberKind::Whole), 2500.0);
    EXPECT_EQ(parseNumberInRange(kCountRange, "1", NumberKind::Whole), 1.0) << "the inclusive minimum";
    EXPECT_EQ(parseNumberInRange(kBodyCountRange, "268435456", NumberKind::Whole), 268435456.0) << "the maximum";
}

TEST(OptionParsing, RandomWholeNumbersRoundTrip) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("test input seed = " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<std::uint64_t> count(1, 1000000);
    for (int i = 0; i < 100; ++i) {
        const std::uint64_t value = count(random);
        EXPECT_EQ(parseNumberInRange(kCountRange, std::to_string(value), NumberKind::Whole), double(value));
    }
}

TEST(OptionParsing, AcceptsRealNumbers) {
    EXPECT_EQ(parseNumberInRange(kStepRange, "0.25", NumberKind::Real), 0.25);
    EXPECT_EQ(parseNumberInRange(kStepRange, "1e-3", NumberKind::Real), 1e-3);
    EXPECT_EQ(parseNumberInRange(kStepRange, "1", NumberKind::Real), 1.0) << "the inclusive maximum";
    EXPECT_EQ(parseNumberInRange(kCountRange, "12.5", NumberKind::Real), 12.5) << "a fraction is fine when real";
}

TEST(OptionParsing, NonWholeAndGarbageAreNotWholeNumbers) {
    const std::string allowed = ": allowed 1 <= count <= 1000000 (number of things)";
    EXPECT_EQ(refusal(kCountRange, "12.5", NumberKind::Whole), "count = '12.5' is not a whole number" + allowed);
    for (const std::string text : {"", "abc", "12x", "1e6 frames", "nan", "inf", "-inf", "1e400"})
        EXPECT_EQ(refusal(kCountRange, text, NumberKind::Whole),
                  "count = '" + text + "' is not a whole number" + allowed);
}

TEST(OptionParsing, GarbageNaNAndInfinityAreRefusedAsReals) {
    const std::string allowed = ": allowed 0 < step <= 1 (step length)";
    for (const std::string text : {"", "abc", "0.5s", "nan", "NaN"})
        EXPECT_EQ(refusal(kStepRange, text, NumberKind::Real), "step = '" + text + "' is not a number" + allowed);
    for (const std::string text : {"inf", "-infinity", "1e400"})
        EXPECT_EQ(refusal(kStepRange, text, NumberKind::Real), "step = '" + text + "' is not finite" + allowed);
}

TEST(OptionParsing, OutOfRangeQuotesTheValueAsTyped) {
    EXPECT_EQ(refusal(kBodyCountRange, "0", NumberKind::Whole),
              "bodies = 0 is out of range: allowed 1 <= bodies <= 268435456 (number of bodies)");
    EXPECT_EQ(refusal(kBodyCountRange, "1e12", NumberKind::Whole),
              "bodies = 1e12 is out of range: allowed 1 <= bodies <= 268435456 (number of bodies)")
        << "as typed, not 1e+12";
    EXPECT_NE(refusal(kCountRange, "-5", NumberKind::Whole).find("count = -5 is out of range"), std::string::npos);
    EXPECT_NE(refusal(kStepRange, "1.0001", NumberKind::Real).find("step = 1.0001 is out of range"), std::string::npos);
}

TEST(OptionParsing, ExclusiveMinimumIsRefusedButJustAboveIsAccepted) {
    EXPECT_EQ(refusal(kStepRange, "0", NumberKind::Real),
              "step = 0 is out of range: allowed 0 < step <= 1 (step length)");
    EXPECT_EQ(parseNumberInRange(kStepRange, "1e-300", NumberKind::Real), 1e-300);
    EXPECT_EQ(parseNumberInRange(kSofteningRange, "0", NumberKind::Real), 0.0) << "an inclusive minimum";
}

TEST(OptionParsing, DescribeRangeStatesTheBounds) {
    EXPECT_EQ(describeRange(kBodyCountRange), "1 <= bodies <= 268435456");
    EXPECT_EQ(describeRange(kTimeStepRange), "0 < dt <= 1");
    EXPECT_EQ(describeRange(kSofteningRange), "0 <= softening <= 10");
}

TEST(OptionParsing, SeedsAreWholeNumbersUpTo64Bits) {
    EXPECT_EQ(parseSeed("0"), 0u);
    EXPECT_EQ(parseSeed("18446744073709551615"), 18446744073709551615ull);
    for (const std::string text : {"", "-1", "1e3", "18446744073709551616", "12 "}) {
        try {
            parseSeed(text);
            ADD_FAILURE() << "seed '" << text << "' was accepted";
        } catch (const InvalidParameterError& error) {
            EXPECT_EQ(error.field(), "seed");
            EXPECT_NE(std::string(error.what()).find("'" + text + "'"), std::string::npos) << error.what();
        }
    }
}

TEST(OptionParsing, SubcommandRefusalsNameTheFlagAndKeepTheSentence) {
    try {
        parseNumberForFlag("thetas", kOpeningAngleRange, "2", NumberKind::Real);
        ADD_FAILURE() << "theta 2 was accepted";
    } catch (const CLI::ValidationError& error) {
        EXPECT_EQ(
            std::string(error.what()),
            "--thetas: theta = 2 is out of range: allowed 0.1 <= theta <= 1.154700538 (Barnes-Hut opening angle)");
    }
    EXPECT_EQ(rethrowForFlag("solver", [] { return std::string(findSolver("tree").name); }), "tree");
    EXPECT_THROW(rethrowForFlag("solver", [] { return std::string(findSolver("fmm").name); }), CLI::ValidationError);
}

} // namespace
} // namespace gravlab::test
