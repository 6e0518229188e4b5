// The ORB flags: values reach SimParams::orb and AppOptions unchanged; bad values exit 2 with one sentence naming the
// flag and the value (out of range, not whole, more domains than bodies, an unknown balance, any other ORB flag with
// ORB switched off by --orb-domains 0); and the documented defaults: any ORB flag without --orb-domains gives
// min(64, N) domains, and ORB colours bodies by domain unless --color says otherwise.
#include "CommandLineTestSupport.hpp"

#include <CommandLine.hpp>
#include <TestSupport.hpp>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace gravlab::test {
namespace {

/// The options of a command line that must be accepted; default options (after a test failure) when it is not.
AppOptions parsed(const std::vector<std::string>& arguments) {
    CommandLineOutcome outcome = parse(arguments);
    EXPECT_TRUE(outcome.options.has_value()) << outcome.message;
    AppOptions options;
    if (outcome.options)
        options = std::move(*outcome.options);
    return options;
}

TEST(OrbOptions, EveryValueReachesTheOptions) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    const auto bodies = std::uniform_int_distribution<std::uint32_t>(1, 100000)(random);
    const auto domains = std::uniform_int_distribution<std::uint32_t>(1, std::min(bodies, kMaxOrbDomains))(random);
    const auto every = std::uniform_int_distribution<std::uint32_t>(1, 100000)(random);
    const double limit = std::uniform_real_distribution<double>(1.0, 100.0)(random);
    char limitText[32];
    std::snprintf(limitText, sizeof(limitText), "%.17g", limit);

    const AppOptions options =
        parsed({"--bodies", std::to_string(bodies), "--orb-domains", std::to_string(domains), "--orb-balance", "work",
                "--orb-every", std::to_string(every), "--orb-imbalance", limitText, "--orb-cells"});
    EXPECT_EQ(options.simulation.orb.domainCount, domains);
    EXPECT_EQ(options.simulation.orb.balance, OrbBalance::Work);
    EXPECT_EQ(options.simulation.orb.rebuildInterval, every);
    EXPECT_EQ(options.simulation.orb.imbalanceLimit, limit);
    EXPECT_TRUE(options.orbOverlay.showCells);
    EXPECT_EQ(options.colorMode, ColorMode::OrbDomain) << "ORB on and no --color: bodies show their domains";
}

TEST(OrbOptions, WithoutOrbFlagsOrbIsOffAndNothingChanges) {
    const AppOptions options = parsed({});
    EXPECT_EQ(options.simulation.orb.domainCount, 0u);
    EXPECT_FALSE(options.orbOverlay.showCells);
    EXPECT_EQ(options.colorMode, ColorMode::Component);
}

TEST(OrbOptions, ShowingDomainsWithoutACountTakesSixtyFourCappedAtTheBodyCount) {
    for (const std::vector<std::string>& flags : std::vector<std::vector<std::string>>{{"--color", "orb-domain"},
                                                                                       {"--orb-cells"},
                                                                                       {"--orb-balance", "count"},
                                                                                       {"--orb-every", "10"},
                                                                                       {"--orb-imbalance", "2"}}) {
        SCOPED_TRACE(flags.front());
        const AppOptions many = parsed(flags);
        EXPECT_EQ(many.simulation.orb.domainCount, 64u);
        EXPECT_EQ(many.colorMode, ColorMode::OrbDomain);
        std::vector<std::string> few = flags;
        few.insert(few.end(), {"--bodies", "10"});
        EXPECT_EQ(parsed(few).simulation.orb.domainCount, 10u) << "never more domains than bodies";
    }
}

TEST(OrbOptions, AnExplicitColourWinsOverTheDomainColours) {
    const AppOptions component = parsed({"--orb-domains", "8", "--color", "component"});
    EXPECT_EQ(component.simulation.orb.domainCount, 8u);
    EXPECT_EQ(component.colorMode, ColorMode::Component);
    const AppOptions leafDepth = parsed({"--orb-cells", "--color", "leaf-depth"});
    EXPECT_EQ(leafDepth.colorMode, ColorMode::LeafDepth);
    EXPECT_TRUE(leafDepth.orbOverlay.showCells);
    EXPECT_EQ(leafDepth.simulation.orb.domainCount, 64u);
}

TEST(OrbOptions, TheRangeEndsAreAccepted) {
    EXPECT_EQ(parsed({"--orb-domains", "1024", "--bodies", "1024"}).simulation.orb.domainCount, 1024u);
    EXPECT_EQ(parsed({"--orb-domains", "1"}).simulation.orb.domainCount, 1u);
    const AppOptions off = parsed({"--orb-domains", "0"});
    EXPECT_EQ(off.simulation.orb.domainCount, 0u);
    EXPECT_EQ(off.colorMode, ColorMode::Component) << "ORB off: the colours stay";
    EXPECT_EQ(parsed({"--orb-every", "100000"}).simulation.orb.rebuildInterval, 100000u);
    EXPECT_EQ(parsed({"--orb-imbalance", "1"}).simulation.orb.imbalanceLimit, 1.0);
    EXPECT_EQ(parsed({"--orb-imbalance", "100"}).simulation.orb.imbalanceLimit, 100.0);
}

