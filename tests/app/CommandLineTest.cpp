// The command line: --help exits 0 and lists the scenarios; every bad value exits 2 with a message naming the flag
// and the value; valid values (the tree solver's --theta, --color and --overlay-depth among them) arrive in AppOptions
// and SimParams unchanged.
#include "CommandLineTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <CommandLine.hpp>
#include <TestSupport.hpp>
#include <gtest/gtest.h>
#include <iomanip>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace gravlab::test {
namespace {

/// Prints a double so that it parses back to the same value.
std::string exactText(double value) {
    std::ostringstream text;
    text << std::setprecision(17) << value;
    return text.str();
}

TEST(CommandLine, HelpExitsZeroAndListsEveryScenarioWithItsDescription) {
    const CommandLineOutcome outcome = parse({"--help"});
    EXPECT_FALSE(outcome.options.has_value());
    EXPECT_EQ(outcome.exitCode, 0);
    ASSERT_FALSE(scenarios().empty());
    for (const Scenario& scenario : scenarios()) {
        EXPECT_NE(outcome.message.find(std::string(scenario.name)), std::string::npos) << scenario.name;
        EXPECT_NE(outcome.message.find(std::string(scenario.description)), std::string::npos) << scenario.name;
    }
    for (const char* flag : {"--scenario", "--bodies", "--dt", "--softening", "--seed", "--headless", "--frames",
                             "--out", "--width", "--height", "--backend", "--solver", "--steps-per-frame", "--theta",
                             "--color", "--overlay-depth", "leaf-depth", "--session"})
        EXPECT_NE(outcome.message.find(flag), std::string::npos) << flag;
}

TEST(CommandLine, NoFlagsGiveTheDefaults) {
    const CommandLineOutcome outcome = parse({});
    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    const AppOptions defaults;
    const SimParams simulationDefaults;
    EXPECT_FALSE(outcome.options->headless);
    EXPECT_EQ(outcome.options->frameCount, defaults.frameCount);
    EXPECT_EQ(outcome.options->simulation.scenario, simulationDefaults.scenario);
    EXPECT_EQ(outcome.options->simulation.bodyCount, simulationDefaults.bodyCount);
    EXPECT_EQ(outcome.options->simulation.timeStep, simulationDefaults.timeStep);
}

struct BadValue {
    std::vector<std::string> arguments;
    std::string flag;
    std::string value; ///< as the message must quote it
};

void PrintTo(const BadValue& bad, std::ostream* out) {
    for (const std::string& argument : bad.arguments)
        *out << argument << ' ';
}

class CommandLineRejects : public ::testing::TestWithParam<BadValue> {};

TEST_P(CommandLineRejects, WithExitTwoAndAMessageNamingTheFlagAndTheValue) {
    const BadValue& bad = GetParam();
    const CommandLineOutcome outcome = parse(bad.arguments);
    EXPECT_FALSE(outcome.options.has_value());
    EXPECT_EQ(outcome.exitCode, 2);
    EXPECT_NE(outcome.message.find(bad.flag), std::string::npos) << outcome.message;
    EXPECT_NE(outcome.message.find(bad.value), std::string::npos) << outcome.message;
}

INSTANTIATE_TEST_SUITE_P(
    BadValues, CommandLineRejects,
    ::testing::Values(
        BadValue{{"--dt", "-1"}, "--dt", "-1"}, BadValue{{"--dt", "0"}, "--dt", "0"},
        BadValue{{"--dt", "2"}, "--dt", "2"}, BadValue{{"--dt", "nan"}, "--dt", "nan"},
        BadValue{{"--dt", "inf"}, "--dt", "inf"}, BadValue{{"--dt", "fast"}, "--dt", "fast"},
        BadValue{{"--bodies", "0"}, "--bodies", "0"}, BadValue{{"--bodies", "-5"}, "--bodies", "-5"},
        BadValue{{"--bodies", "1.5"}, "--bodies", "1.5"}, BadValue{{"--bodies", "1e12"}, "--bodies", "1e12"},
        BadValue{{"--softening", "-1"}, "--softening", "-1"},
        BadValue{{"--solver", "tree", "--softening", "0"}, "--softening", "for solver 'tree'"},
        BadValue{{"--softening", "100"}, "--softening", "100"}, BadValue{{"--G", "-3"}, "--G", "-3"},
        BadValue{{"--seed", "-1"}, "--seed", "-1"}, BadValue{{"--scenario", "nebula"}, "--scenario", "nebula"},
        BadValue{{"--backend", "gpu"}, "--backend", "gpu"}, BadValue{{"--solver", "octree"}, "--solver", "octree"},
        BadValue{{"--frames", "0"}, "--frames", "0"}, BadValue{{"--theta", "0.05"}, "--theta", "0.05"},
        BadValue{{"--theta", "2"}, "--theta", "2"}, BadValue{{"--theta", "nan"}, "--theta", "nan"},
        BadValue{{"--theta", "wide"}, "--theta", "wide"}, BadValue{{"--color", "rainbow"}, "--color", "rainbow"},
        BadValue{{"--color", "Leaf-Depth"}, "--color", "Leaf-Depth"},
        BadValue{{"--color-scale", "cubic"}, "--color-scale", "cubic"},
        BadValue{{"--overlay-depth", "3"}, "--overlay-depth", "'3'"},
        BadValue{{"--overlay-depth", "4:2"}, "--overlay-depth", "4:2"},
        BadValue{{"--overlay-depth", "0:25"}, "--overlay-depth", "0:25"},
        BadValue{{"--overlay-depth", "1:x"}, "--overlay-depth", "1:x"},
        BadValue{{"--overlay-depth", "1.5:3"}, "--overlay-depth", "1.5:3"},
        BadValue{{"--overlay-depth", ":3"}, "--overlay-depth", ":3"},
        BadValue{{"--overlay-depth", "-1:3"}, "--overlay-depth", "-1:3"},
        BadValue{{"--overlay-depth", "0:4:8"}, "--overlay-depth", "0:4:8"},
        BadValue{{"--overlay-depth"}, "--overlay-depth", "--overlay-depth"},
        BadValue{{"--frames", "2000000"}, "--frames", "2000000"}, BadValue{{"--width", "8"}, "--width", "8"},
        BadValue{{"--height", "100000"}, "--height", "100000"},
        BadValue{{"--steps-per-frame", "0"}, "--steps-per-frame", "0"},
        BadValue{{"--warp-speed"}, "--warp-speed", "--warp-speed"}, BadValue{{"--dt"}, "--dt", "--dt"}));

TEST(CommandLine, ValidValuesReachTheOptionsUnchanged) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    // Log-uniform values strictly inside each range, so both ends' neighbourhoods get exercised over many runs.
    auto logUniform = [&random](double low, double high) {
        return std::exp(std::uniform_real_distribution<double>(std::log(low), std::log(high))(random));
    };
    const double dt = logUniform(1e-6, 1.0);
    const double softening = logUniform(kSmallestPositiveSoftening, kSofteningRange.max);
    const double gravity = logUniform(1e-6, kGravitationalConstantRange.max);
    const auto bodies = std::uniform_int_distribution<std::uint64_t>(1, kMaxBodyCount)(random);
    const std::uint64_t scenarioSeed = random();
    const int width = std::uniform_int_distribution<int>(16, 8192)(random);
    const int height = std::uniform_int_distribution<int>(16, 8192)(random);
    const int frames = std::uniform_int_distribution<int>(1, 1000000)(random);
    const int stepsPerFrame = std::uniform_int_distribution<int>(1, 10000)(random);
    const std::string scenario(scenarios()[random() % scenarios().size()].name);

