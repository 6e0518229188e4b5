// The JSON of `gravlab bench --json` and `gravlab accuracy --json`: one line that a JSON parser reads, with the keys
// the scripts read, the counts asked for, and rates consistent with the times they were derived from.
#include <gravlab/sim/Simulation.hpp>

#include <AccuracyCommand.hpp>
#include <BenchCommand.hpp>
#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace gravlab::test {
namespace {

/// The one line of out, parsed; fails the test when out is not exactly one JSON line.
nlohmann::json parsedLine(const std::string& out) {
    EXPECT_EQ(out.find('\n'), out.size() - 1) << "one line: " << out;
    return nlohmann::json::parse(out);
}

TEST(ReportJson, BenchPrintsOneParsableObjectWithItsKeys) {
    BenchOptions options;
    options.backend = BackendKind::Cpu;
    options.solver = "tree";
    options.bodyCount = 512;
    options.stepCount = 3;
    options.warmupStepCount = 1;
    options.stepOrbDomains = 4;
    options.json = true;
    std::ostringstream out, err;
    ASSERT_EQ(runBench(options, out, err), 0) << err.str();
    const nlohmann::json report = parsedLine(out.str());
    EXPECT_EQ(report["device"], "cpu");
    EXPECT_TRUE(report["cpu"].is_string());
    EXPECT_EQ(report["solver"], "tree");
    EXPECT_EQ(report["scenario"], "plummer");
    EXPECT_EQ(report["bodies"], 512);
    EXPECT_EQ(report["steps"], 3);
    EXPECT_EQ(report["warmupSteps"], 1);
    EXPECT_EQ(report["theta"], 0.5);
    EXPECT_EQ(report["orbDomains"], 4);
    EXPECT_EQ(report["orbBalance"], "count");
    for (const char* key : {"date", "medianStepMs", "fastestStepMs", "meanStepMs", "ranks", "peakDeviceBytes",
                            "deviceBytesPerBody", "forceMs", "forceMeanMs", "orbMs", "orbMeanMs", "orbMemoryImbalance",
                            "orbWorkImbalance", "orbMigratedLastStep", "orbLastRebuildMs"})
        EXPECT_TRUE(report.contains(key)) << key << " in " << out.str();
    const double medianStepMs = report["medianStepMs"].get<double>();
    EXPECT_GE(medianStepMs, report["fastestStepMs"].get<double>());
    EXPECT_GE(report["meanStepMs"].get<double>(), report["fastestStepMs"].get<double>());
    EXPECT_EQ(report["ranks"], 1); // a run without mpirun
    // Both numbers carry 6 significant digits, each within half a unit of its sixth digit: up to 5e-6 of its value
    // when it begins with a 1, so the rate agrees with N / median step to 1e-5 (2e-6 failed 1 run in 5 here).
    const double expectedRate = 512.0 / (medianStepMs * 1e-3);
    EXPECT_NEAR(report["bodyStepsPerSecond"].get<double>(), expectedRate, 1e-5 * expectedRate);
}

TEST(ReportJson, AccuracyPrintsOneParsableObjectWithARowPerCase) {
    AccuracyOptions options;
    options.backend = BackendKind::Cpu;
    options.scenarios = {"plummer"};
    options.bodyCounts = {600, 900};
    options.openingAngles = {0.4, 0.9};
    options.sampleCount = 64;
    options.softeningLength = 0.02;
    options.json = true;
    std::ostringstream out, err;
    ASSERT_EQ(runAccuracy(options, out, err), 0) << err.str();
    const nlohmann::json report = parsedLine(out.str());
    EXPECT_EQ(report["solver"], "tree");
    EXPECT_EQ(report["samples"], 64);
    EXPECT_EQ(report["softening"], 0.02);
    EXPECT_EQ(report["G"], 1);
    EXPECT_EQ(report["seed"], 42);
    ASSERT_EQ(report["results"].size(), 4u);
    for (std::size_t row = 0; row < 4; ++row) {
        const nlohmann::json& result = report["results"][row];
        EXPECT_EQ(result["scenario"], "plummer");
        EXPECT_EQ(result["bodies"], row < 2 ? 600 : 900);
        EXPECT_EQ(result["theta"], row % 2 == 0 ? 0.4 : 0.9);
        EXPECT_EQ(result["sampled"], 64);
        EXPECT_GT(result["median"].get<double>(), 0.0);
        EXPECT_LE(result["median"].get<double>(), result["p90"].get<double>());
        EXPECT_LE(result["p90"].get<double>(), result["p99"].get<double>());
        EXPECT_LE(result["p99"].get<double>(), result["max"].get<double>());
        EXPECT_TRUE(result.contains("solverMs") && result.contains("referenceMs"));
    }
}

} // namespace
} // namespace gravlab::test