struct BadOrbValue {
    std::vector<std::string> arguments;
    std::string flag;
    std::vector<std::string> mentions; ///< what the message must quote besides the flag
};

void PrintTo(const BadOrbValue& bad, std::ostream* out) {
    for (const std::string& argument : bad.arguments)
        *out << argument << ' ';
}

class OrbOptionsReject : public ::testing::TestWithParam<BadOrbValue> {};

TEST_P(OrbOptionsReject, WithExitTwoAndOneSentenceNamingTheFlagAndTheValue) {
    const BadOrbValue& bad = GetParam();
    const CommandLineOutcome outcome = parse(bad.arguments);
    EXPECT_FALSE(outcome.options.has_value());
    EXPECT_EQ(outcome.exitCode, 2);
    EXPECT_EQ(outcome.message.rfind("gravlab: error: " + bad.flag + ": ", 0), 0u) << outcome.message;
    for (const std::string& mention : bad.mentions)
        EXPECT_NE(outcome.message.find(mention), std::string::npos) << mention << " missing from " << outcome.message;
}

INSTANTIATE_TEST_SUITE_P(
    BadValues, OrbOptionsReject,
    ::testing::Values(
        BadOrbValue{{"--orb-domains", "1025"}, "--orb-domains", {"1025", "0 <= orb-domains <= 1024"}},
        BadOrbValue{{"--orb-domains", "-1"}, "--orb-domains", {"-1", "out of range"}},
        BadOrbValue{{"--orb-domains", "2.5"}, "--orb-domains", {"'2.5'", "not a whole number"}},
        BadOrbValue{{"--orb-domains", "many"}, "--orb-domains", {"'many'"}},
        BadOrbValue{{"--bodies", "100", "--orb-domains", "200"}, "--orb-domains", {"200", "100 bodies"}},
        BadOrbValue{{"--orb-balance", "memory"}, "--orb-balance", {"'memory'", "'count'", "'work'"}},
        BadOrbValue{{"--orb-every", "0"}, "--orb-every", {"0", "1 <= orb-every <= 100000"}},
        BadOrbValue{{"--orb-every", "1.5"}, "--orb-every", {"'1.5'", "not a whole number"}},
        BadOrbValue{{"--orb-imbalance", "0.5"}, "--orb-imbalance", {"0.5", "1 <= orb-imbalance <= 100"}},
        BadOrbValue{{"--orb-imbalance", "nan"}, "--orb-imbalance", {"'nan'"}},
        BadOrbValue{{"--orb-cells", "--orb-domains", "0"}, "--orb-cells", {"orb-domains = 0", "switches ORB off"}},
        BadOrbValue{{"--color", "orb-domain", "--orb-domains", "0"}, "--color", {"'orb-domain'", "orb-domains = 0"}},
        BadOrbValue{{"--color", "orb"}, "--color", {"'orb'", "'orb-domain'"}},
        // ORB switched off explicitly while another ORB flag asks for something ORB does: both flags are named.
        BadOrbValue{{"--orb-domains", "0", "--orb-every", "5"},
                    "--orb-every",
                    {"orb-every = 5 needs ORB domains", "orb-domains = 0 switches ORB off", "--orb-domains 1 or more",
                     "drop --orb-every"}},
        BadOrbValue{{"--orb-balance", "work", "--orb-domains", "0"},
                    "--orb-balance",
                    {"orb-balance = 'work' needs", "orb-domains = 0", "drop --orb-balance"}},
        BadOrbValue{{"--orb-domains", "0", "--orb-imbalance", "2.50"},
                    "--orb-imbalance",
                    {"orb-imbalance = 2.50 needs", "orb-domains = 0", "drop --orb-imbalance"}},
        BadOrbValue{
            {"--orb-domains", "0", "--orb-every", "5", "--orb-imbalance", "2"},
            "--orb-every",
            {"orb-every = 5 and orb-imbalance = 2 need", "orb-domains = 0", "drop --orb-every and --orb-imbalance"}}));

TEST(OrbOptions, HelpListsTheOrbFlags) {
    const CommandLineOutcome outcome = parse({"--help"});
    for (const char* text : {"--orb-domains", "--orb-balance", "--orb-every", "--orb-imbalance", "--orb-cells",
                             "orb-domain", "0 <= orb-domains <= 1024"})
        EXPECT_NE(outcome.message.find(text), std::string::npos) << text;
}

TEST(OrbOptions, ColourModeNamesRoundTripAndTheDefaultCountIsCapped) {
    for (const ColorMode mode : {ColorMode::Component, ColorMode::LeafDepth, ColorMode::OrbDomain})
        EXPECT_EQ(parseColorMode(toString(mode)), mode);
    EXPECT_EQ(toString(ColorMode::OrbDomain), "orb-domain");
    EXPECT_EQ(defaultOrbDomainCount(1), 1u);
    EXPECT_EQ(defaultOrbDomainCount(63), 63u);
    EXPECT_EQ(defaultOrbDomainCount(std::uint64_t{1} << 28), 64u);
}

} // namespace
} // namespace gravlab::test