    const CommandLineOutcome outcome = parse({"--scenario",
                                              scenario,
                                              "--bodies",
                                              std::to_string(bodies),
                                              "--seed",
                                              std::to_string(scenarioSeed),
                                              "--dt",
                                              exactText(dt),
                                              "--softening",
                                              exactText(softening),
                                              "--G",
                                              exactText(gravity),
                                              "--backend",
                                              "cpu",
                                              "--solver",
                                              "direct",
                                              "--frames",
                                              std::to_string(frames),
                                              "--out",
                                              "somewhere/frames",
                                              "--width",
                                              std::to_string(width),
                                              "--height",
                                              std::to_string(height),
                                              "--steps-per-frame",
                                              std::to_string(stepsPerFrame)});

    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    const AppOptions& options = *outcome.options;
    EXPECT_EQ(options.simulation.scenario, scenario);
    EXPECT_EQ(options.simulation.bodyCount, bodies);
    EXPECT_EQ(options.simulation.seed, scenarioSeed);
    EXPECT_EQ(options.simulation.timeStep, dt);
    EXPECT_EQ(options.simulation.softeningLength, softening);
    EXPECT_EQ(options.simulation.gravitationalConstant, gravity);
    EXPECT_EQ(options.simulation.backend, BackendKind::Cpu);
    EXPECT_EQ(options.simulation.solver, "direct");
    EXPECT_EQ(options.frameCount, frames);
    EXPECT_EQ(options.outputFolder, std::filesystem::path("somewhere/frames"));
    EXPECT_EQ(options.width, width);
    EXPECT_EQ(options.height, height);
    EXPECT_EQ(options.stepsPerFrame, stepsPerFrame);
    EXPECT_TRUE(options.headless) << "--frames and --out imply --headless";
}

