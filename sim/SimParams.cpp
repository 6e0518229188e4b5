// Validation of SimParams and the names of the backend kinds and ORB balances.
//
// Design note: every check produces one sentence of the form
//   "dt = -1 is out of range: allowed 0 < dt <= 1 (time step in N-body time units)"
// naming the field as the command line spells it, the offending value and what is allowed, so the CLI, the panel and
// file loaders can show what() to the user unchanged. Values print with up to 10 significant digits, so integers such
// as body counts print exactly.
#include "SimParams.hpp"

#include "Scenarios.hpp"

#include <array>
#include <cmath>
#include <sstream>

namespace gravlab {
namespace {

struct BackendName {
    BackendKind kind;
    std::string_view name;
};
constexpr std::array kBackendNames{BackendName{BackendKind::Auto, "auto"}, BackendName{BackendKind::Cuda, "cuda"},
                                   BackendName{BackendKind::Cpu, "cpu"}};

struct OrbBalanceName {
    OrbBalance kind;
    std::string_view name;
};
constexpr std::array kOrbBalanceNames{OrbBalanceName{OrbBalance::Count, "count"},
                                      OrbBalanceName{OrbBalance::Work, "work"}};

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

/// "a, b or c", each name quoted.
template <typename Names> std::string listNames(const Names& names) {
    std::string list;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i > 0)
            list += i + 1 == names.size() ? " or " : ", ";
        list.append("'").append(names[i].name).append("'");
    }
    return list;
}

[[noreturn]] void throwUnknownName(std::string_view field, std::string_view value, const std::string& allowed) {
    throw InvalidParameterError(std::string(field), std::string(field) + " = '" + std::string(value) +
                                                        "' is not known: allowed " + allowed);
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
    const bool backendKnown = params.backend == BackendKind::Auto || params.backend == BackendKind::Cuda ||
                              params.backend == BackendKind::Cpu;
    if (!backendKnown)
        throwUnknownName("backend", std::to_string(int(params.backend)), listNames(kBackendNames));
    // With backend auto the device is known only once the backend is chosen (Simulation checks it there).
    if (params.backend == BackendKind::Cpu)
        requireSolverRunsOn(solver, Device::Cpu, "backend 'cpu' was chosen");
    else if (params.backend == BackendKind::Cuda)
        requireSolverRunsOn(solver, Device::Cuda, "backend 'cuda' was chosen");
}

void checkOrb(const OrbParams& orb, std::uint64_t bodyCount) {
    checkInRange(kOrbDomainRange, orb.domainCount);
    if (orb.domainCount > bodyCount)
        throw InvalidParameterError(std::string(kOrbDomainRange.name),
                                    "orb-domains = " + std::to_string(orb.domainCount) + " is more than the " +
                                        std::to_string(bodyCount) + " bodies: every domain needs a body");
    if (orb.balance != OrbBalance::Count && orb.balance != OrbBalance::Work)
        throwUnknownName("orb-balance", std::to_string(int(orb.balance)), listNames(kOrbBalanceNames));
    checkInRange(kOrbRebuildIntervalRange, orb.rebuildInterval);
    checkInRange(kOrbImbalanceLimitRange, orb.imbalanceLimit);
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
    checkScenarioName(params.scenario);
    checkBodyCount(params.bodyCount);
    checkInRange(kGravitationalConstantRange, params.gravitationalConstant);
    checkInRange(kTimeStepRange, params.timeStep);
    checkInRange(kSofteningRange, params.softeningLength);
    checkInRange(kOpeningAngleRange, params.openingAngle);
    checkSolverAndBackend(params);
    checkOrb(params.orb, params.bodyCount);
}

std::string_view toString(BackendKind backend) {
    for (const BackendName& entry : kBackendNames)
        if (entry.kind == backend)
            return entry.name;
    return "unknown";
}

BackendKind parseBackendKind(std::string_view name) {
    for (const BackendName& entry : kBackendNames)
        if (entry.name == name)
            return entry.kind;
    throwUnknownName("backend", name, listNames(kBackendNames));
}

std::string_view toString(OrbBalance balance) {
    for (const OrbBalanceName& entry : kOrbBalanceNames)
        if (entry.kind == balance)
            return entry.name;
    return "unknown";
}

OrbBalance parseOrbBalance(std::string_view name) {
    for (const OrbBalanceName& entry : kOrbBalanceNames)
        if (entry.name == name)
            return entry.kind;
    throwUnknownName("orb-balance", name, listNames(kOrbBalanceNames));
}

} // namespace gravlab
