// What a run across MPI ranks refuses, checked on options parsed from real command lines: each refusal is a UsageError
// naming the flag to drop or change, and a plain headless run passes. In one process (this test) rank 0 is the only
// rank: its streams and exit statuses are the ordinary ones.
#include "CommandLineTestSupport.hpp"

#include <MpiRanks.hpp>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gravlab::test {
namespace {

AppOptions optionsOf(std::vector<std::string> arguments) {
    const CommandLineOutcome outcome = parse(std::move(arguments));
    if (!outcome.options)
        throw std::runtime_error("the command line did not parse: " + outcome.message);
    return *outcome.options;
}

TEST(MpiRanks, RefusesWhatRankZeroAloneWouldCallNamingTheFlag) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
        {{"--bodies", "256"}, "--headless"},
        {{"--headless", "--compare", "tree"}, "--compare"},
        {{"--headless", "--color", "speed"}, "--color speed"},
        {{"--headless", "--solver", "tree", "--overlay-depth", "0:3"}, "--overlay-depth"},
    };
    for (const auto& [arguments, flag] : refused) {
        try {
            requireSupportedAcrossRanks(optionsOf(arguments));
            ADD_FAILURE() << "accepted " << flag;
        } catch (const UsageError& error) {
            EXPECT_NE(std::string(error.what()).find(flag), std::string::npos) << error.what();
            EXPECT_NE(std::string(error.what()).find("mpirun"), std::string::npos) << error.what();
        }
    }
    EXPECT_NO_THROW(requireSupportedAcrossRanks(optionsOf({"--headless", "--solver", "tree", "--frames", "3"})));
    // Snapshots and plots: every rank drives rank 0's session, and rank 0 alone writes them.
    EXPECT_NO_THROW(requireSupportedAcrossRanks(
        optionsOf({"--headless", "--save-every", "10", "--plots-csv", "plots.csv", "--color", "orb-domain"})));
}

TEST(MpiRanks, OneProcessIsRankZeroWithOrdinaryStreamsAndStatuses) {
    EXPECT_FALSE(runsAcrossRanks());
    EXPECT_FALSE(followsRankZero());
    std::ostringstream stream;
    rankZeroStream(stream) << "written";
    EXPECT_EQ(stream.str(), "written");
    EXPECT_EQ(exitStatusAcrossRanks(2), 2);
    EXPECT_EQ(errorPrefix(), "gravlab: error: ");
    const CpuFmaPeak peak{123.0e9, 3, "AVX2"};
    EXPECT_EQ(summedOverRanks(peak).flopsPerSecond, peak.flopsPerSecond);
    EXPECT_EQ(summedOverRanks(peak).threads, 3);
}

} // namespace
} // namespace gravlab::test