TEST(CommandLine, TreeSolverThetaColourAndOverlayDepthsReachTheOptions) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    const double theta = std::uniform_real_distribution<double>(kOpeningAngleRange.min, kOpeningAngleRange.max)(random);
    const int minDepth = std::uniform_int_distribution<int>(0, kMaxOverlayDepth)(random);
    const int maxDepth = std::uniform_int_distribution<int>(minDepth, kMaxOverlayDepth)(random);

    const CommandLineOutcome outcome =
        parse({"--solver", "tree", "--theta", exactText(theta), "--color", "leaf-depth", "--overlay-depth",
               std::to_string(minDepth) + ":" + std::to_string(maxDepth)});

    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    EXPECT_EQ(outcome.options->simulation.solver, "tree");
    EXPECT_EQ(outcome.options->simulation.openingAngle, theta);
    EXPECT_EQ(outcome.options->colorMode, ColorMode::LeafDepth);
    EXPECT_TRUE(outcome.options->treeOverlay.enabled);
    EXPECT_EQ(outcome.options->treeOverlay.depths.min, minDepth);
    EXPECT_EQ(outcome.options->treeOverlay.depths.max, maxDepth);
}

TEST(CommandLine, ThetaAndOverlayDepthRangeEndsAreAcceptedAndDefaultsDrawNoOverlay) {
    const CommandLineOutcome ends = parse({"--theta", "0.1", "--overlay-depth", "0:0", "--color", "component"});
    ASSERT_TRUE(ends.options.has_value()) << ends.message;
    EXPECT_EQ(ends.options->simulation.openingAngle, 0.1);
    EXPECT_TRUE(ends.options->treeOverlay.enabled);
    EXPECT_EQ(ends.options->treeOverlay.depths, (TreeDepthRange{0, 0}));
    EXPECT_EQ(ends.options->colorMode, ColorMode::Component);
    const CommandLineOutcome top = parse({"--theta", "1.1547005383792515", "--overlay-depth",
                                          std::to_string(kMaxOverlayDepth) + ":" + std::to_string(kMaxOverlayDepth)});
    ASSERT_TRUE(top.options.has_value()) << top.message;
    EXPECT_EQ(top.options->simulation.openingAngle, kOpeningAngleRange.max);
    const CommandLineOutcome defaults = parse({});
    ASSERT_TRUE(defaults.options.has_value());
    EXPECT_FALSE(defaults.options->treeOverlay.enabled);
    EXPECT_EQ(defaults.options->colorMode, ColorMode::Component);
}

TEST(CommandLine, EveryColourModeAndScaleIsAcceptedByName) {
    for (const EnumName<ColorMode>& mode : EnumNames<ColorMode>::entries) {
        const CommandLineOutcome outcome = parse({"--color", std::string(mode.name), "--color-scale", "log"});
        ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
        EXPECT_EQ(outcome.options->colorMode, mode.value);
        EXPECT_EQ(outcome.options->colorScale, ColorScaleChoice::Logarithmic);
    }
    const CommandLineOutcome defaults = parse({"--color", "density"});
    ASSERT_TRUE(defaults.options.has_value()) << defaults.message;
    EXPECT_EQ(defaults.options->colorScale, ColorScaleChoice::Auto);
    const CommandLineOutcome linear = parse({"--color", "speed", "--color-scale", "linear"});
    ASSERT_TRUE(linear.options.has_value()) << linear.message;
    EXPECT_EQ(linear.options->colorScale, ColorScaleChoice::Linear);
}

TEST(CommandLine, ScientificNotationCountsAndTheRangeEndsAreAccepted) {
    const CommandLineOutcome outcome = parse(
        {"--bodies", "1e6", "--dt", "1", "--softening", "1e-5", "--width", "16", "--height", "8192", "--headless"});
    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    EXPECT_EQ(outcome.options->simulation.bodyCount, 1000000u);
    EXPECT_EQ(outcome.options->simulation.timeStep, 1.0);
    EXPECT_EQ(outcome.options->width, 16);
    EXPECT_EQ(outcome.options->height, 8192);
    EXPECT_TRUE(outcome.options->headless);
}

