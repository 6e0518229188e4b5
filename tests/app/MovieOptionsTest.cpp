// The movie flags: --movie implies headless and replaces the PNG frames unless --out is given too; --fps and
// --movie-encoder reach the options; bad values exit 2 naming the flag.
#include "CommandLineTestSupport.hpp"

#include <CommandLine.hpp>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace gravlab::test {
namespace {

TEST(MovieOptions, AMovieAloneImpliesHeadlessAndReplacesThePngFrames) {
    const CommandLineOutcome outcome = parse({"--movie", "out/merger.mp4"});
    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    EXPECT_TRUE(outcome.options->headless);
    EXPECT_EQ(outcome.options->movieFile, std::filesystem::path("out/merger.mp4"));
    EXPECT_FALSE(outcome.options->writesPngFrames());
    EXPECT_FALSE(outcome.options->movieEncoder.has_value());
    EXPECT_EQ(outcome.options->framesPerSecond, 30.0);
}

TEST(MovieOptions, WithOutTooBothArePlannedAndRateAndEncoderArrive) {
    const CommandLineOutcome outcome =
        parse({"--movie", "m.mp4", "--out", "frames", "--fps", "23.976", "--movie-encoder", "libx265"});
    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    EXPECT_TRUE(outcome.options->writesPngFrames());
    EXPECT_EQ(outcome.options->framesPerSecond, 23.976);
    EXPECT_EQ(outcome.options->movieEncoder, std::optional<std::string>("libx265"));
}

TEST(MovieOptions, WithoutAMovieFramesAreWrittenAsBefore) {
    const CommandLineOutcome outcome = parse({"--frames", "3"});
    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    EXPECT_TRUE(outcome.options->writesPngFrames());
    EXPECT_FALSE(outcome.options->movieFile.has_value());
}

TEST(MovieOptions, BadValuesExitTwoNamingTheFlag) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--fps", "0"}, "--fps"},
        {{"--fps", "500"}, "--fps"},
        {{"--fps", "fast"}, "--fps"},
        {{"--movie", ""}, "--movie"},
        {{"--movie-encoder", ""}, "--movie-encoder"},
        {{"--movie"}, "--movie"}};
    for (const auto& [arguments, flag] : cases) {
        const CommandLineOutcome outcome = parse(arguments);
        EXPECT_FALSE(outcome.options.has_value()) << arguments.front();
        EXPECT_EQ(outcome.exitCode, 2) << arguments.front();
        EXPECT_NE(outcome.message.find(flag), std::string::npos) << outcome.message;
    }
}

} // namespace
} // namespace gravlab::test
