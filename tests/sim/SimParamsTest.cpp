// validateSimParams and the kind parsers: every field is rejected below, above, as NaN and as infinity, with a
// message naming the field (as the command line spells it), the value and the allowed range; defaults pass.
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SolverRegistry.hpp>

#include <functional>
#include <gtest/gtest.h>
#include <limits>

namespace gravlab {
namespace {

std::string rejectionMessage(const SimParams& params, const std::string& expectedField) {
    try {
        validateSimParams(params);
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), expectedField);
        return error.what();
    }
    ADD_FAILURE() << "no InvalidParameterError for field " << expectedField;
    return {};
}

void expectMentions(const std::string& message, const std::vector<std::string>& parts) {
    for (const std::string& part : parts)
        EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' missing from: " << message;
}

struct NumericField {
    ParamRange range;
    std::function<void(SimParams&, double)> set;
};

std::vector<NumericField> numericFields() {
    return {
        {kGravitationalConstantRange, [](SimParams& p, double v) { p.gravitationalConstant = v; }},
        {kTimeStepRange, [](SimParams& p, double v) { p.timeStep = v; }},
        {kSofteningRange, [](SimParams& p, double v) { p.softeningLength = v; }},
        {kOpeningAngleRange, [](SimParams& p, double v) { p.openingAngle = v; }},
        {kOrbImbalanceLimitRange, [](SimParams& p, double v) { p.orb.imbalanceLimit = v; }},
    };
}

TEST(SimParams, DefaultsAreValid) {
    EXPECT_NO_THROW(validateSimParams(SimParams{}));
}

TEST(SimParams, ExampleMessageReadsAsASentence) {
    SimParams params;
    params.timeStep = -1;
    EXPECT_EQ(rejectionMessage(params, "dt"),
              "dt = -1 is out of range: allowed 0 < dt <= 1 (time step in N-body time units)");
}

TEST(SimParams, EveryNumericFieldRejectsBelowAboveNanAndInfinity) {
    for (const NumericField& field : numericFields()) {
        const std::string name(field.range.name);
        SCOPED_TRACE(name);
        const double span = field.range.max - field.range.min;
        const std::vector<std::pair<double, std::string>> badValues{
            {field.range.minInclusive ? field.range.min - 0.01 * span - 1e-6 : field.range.min, "out of range"},
            {field.range.max * 1.5 + 1.0, "out of range"},
            {std::numeric_limits<double>::quiet_NaN(), "nan is not a number"},
            {std::numeric_limits<double>::infinity(), "inf is not finite"},
            {-std::numeric_limits<double>::infinity(), "-inf is not finite"},
        };
        for (const auto& [value, wording] : badValues) {
            SimParams params;
            field.set(params, value);
            expectMentions(rejectionMessage(params, name),
                           {name + " = ", wording, "allowed", std::string(field.range.meaning)});
        }
        // The ends of the range: the maximum is always allowed, the minimum when the range says so.
        SimParams atMax;
        field.set(atMax, field.range.max);
        EXPECT_NO_THROW(validateSimParams(atMax));
        SimParams atMin;
        field.set(atMin, field.range.min);
        if (field.range.minInclusive)
            EXPECT_NO_THROW(validateSimParams(atMin));
        else
            rejectionMessage(atMin, name);
    }
}

TEST(SimParams, BodyCountMustBeBetweenOneAndTheMaximum) {
    SimParams params;
    params.bodyCount = 0;
    expectMentions(rejectionMessage(params, "bodies"), {"bodies = 0 ", "allowed 1 <= bodies <= 268435456"});
    params.bodyCount = kMaxBodyCount + 1;
    expectMentions(rejectionMessage(params, "bodies"), {"bodies = 268435457 ", "out of range"});
    params.bodyCount = std::numeric_limits<std::uint64_t>::max();
    rejectionMessage(params, "bodies");
    params.bodyCount = 1;
    EXPECT_NO_THROW(validateSimParams(params));
    params.bodyCount = kMaxBodyCount;
    EXPECT_NO_THROW(validateSimParams(params));
}

TEST(SimParams, OrbDomainsAndIntervalStayInTheirRangesAndDomainsNeedBodies) {
    SimParams params;
    params.orb.domainCount = kMaxOrbDomains + 1;
    expectMentions(rejectionMessage(params, "orb-domains"),
                   {"orb-domains = 1025 ", "allowed 0 <= orb-domains <= 1024"});
    params.orb.domainCount = kMaxOrbDomains;
    EXPECT_NO_THROW(validateSimParams(params));
    params.bodyCount = 100;
    params.orb.domainCount = 101;
    expectMentions(rejectionMessage(params, "orb-domains"), {"orb-domains = 101 ", "100 bodies"});
    params.orb.domainCount = 100;
    EXPECT_NO_THROW(validateSimParams(params));
    params.orb.rebuildInterval = 0;
    expectMentions(rejectionMessage(params, "orb-every"), {"orb-every = 0 ", "out of range"});
    params.orb.rebuildInterval = 100001;
    rejectionMessage(params, "orb-every");
    params.orb.rebuildInterval = 1;
    params.orb.balance = static_cast<OrbBalance>(7);
    expectMentions(rejectionMessage(params, "orb-balance"), {"'count'", "'work'"});
}

