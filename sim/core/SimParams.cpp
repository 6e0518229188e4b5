// Validation of SimParams (the enums name their values in EnumNames tables beside their declarations; solvers
// are named by the registry, SolverRegistry.hpp).
//
// Design note: every check produces one sentence of the form
//   "dt = -1 is out of range: allowed 0 < dt <= 1 (time step in N-body time units)"
// naming the field as the command line spells it, the offending value and what is allowed, so the command line and
// the panel can show what() to the user unchanged. Values print with up to 10 significant digits, so integers such
// as body counts print exactly.
#include "tree/TreeMath.hpp"

#include <gravlab/sim/GlBackendParams.hpp>
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <array>
#include <cmath>
#include <sstream>

namespace gravlab {
namespace {

std::string formatValue(double value) {
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    std::ostringstream text;
    text.precision(10);
    text << value;
    return text.str();
}

std::string describeAllowed(const ParamRange& range) {
    std::string allowed = formatValue(range.min) + (range.minInclusive ? " <= " : " < ") + std::string(range.name) +
                          " <= " + formatValue(range.max);
    return allowed + " (" + std::string(range.meaning) + ")";
}

void checkBodyCount(std::uint64_t bodyCount) {
    // The range table stores doubles; compare as integers so values above 2^53 cannot round into the range.
    if (bodyCount < 1 || bodyCount > kMaxBodyCount)
        throw InvalidParameterError(std::string(kBodyCountRange.name),
                                    std::string(kBodyCountRange.name) + " = " + std::to_string(bodyCount) +
                                        " is out of range: allowed " + describeAllowed(kBodyCountRange));
}

void checkSolverAndBackend(const SimParams& params) {
    const SolverInfo& solver = findSolver(params.solver);
    checkEnumValue(params.backend);
    // With backend auto the device is known only once the backend is chosen (Simulation checks it there).
    if (params.backend == BackendKind::Cpu)
        requireSolverRunsOn(solver, Device::Cpu, "backend 'cpu' was chosen");
    else if (params.backend == BackendKind::Cuda)
        requireSolverRunsOn(solver, Device::Cuda, "backend 'cuda' was chosen");
    else if (params.backend == BackendKind::Gl)
        requireGlBackendTakes(params);
}

/// The solver's own lower bound on the softening (the range check has passed): 0 only for the direct sums.
void checkSofteningForSolver(const SimParams& params) {
    const SolverInfo& solver = findSolver(params.solver);
    if (params.softeningLength >= solver.minSoftening)
        return;
    const std::string field(kSofteningRange.name);
    throw InvalidParameterError(
        field, field + " = " + formatValue(params.softeningLength) + " is out of range for solver '" +
                   std::string(solver.name) + "': allowed " + formatValue(solver.minSoftening) + " <= " + field +
                   " <= " + formatValue(kSofteningRange.max) + " (" + std::string(solver.softeningNeed) + "); " +
                   field + " " + formatValue(params.softeningLength) + " needs solver " +
                   solversTakingSofteningText(params.softeningLength));
}

void checkOrb(const OrbParams& orb, std::uint64_t bodyCount) {
    checkInRange(kOrbDomainRange, orb.domainCount);
    if (orb.domainCount > bodyCount)
        throw InvalidParameterError(std::string(kOrbDomainRange.name),
                                    "orb-domains = " + std::to_string(orb.domainCount) + " is more than the " +
                                        std::to_string(bodyCount) + " bodies: every domain needs a body");
    checkEnumValue(orb.balance);
    checkInRange(kOrbRebuildIntervalRange, orb.rebuildInterval);
    checkInRange(kOrbImbalanceLimitRange, orb.imbalanceLimit);
}

void checkTimeSteps(const TimeStepParams& timeSteps) {
    checkEnumValue(timeSteps.mode);
    checkEnumValue(timeSteps.levelChoice);
    checkInRange(kTimeStepAccuracyRange, timeSteps.accuracy);
    checkInRange(kMaxTimeStepLevelRange, timeSteps.maxLevel);
}

// Every theta the range allows reaches the trees (in float) unchanged by their cap, and the cap itself is allowed.
static_assert(float(kOpeningAngleRange.max) == kLargestSelfSafeOpeningAngle,
              "the theta range ends at the tree criterion's cap");

/// The combinations hierarchical time steps cannot run: their kicks and drifts work on the float state alone, and
/// their criterion, dt_i = eta sqrt(softening / |a_i|), would put every body on the deepest level at softening 0.
void checkHierarchicalSteps(const SimParams& params) {
    if (params.timeSteps.mode != TimeStepMode::Hierarchical)
        return;
    if (params.precision == Precision::Double)
        throw InvalidParameterError("time-steps", "time-steps = 'hierarchical' runs in single precision only: choose "
                                                  "--precision single, or --time-steps fixed for double precision");
    if (params.softeningLength == 0.0)
        throw InvalidParameterError("time-steps",
                                    "time-steps = 'hierarchical' needs softening > 0: its criterion eta sqrt(softening "
                                    "/ |a|) would give every body the deepest level; give --softening > 0 or "
                                    "--time-steps fixed");
}

} // namespace

void checkInRange(const ParamRange& range, double value) {
    const std::string field(range.name);
    const std::string prefix = field + " = " + formatValue(value);
    if (std::isnan(value))
        throw InvalidParameterError(field, prefix + " is not a number: allowed " + describeAllowed(range));
    if (std::isinf(value))
        throw InvalidParameterError(field, prefix + " is not finite: allowed " + describeAllowed(range));
    const bool aboveMin = range.minInclusive ? value >= range.min : value > range.min;
    if (!aboveMin || value > range.max)
        throw InvalidParameterError(field, prefix + " is out of range: allowed " + describeAllowed(range));
}

void validateSimParams(const SimParams& params) {
    checkScenarioParams(params.scenario, params.scenarioParams);
    checkBodyCount(params.bodyCount);
    checkInRange(kGravitationalConstantRange, params.gravitationalConstant);
    checkInRange(kTimeStepRange, params.timeStep);
    checkTimeSteps(params.timeSteps);
    checkInRange(kSofteningRange, params.softeningLength);
    checkInRange(kOpeningAngleRange, params.openingAngle);
    checkInRange(kForceAccuracyRange, params.forceAccuracy);
    checkSolverAndBackend(params);
    checkEnumValue(params.precision);
    checkSofteningForSolver(params);
    checkHierarchicalSteps(params);
    checkOrb(params.orb, params.bodyCount);
}

std::string_view toString(BackendKind backend) {
    return enumName(backend);
}

BackendKind parseBackendKind(std::string_view name) {
    return parseEnumName<BackendKind>(name);
}

std::string_view toString(OpeningCriterion criterion) {
    return enumName(criterion);
}

OpeningCriterion parseOpeningCriterion(std::string_view name) {
    return parseEnumName<OpeningCriterion>(name);
}

std::string_view toString(TimeStepMode mode) {
    return enumName(mode);
}

TimeStepMode parseTimeStepMode(std::string_view name) {
    return parseEnumName<TimeStepMode>(name);
}

std::string_view toString(Precision precision) {
    return enumName(precision);
}

Precision parsePrecision(std::string_view name) {
    return parseEnumName<Precision>(name);
}

std::string_view toString(OrbBalance balance) {
    return enumName(balance);
}

OrbBalance parseOrbBalance(std::string_view name) {
    return parseEnumName<OrbBalance>(name);
}

} // namespace gravlab
