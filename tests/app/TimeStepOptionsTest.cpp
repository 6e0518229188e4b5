// The hierarchical time-step settings from the command line and from a session file's params: values reach
// SimParams::timeSteps unchanged, bad ones are refused with a sentence naming the flag or key, and `timesteps-bench`
// parses into its options.
#include "CommandLineTestSupport.hpp"

#include <CommandLine.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <session/SimParamsJson.hpp>
#include <string>
#include <tuple>
#include <vector>

namespace gravlab::test {
namespace {

TEST(TimeStepOptions, FlagsReachTheParams) {
    const CommandLineOutcome outcome = parse({"--time-steps", "hierarchical", "--eta", "0.05", "--max-level", "5"});
    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    const TimeStepParams& timeSteps = outcome.options->simulation.timeSteps;
    EXPECT_EQ(timeSteps.mode, TimeStepMode::Hierarchical);
    EXPECT_EQ(timeSteps.accuracy, 0.05);
    EXPECT_EQ(timeSteps.maxLevel, 5u);
}

TEST(TimeStepOptions, WithoutFlagsStepsAreFixed) {
    const CommandLineOutcome outcome = parse({});
    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    EXPECT_EQ(outcome.options->simulation.timeSteps.mode, TimeStepMode::Fixed);
}

TEST(TimeStepOptions, BadValuesAreRefusedNamingTheFlag) {
    struct Bad {
        std::vector<std::string> arguments;
        std::string mention;
    };
    for (const Bad& bad : {Bad{{"--time-steps", "adaptive"}, "'hierarchical'"}, Bad{{"--eta", "0"}, "eta"},
                           Bad{{"--max-level", "17"}, "max-level"}, Bad{{"--max-level", "2.5"}, "max-level"}}) {
        const CommandLineOutcome outcome = parse(bad.arguments);
        EXPECT_FALSE(outcome.options.has_value()) << bad.arguments[0];
        EXPECT_EQ(outcome.exitCode, 2);
        EXPECT_NE(outcome.message.find(bad.mention), std::string::npos) << outcome.message;
    }
}

TEST(TimeStepOptions, SessionParamsReadTheTimeStepObject) {
    const nlohmann::json object =
        nlohmann::json::parse(R"({"timeSteps": {"mode": "hierarchical", "accuracy": 0.3, "maxLevel": 12}})");
    const SimParams params = simParamsFromJson(object, "params");
    EXPECT_EQ(params.timeSteps.mode, TimeStepMode::Hierarchical);
    EXPECT_EQ(params.timeSteps.accuracy, 0.3);
    EXPECT_EQ(params.timeSteps.maxLevel, 12u);
    const SimParams back = simParamsFromJson(simParamsToJson(params), "params");
    EXPECT_EQ(back.timeSteps, params.timeSteps);
    const nlohmann::json bad = nlohmann::json::parse(R"({"timeSteps": {"maxLevel": 40}})");
    try {
        simParamsFromJson(bad, "params");
        ADD_FAILURE() << "maxLevel 40 was accepted";
    } catch (const JsonFieldError& error) {
        EXPECT_EQ(error.keyPath(), "params.timeSteps.maxLevel");
        EXPECT_NE(std::string(error.what()).find("40"), std::string::npos) << error.what();
    }
}

TEST(TimeStepOptions, BenchCommandParsesItsOptions) {
    const CommandLineOutcome outcome = parse({"timesteps-bench", "--scenarios", "kepler-binary,cold-sphere", "--bodies",
                                              "512", "--json", "--duration-scale", "0.25"});
    ASSERT_TRUE(outcome.timeStepBench.has_value()) << outcome.message;
    EXPECT_EQ(outcome.timeStepBench->scenarios, (std::vector<std::string>{"kepler-binary", "cold-sphere"}));
    EXPECT_EQ(outcome.timeStepBench->bodyCount, 512u);
    EXPECT_TRUE(outcome.timeStepBench->json);
    EXPECT_EQ(outcome.timeStepBench->durationScale, 0.25);
    EXPECT_EQ(parse({"timesteps-bench", "--scenarios", "no-such-scenario"}).exitCode, 2);
}

// The runs themselves may replace each case's: fixed dts, and hierarchical runs as base-dt:eta pairs, each value
// checked against the range of dt or eta, under one level choice or several; a malformed pair or value names the flag.
TEST(TimeStepOptions, BenchCommandTakesRunsFromTheCommandLine) {
    const CommandLineOutcome outcome =
        parse({"timesteps-bench", "--fixed-steps", "0.01,0.005", "--hierarchical-runs", "0.02:0.3,0.005:0.15"});
    ASSERT_TRUE(outcome.timeStepBench.has_value()) << outcome.message;
    EXPECT_EQ(outcome.timeStepBench->fixedSteps, (std::vector<double>{0.01, 0.005}));
    ASSERT_EQ(outcome.timeStepBench->hierarchicalRuns.size(), 2u);
    EXPECT_EQ(outcome.timeStepBench->hierarchicalRuns[1].baseStep, 0.005);
    EXPECT_EQ(outcome.timeStepBench->hierarchicalRuns[1].accuracy, 0.15);
    EXPECT_EQ(outcome.timeStepBench->levelChoices, (std::vector<LevelChoice>{LevelChoice::Start})) << "the default";
    const CommandLineOutcome all = parse({"timesteps-bench", "--level-choice", "start,symmetric,tidal"});
    ASSERT_TRUE(all.timeStepBench.has_value()) << all.message;
    EXPECT_EQ(all.timeStepBench->levelChoices,
              (std::vector<LevelChoice>{LevelChoice::Start, LevelChoice::Symmetric, LevelChoice::Tidal}));
    for (const auto& [flag, value, named] :
         std::vector<std::tuple<std::string, std::string, std::string>>{{"--hierarchical-runs", "0.01", "base-dt:eta"},
                                                                        {"--hierarchical-runs", "0.01:20", "eta = 20"},
                                                                        {"--hierarchical-runs", "x:0.3", "dt"},
                                                                        {"--fixed-steps", "0", "dt = 0"},
                                                                        {"--level-choice", "start,late", "late"},
                                                                        {"--fixed-steps", "2", "dt = 2"}}) {
        const CommandLineOutcome refused = parse({"timesteps-bench", flag, value});
        EXPECT_EQ(refused.exitCode, 2) << flag << " " << value;
        EXPECT_NE(refused.message.find(flag), std::string::npos) << refused.message;
        EXPECT_NE(refused.message.find(named), std::string::npos) << refused.message;
    }
}

} // namespace
} // namespace gravlab::test