TEST(CommandLine, ListScenariosExitsZeroWithTheGalleryOfEveryScenario) {
    const CommandLineOutcome outcome = parse({"--list-scenarios"});
    EXPECT_FALSE(outcome.options.has_value());
    EXPECT_EQ(outcome.exitCode, 0);
    for (const Scenario& scenario : scenarios()) {
        EXPECT_NE(outcome.message.find(std::string(scenario.name) + ": "), std::string::npos) << scenario.name;
        EXPECT_NE(outcome.message.find(std::string(scenario.whatToLookFor)), std::string::npos) << scenario.name;
        for (const ScenarioParameter& parameter : scenario.parameters)
            EXPECT_NE(outcome.message.find("    " + std::string(parameter.name) + " = "), std::string::npos)
                << scenario.name << " " << parameter.name;
    }
    // The cold sphere's free-fall time, (pi / 2) sqrt(R^3 / 2GM) with R = M = G = 1, to three decimals.
    EXPECT_NE(outcome.message.find("free-fall time: 1.111\n"), std::string::npos) << outcome.message;
}

TEST(CommandLine, ScenarioParamsAreReadAsNameEqualsValue) {
    const CommandLineOutcome outcome = parse({"--headless", "--scenario", "kepler-binary", "--scenario-param",
                                              "eccentricity=0.25", "--scenario-param", "period=1e1"});
    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    const ScenarioParams expected{{"eccentricity", 0.25}, {"period", 10.0}};
    EXPECT_EQ(outcome.options->simulation.scenarioParams, expected);
    for (const char* bad : {"eccentricity", "eccentricity=", "=0.2", "eccentricity=high", "eccentricity=nan"}) {
        const CommandLineOutcome refused =
            parse({"--headless", "--scenario", "kepler-binary", "--scenario-param", bad});
        EXPECT_EQ(refused.exitCode, 2) << bad;
        EXPECT_NE(refused.message.find("--scenario-param"), std::string::npos) << refused.message;
    }
    const CommandLineOutcome withLoad = parse({"--load", "x.csv", "--scenario-param", "eccentricity=0.2"});
    EXPECT_EQ(withLoad.exitCode, 2);
    EXPECT_NE(withLoad.message.find("has no effect with --load"), std::string::npos) << withLoad.message;
}

TEST(CommandLine, CameraModeFollowsByDefaultAndFixedOnlyWhenAsked) {
    const CommandLineOutcome byDefault = parse({"--headless"});
    ASSERT_TRUE(byDefault.options.has_value()) << byDefault.message;
    EXPECT_TRUE(byDefault.options->cameraFollowsBodies);
    const CommandLineOutcome fixed = parse({"--headless", "--camera", "fixed"});
    ASSERT_TRUE(fixed.options.has_value()) << fixed.message;
    EXPECT_FALSE(fixed.options->cameraFollowsBodies);
    const CommandLineOutcome follow = parse({"--camera", "follow"});
    ASSERT_TRUE(follow.options.has_value()) << follow.message;
    EXPECT_TRUE(follow.options->cameraFollowsBodies);
    const CommandLineOutcome misspelt = parse({"--camera", "still"});
    EXPECT_FALSE(misspelt.options.has_value());
    EXPECT_EQ(misspelt.exitCode, 2);
    EXPECT_NE(misspelt.message.find("--camera"), std::string::npos) << misspelt.message;
}

TEST(CommandLine, PlotsCsvAndItsIntervalReachTheOptionsAndTheIntervalAloneIsRefused) {
    const CommandLineOutcome none = parse({"--headless"});
    ASSERT_TRUE(none.options.has_value()) << none.message;
    EXPECT_FALSE(none.options->plotsCsv.has_value());
    EXPECT_EQ(none.options->plotsEverySteps, 0u);
    const CommandLineOutcome both = parse({"--headless", "--plots-csv", "run.csv", "--plots-every", "5"});
    ASSERT_TRUE(both.options.has_value()) << both.message;
    EXPECT_EQ(both.options->plotsCsv, std::filesystem::path("run.csv"));
    EXPECT_EQ(both.options->plotsEverySteps, 5u);
    const CommandLineOutcome alone = parse({"--headless", "--plots-every", "5"});
    EXPECT_FALSE(alone.options.has_value());
    EXPECT_EQ(alone.exitCode, 2);
    EXPECT_NE(alone.message.find("--plots-every"), std::string::npos) << alone.message;
    const CommandLineOutcome negative = parse({"--plots-csv", "run.csv", "--plots-every", "-1"});
    EXPECT_EQ(negative.exitCode, 2);
    EXPECT_NE(negative.message.find("--plots-every"), std::string::npos) << negative.message;
}

} // namespace
} // namespace gravlab::test