TEST(SimParams, OrbBalanceNamesParseAndRoundTrip) {
    for (const OrbBalance balance : {OrbBalance::Count, OrbBalance::Work})
        EXPECT_EQ(parseOrbBalance(toString(balance)), balance);
    EXPECT_THROW(parseOrbBalance("weight"), InvalidParameterError);
}

TEST(SimParams, UnknownScenarioIsRejectedListingTheKnownNames) {
    SimParams params;
    params.scenario = "nebula";
    const std::string message = rejectionMessage(params, "scenario");
    expectMentions(message, {"scenario = 'nebula'", "allowed"});
    for (const Scenario& scenario : scenarios())
        expectMentions(message, {std::string("'").append(scenario.name).append("'")});
    params.scenario = "";
    rejectionMessage(params, "scenario");
}

TEST(SimParams, SolverAndBackendNamesParseAndRoundTrip) {
    // Every registered solver is found by its own name.
    for (const SolverInfo& solver : solverInfos())
        EXPECT_EQ(&findSolver(solver.name), &solver);
    for (const BackendKind backend : {BackendKind::Auto, BackendKind::Cuda, BackendKind::Cpu})
        EXPECT_EQ(parseBackendKind(toString(backend)), backend);
    EXPECT_EQ(toString(BackendKind::Cpu), "cpu");
}

TEST(SimParams, UnknownSolverOrBackendIsRejectedListingTheAllowedNames) {
    try {
        (void)findSolver("barnes-hut-ish");
        ADD_FAILURE() << "no exception";
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), "solver");
        expectMentions(error.what(), {"solver = 'barnes-hut-ish'", "'direct'", "'direct-symmetric'"});
    }
    try {
        parseBackendKind("opencl");
        ADD_FAILURE() << "no exception";
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), "backend");
        expectMentions(error.what(), {"backend = 'opencl'", "'auto'", "'cuda'", "'cpu'"});
    }
    // An empty solver name and enum values that no name maps to (a corrupt file or a bad cast) are rejected too.
    SimParams params;
    params.solver = "";
    rejectionMessage(params, "solver");
    params = SimParams{};
    params.backend = static_cast<BackendKind>(42);
    rejectionMessage(params, "backend");
}

TEST(SimParams, SymmetricSolverNeedsTheCudaBackend) {
    SimParams params;
    params.solver = "direct-symmetric";
    params.backend = BackendKind::Cpu;
    expectMentions(rejectionMessage(params, "solver"), {"direct-symmetric", "cpu"});
    params.backend = BackendKind::Cuda;
    EXPECT_NO_THROW(validateSimParams(params));
}

// Hierarchical steps kick the float state alone, and their criterion eta sqrt(softening / |a|) needs softening > 0:
// both combinations are refused naming the time steps and the other setting; fixed steps take both.
TEST(SimParams, HierarchicalStepsNeedSinglePrecisionAndPositiveSoftening) {
    SimParams params;
    params.timeSteps.mode = TimeStepMode::Hierarchical;
    EXPECT_NO_THROW(validateSimParams(params));
    params.precision = Precision::Double;
    expectMentions(rejectionMessage(params, "time-steps"), {"hierarchical", "precision single"});
    params.precision = Precision::Single;
    params.softeningLength = 0.0;
    expectMentions(rejectionMessage(params, "time-steps"), {"hierarchical", "softening > 0"});
    params.timeSteps.mode = TimeStepMode::Fixed;
    EXPECT_NO_THROW(validateSimParams(params));
    params.precision = Precision::Double;
    EXPECT_NO_THROW(validateSimParams(params));
}

TEST(SimParams, Fp64DirectSumRunsOnBothDevices) {
    const SolverInfo& solver = findSolver("direct-fp64");
    EXPECT_TRUE(solver.runsOn(Device::Cuda));
    EXPECT_TRUE(solver.runsOn(Device::Cpu));
    EXPECT_FALSE(solver.usesOpeningAngle);
    SimParams params;
    params.solver = "direct-fp64";
    params.backend = BackendKind::Cpu;
    EXPECT_NO_THROW(validateSimParams(params));
}

} // namespace
} // namespace gravlab
