// `gravlab accuracy`: every bad value is a CLI::ValidationError naming its flag; lists parse into the options; a small
// run prints one row per case whose errors grow with theta, as a table or as JSON.
#include <gravlab/sim/Simulation.hpp>

#include <AccuracyCommand.hpp>
#include <CLI/CLI.hpp>
#include <TestSupport.hpp>
#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace gravlab::test {
namespace {

/// Parses `accuracy <arguments>` into options; rethrows CLI11's errors.
AccuracyOptions parseAccuracy(std::vector<std::string> arguments) {
    CLI::App app("gravlab");
    AccuracyOptions options;
    CLI::App* command = addAccuracyCommand(app, options);
    arguments.insert(arguments.begin(), "accuracy");
    std::reverse(arguments.begin(), arguments.end()); // CLI11 takes a reversed argument vector
    app.parse(arguments);
    EXPECT_TRUE(*command);
    return options;
}

TEST(AccuracyCommand, BadValuesNameTheirFlag) {
    const std::vector<std::vector<std::string>> badArguments = {
        {"--thetas", "0.5,2"},     {"--thetas", "0.05"},  {"--thetas", "0.5,,0.7"}, {"--bodies", "0"},
        {"--bodies", "1000,12.5"}, {"--bodies", "-5"},    {"--samples", "0"},       {"--samples", "abc"},
        {"--scenarios", "nebula"}, {"--scenarios", ""},   {"--backend", "gpu"},     {"--seed", "-1"},
        {"--softening", "-1"},     {"--softening", "nan"}};
    for (const std::vector<std::string>& arguments : badArguments) {
        try {
            parseAccuracy(arguments);
            ADD_FAILURE() << arguments[0] << " " << arguments[1] << " was accepted";
        } catch (const CLI::ValidationError& error) {
            EXPECT_NE(std::string(error.what()).find(arguments[0]), std::string::npos) << error.what();
        } catch (const CLI::ParseError& error) {
            ADD_FAILURE() << arguments[0] << " " << arguments[1] << ": not a validation error: " << error.what();
        }
    }
}

TEST(AccuracyCommand, ListsAndValuesArriveInTheOptions) {
    const AccuracyOptions options = parseAccuracy({"--scenarios", "disk-galaxy,plummer", "--bodies", "1e5,2000",
                                                   "--thetas", "0.3,1.15", "--samples", "512", "--backend", "cpu",
                                                   "--seed", "18446744073709551615", "--softening", "0.02", "--json"});
    EXPECT_EQ(options.scenarios, (std::vector<std::string>{"disk-galaxy", "plummer"}));
    EXPECT_EQ(options.bodyCounts, (std::vector<std::uint64_t>{100000, 2000}));
    EXPECT_EQ(options.openingAngles, (std::vector<double>{0.3, 1.15}));
    EXPECT_EQ(options.sampleCount, 512u);
    EXPECT_EQ(options.backend, BackendKind::Cpu);
    EXPECT_EQ(options.seed, 18446744073709551615ull);
    EXPECT_EQ(options.softeningLength, 0.02);
    EXPECT_TRUE(options.json);
}

/// The numbers in the table's rows: {theta, median, p99, max} per row.
std::vector<std::vector<double>> tableRows(const std::string& table) {
    std::vector<std::vector<double>> rows;
    std::istringstream lines(table);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string scenario;
        double bodies = 0, theta = 0, median = 0, p99 = 0, max = 0;
        if (fields >> scenario >> bodies >> theta >> median >> p99 >> max)
            rows.push_back({theta, median, p99, max});
    }
    return rows;
}

TEST(AccuracyCommand, SmallRunPrintsOneRowPerCaseAndErrorsGrowWithTheta) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    AccuracyOptions options;
    options.scenarios = {"plummer"};
    options.bodyCounts = {3000};
    options.openingAngles = {0.3, 1.0};
    options.sampleCount = 600;
    options.backend = BackendKind::Cpu;
    options.seed = seed;
    std::ostringstream out, err;
    ASSERT_EQ(runAccuracy(options, out, err), 0) << err.str();
    const std::vector<std::vector<double>> rows = tableRows(out.str());
    ASSERT_EQ(rows.size(), 2u) << out.str();
    EXPECT_EQ(rows[0][0], 0.3);
    // Median, p99 and max are ordered, positive, and theta 1.0 is less accurate than 0.3 (the tree tests bound
    // the values themselves).
    for (const std::vector<double>& row : rows) {
        EXPECT_GT(row[1], 0.0) << out.str();
        EXPECT_LE(row[1], row[2]);
        EXPECT_LE(row[2], row[3]);
    }
    EXPECT_GT(rows[1][1], rows[0][1]) << out.str();
    EXPECT_NE(out.str().find("CPU (OpenMP"), std::string::npos) << "the backend is named";

    options.json = true;
    std::ostringstream json;
    ASSERT_EQ(runAccuracy(options, json, err), 0) << err.str();
    const nlohmann::json report = nlohmann::json::parse(json.str());
    EXPECT_TRUE(report["backend"].is_string() && report["date"].is_string()) << json.str();
    ASSERT_EQ(report["results"].size(), rows.size()) << json.str();
    EXPECT_EQ(report["results"][0]["theta"], 0.3);
    for (const char* key : {"median", "p99", "max", "solverMs"})
        EXPECT_TRUE(report["results"][0][key].is_number()) << key << " in " << json.str();
}

TEST(AccuracyCommand, UnavailableBackendIsAnErrorMessage) {
    SimParams cuda;
    cuda.backend = BackendKind::Cuda;
    if (cudaBackendWouldBeChosen(cuda))
        GTEST_SKIP() << "a CUDA device is present, so backend cuda is available";
    AccuracyOptions options;
    options.backend = BackendKind::Cuda;
    options.bodyCounts = {100};
    std::ostringstream out, err;
    EXPECT_EQ(runAccuracy(options, out, err), 1);
    EXPECT_NE(err.str().find("gravlab accuracy: "), std::string::npos) << err.str();
    EXPECT_NE(err.str().find("cuda"), std::string::npos) << err.str();
}

} // namespace
} // namespace gravlab::test
