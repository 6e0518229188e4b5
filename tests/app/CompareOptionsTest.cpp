// --compare and --compare-csv: what they become in AppOptions, and the sentences for bad values.
#include "CommandLineTestSupport.hpp"

#include <gtest/gtest.h>

namespace gravlab::test {
namespace {

std::string errorOf(std::vector<std::string> arguments) {
    const CommandLineOutcome outcome = parse(std::move(arguments));
    EXPECT_FALSE(outcome.options.has_value());
    EXPECT_EQ(outcome.exitCode, 2);
    return outcome.message;
}

TEST(CompareOptions, SolverAndThetaBecomeTheChoiceAndThetaDefaultsToTheMainRuns) {
    const CommandLineOutcome explicitTheta = parse({"--compare", "tree:0.7", "--compare-csv", "d.csv"});
    ASSERT_TRUE(explicitTheta.options && explicitTheta.options->compare) << explicitTheta.message;
    EXPECT_EQ(explicitTheta.options->compare->solver, "tree");
    EXPECT_EQ(explicitTheta.options->compare->openingAngle, 0.7);
    EXPECT_EQ(explicitTheta.options->compareCsv, std::filesystem::path("d.csv"));

    const CommandLineOutcome mainTheta = parse({"--theta", "0.35", "--compare", "tree"});
    ASSERT_TRUE(mainTheta.options && mainTheta.options->compare) << mainTheta.message;
    EXPECT_EQ(mainTheta.options->compare->openingAngle, 0.35);
    EXPECT_FALSE(mainTheta.options->compareCsv.has_value());

    const CommandLineOutcome substeps = parse({"--compare", "direct", "--compare-substeps", "4"});
    ASSERT_TRUE(substeps.options && substeps.options->compare) << substeps.message;
    EXPECT_EQ(substeps.options->compare->substeps, 4);
    EXPECT_EQ(mainTheta.options->compare->substeps, 1);

    const CommandLineOutcome none = parse({});
    ASSERT_TRUE(none.options);
    EXPECT_FALSE(none.options->compare.has_value());
}

TEST(CompareOptions, BadValuesAreRefusedNamingTheFlagTheValueAndWhatIsAllowed) {
    const std::string unknown = errorOf({"--compare", "fmm-magic:0.5"});
    EXPECT_NE(unknown.find("--compare: 'fmm-magic:0.5'"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("'tree'"), std::string::npos) << "the known solvers are listed: " << unknown;

    const std::string theta = errorOf({"--compare", "tree:1.5"});
    EXPECT_NE(theta.find("--compare: 'tree:1.5'"), std::string::npos) << theta;
    EXPECT_NE(theta.find("theta"), std::string::npos) << theta;

    const std::string notANumber = errorOf({"--compare", "tree:wide"});
    EXPECT_NE(notANumber.find("wide"), std::string::npos) << notANumber;

    const std::string zeroSubsteps = errorOf({"--compare", "tree", "--compare-substeps", "0"});
    EXPECT_NE(zeroSubsteps.find("--compare-substeps"), std::string::npos) << zeroSubsteps;
    const std::string lonelySubsteps = errorOf({"--compare-substeps", "2"});
    EXPECT_NE(lonelySubsteps.find("--compare SOLVER"), std::string::npos) << lonelySubsteps;

    const std::string lonelyCsv = errorOf({"--compare-csv", "d.csv"});
    EXPECT_NE(lonelyCsv.find("--compare-csv"), std::string::npos) << lonelyCsv;
    EXPECT_NE(lonelyCsv.find("--compare SOLVER"), std::string::npos) << lonelyCsv;
}

} // namespace
} // namespace gravlab::test
