// Every numeric flag of gravlab, `gravlab bench` and `gravlab accuracy`, through the real parseCommandLine: an empty
// value, text that is no number and a value just past the range's top are each refused with exit status 2 and one
// sentence that names the flag, quotes the value exactly as typed and states the allowed range. The literal sentences
// of --dt are written out in full so that a conversion through CLI11 or through a double before the check ("dt = 0",
// "Could not convert", "dt = 1") fails here.
#include "CommandLineTestSupport.hpp"

#include <AccuracyCommand.hpp>
#include <BenchCommand.hpp>
#include <CommandLine.hpp>
#include <OptionParsing.hpp>
#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <vector>

namespace gravlab::test {
namespace {

/// The usage error of a command line that must be refused; empty (after a test failure) when it is accepted.
std::string refusal(const std::vector<std::string>& arguments) {
    const CommandLineOutcome outcome = parse(arguments);
    EXPECT_FALSE(outcome.options || outcome.bench || outcome.accuracy) << "accepted";
    EXPECT_EQ(outcome.exitCode, 2);
    return outcome.message;
}

const std::string kDtRange = ": allowed 0 < dt <= 1 (time step in N-body time units)";

TEST(NumericOptions, AnEmptyDtIsQuotedAsEmptyNotReadAsZero) {
    EXPECT_EQ(refusal({"--dt", ""}), "gravlab: error: --dt: dt = '' is not a number" + kDtRange +
                                         "\nRun 'gravlab --help' to see every option and what it allows.\n");
}

TEST(NumericOptions, TextThatIsNoNumberStatesTheRange) {
    EXPECT_EQ(refusal({"--dt", "abc"}), "gravlab: error: --dt: dt = 'abc' is not a number" + kDtRange +
                                            "\nRun 'gravlab --help' to see every option and what it allows.\n");
}

TEST(NumericOptions, AValueJustAboveTheRangeIsShownWithAllItsDigits) {
    EXPECT_EQ(refusal({"--dt", "1.0000000001"}),
              "gravlab: error: --dt: dt = 1.0000000001 is out of range" + kDtRange +
                  "\nRun 'gravlab --help' to see every option and what it allows.\n");
}

struct NumericFlag {
    std::vector<std::string> command; ///< {} for gravlab itself, {"bench"} or {"accuracy"}
    std::string flag;                 ///< without "--"; differs from range.name for accuracy's --thetas
    ParamRange range;
    NumberKind kind;
    /// A comma-separated list (accuracy): an empty value is an empty entry, refused with an example of the list.
    bool list = false;
};

void PrintTo(const NumericFlag& numeric, std::ostream* out) {
    for (const std::string& word : numeric.command)
        *out << word << ' ';
    *out << "--" << numeric.flag;
}

/// Text just above range.max, typed with more digits than a double's shortest form would keep for whole numbers.
std::string justAboveTop(const NumericFlag& numeric) {
    const std::string top = formatNumber(numeric.range.max);
    if (numeric.kind == NumberKind::Whole)
        return std::to_string(static_cast<std::uint64_t>(numeric.range.max) + 1);
    if (std::strtod(top.c_str(), nullptr) != numeric.range.max || top.find('e') != std::string::npos) {
        // A top that 10 digits do not hold exactly (theta's 2/sqrt(3)), or one shown with an exponent (G's 1e+12,
        // where appended digits would fall below a double's resolution): the next double up, in all its digits.
        std::ostringstream text;
        text.precision(17);
        text << std::nextafter(numeric.range.max, 2.0 * numeric.range.max);
        return text.str();
    }
    return top + (top.find('.') == std::string::npos ? ".0000000001" : "0000000001");
}

class EveryNumericFlag : public ::testing::TestWithParam<NumericFlag> {};

TEST_P(EveryNumericFlag, QuotesTheTextAsTypedAndStatesTheRange) {
    const NumericFlag& numeric = GetParam();
    const std::string field(numeric.range.name);
    const std::string allowed = "allowed " + describeRange(numeric.range);
    const std::string notValid = numeric.kind == NumberKind::Whole ? " is not a whole number: " : " is not a number: ";
    const std::string above = justAboveTop(numeric);
    struct Case {
        std::string typed;
        std::string sentence; ///< what the message must contain after "--flag: "
    };
    const std::string emptyList = "'' is not allowed: give comma-separated values without empty entries";
    for (const Case& bad : {Case{"", numeric.list ? emptyList : field + " = ''" + notValid + allowed},
                            Case{"abc", field + " = 'abc'" + notValid + allowed},
                            Case{above, field + " = " + above + " is out of range: " + allowed}}) {
        SCOPED_TRACE("typed '" + bad.typed + "'");
        std::vector<std::string> arguments = numeric.command;
        arguments.insert(arguments.end(), {"--" + numeric.flag, bad.typed});
        const std::string message = refusal(arguments);
        EXPECT_NE(message.find("--" + numeric.flag + ": " + bad.sentence), std::string::npos) << message;
        EXPECT_NE(message.find(describeRange(numeric.range)), std::string::npos) << message;
    }
}

INSTANTIATE_TEST_SUITE_P(MainCommandLine, EveryNumericFlag,
                         ::testing::Values(NumericFlag{{}, "bodies", kBodyCountRange, NumberKind::Whole},
                                           NumericFlag{{}, "dt", kTimeStepRange, NumberKind::Real},
                                           NumericFlag{{}, "softening", kSofteningRange, NumberKind::Real},
                                           NumericFlag{{}, "G", kGravitationalConstantRange, NumberKind::Real},
                                           NumericFlag{{}, "theta", kOpeningAngleRange, NumberKind::Real},
                                           NumericFlag{{}, "steps-per-frame", kStepsPerFrameRange, NumberKind::Whole},
                                           NumericFlag{{}, "frames", kFrameCountRange, NumberKind::Whole},
                                           NumericFlag{{}, "width", kWidthRange, NumberKind::Whole},
                                           NumericFlag{{}, "height", kHeightRange, NumberKind::Whole},
                                           NumericFlag{{}, "fps", kFramesPerSecondRange, NumberKind::Real},
                                           NumericFlag{{}, "orb-domains", kOrbDomainRange, NumberKind::Whole},
                                           NumericFlag{{}, "orb-every", kOrbRebuildIntervalRange, NumberKind::Whole},
                                           NumericFlag{
                                               {}, "orb-imbalance", kOrbImbalanceLimitRange, NumberKind::Real}));

INSTANTIATE_TEST_SUITE_P(Bench, EveryNumericFlag,
                         ::testing::Values(NumericFlag{{"bench"}, "bodies", kBenchBodyRange, NumberKind::Whole},
                                           NumericFlag{{"bench"}, "steps", kBenchStepRange, NumberKind::Whole},
                                           NumericFlag{{"bench"}, "warmup", kBenchWarmupRange, NumberKind::Whole},
                                           NumericFlag{{"bench"}, "theta", kOpeningAngleRange, NumberKind::Real},
                                           NumericFlag{{"bench"}, "domains", kBenchDomainRange, NumberKind::Whole},
                                           NumericFlag{{"bench"}, "orb-domains", kOrbDomainRange, NumberKind::Whole},
                                           NumericFlag{
                                               {"bench"}, "orb-every", kOrbRebuildIntervalRange, NumberKind::Whole}));

INSTANTIATE_TEST_SUITE_P(
    Accuracy, EveryNumericFlag,
    ::testing::Values(NumericFlag{{"accuracy"}, "samples", kAccuracySampleRange, NumberKind::Whole},
                      NumericFlag{{"accuracy"}, "softening", kSofteningRange, NumberKind::Real},
                      NumericFlag{{"accuracy"}, "bodies", kBodyCountRange, NumberKind::Whole, true},
                      NumericFlag{{"accuracy"}, "thetas", kOpeningAngleRange, NumberKind::Real, true}));

TEST(NumericOptions, BenchBodiesAboveTheStateRangeNeedPositionsOnly) {
    const std::string message = refusal({"bench", "--bodies", "3e8", "--orb"});
    EXPECT_NE(message.find("--bodies: bodies = 3e8 is out of range: allowed " + describeRange(kBenchStateBodyRange)),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("--orb --positions-only"), std::string::npos) << message;
    const CommandLineOutcome positionsOnly = parse({"bench", "--orb", "--positions-only", "--bodies", "3e8"});
    ASSERT_TRUE(positionsOnly.bench.has_value()) << positionsOnly.message;
    EXPECT_EQ(positionsOnly.bench->bodyCount, 300000000u);
}

TEST(NumericOptions, SeedsQuoteTheTextAsTypedAndStateTheRange) {
    for (const std::vector<std::string>& command : {std::vector<std::string>{}, std::vector<std::string>{"accuracy"}})
        for (const std::string typed : {"", "abc", "-1", "18446744073709551616"}) {
            std::vector<std::string> arguments = command;
            arguments.insert(arguments.end(), {"--seed", typed});
            const std::string message = refusal(arguments);
            EXPECT_NE(message.find("--seed: seed = '" + typed +
                                   "' is not a whole number: allowed 0 <= seed <= 18446744073709551615"),
                      std::string::npos)
                << message;
        }
}

} // namespace
} // namespace gravlab::test
