// The scenario registry: one table of gallery entries, and the checks of scenario names and parameters.
//
// Design note: the table is the single list the command line, the panel and the tests read; adding a scenario means
// writing one file with its generator and gallery entry (declared in ScenarioGenerators.hpp) and adding one row
// here. The table is built on first use from functions, so it never depends on the order in which files initialise.
#include "scenarios/ScenarioGenerators.hpp"

#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <array>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

const std::array<Scenario, 9>& scenarioTable() {
    static const std::array<Scenario, 9> table{
        scenario::galaxyCollisionScenario(), scenario::diskGalaxyScenario(),   scenario::ringGalaxyScenario(),
        scenario::satelliteStreamScenario(), scenario::plummerScenario(),      scenario::coldSphereScenario(),
        scenario::coldCubeScenario(),        scenario::keplerBinaryScenario(), scenario::planetarySystemScenario(),
    };
    return table;
}

template <typename Range, typename Name> std::string quotedList(const Range& entries, Name name) {
    std::string list;
    std::size_t index = 0;
    for (const auto& entry : entries) {
        if (index > 0)
            list += index + 1 == std::size(entries) ? " or " : ", ";
        list.append("'").append(name(entry)).append("'");
        ++index;
    }
    return list;
}

std::string formatNumber(double value) {
    std::ostringstream text;
    text.precision(10);
    text << value;
    return text.str();
}

const ScenarioParameter& findParameter(const Scenario& entry, std::string_view name) {
    for (const ScenarioParameter& parameter : entry.parameters)
        if (parameter.name == name)
            return parameter;
    std::string message = "scenario parameter '";
    message.append(name).append("' is not one of scenario '").append(entry.name).append("': ");
    if (entry.parameters.empty())
        message += "it has no parameters";
    else
        message += "allowed " + quotedList(entry.parameters, [](const ScenarioParameter& p) { return p.name; });
    throw InvalidParameterError("scenario-param", message);
}

} // namespace

std::span<const Scenario> scenarios() {
    return scenarioTable();
}

const Scenario* findScenario(std::string_view name) {
    for (const Scenario& entry : scenarioTable())
        if (entry.name == name)
            return &entry;
    return nullptr;
}

void checkScenarioName(std::string_view name) {
    if (findScenario(name) != nullptr)
        return;
    std::string message = "scenario = '";
    message.append(name).append("' is not known: allowed ");
    message += quotedList(scenarioTable(), [](const Scenario& s) { return s.name; });
    throw InvalidParameterError("scenario", message);
}

void checkScenarioParams(std::string_view scenarioName, const ScenarioParams& chosen) {
    checkScenarioName(scenarioName);
    const Scenario& entry = *findScenario(scenarioName);
    for (const auto& [name, value] : chosen) {
        const ScenarioParameter& parameter = findParameter(entry, name);
        if (value >= parameter.min && value <= parameter.max)
            continue; // NaN fails both comparisons and falls through
        throw InvalidParameterError("scenario-param", "scenario '" + std::string(entry.name) + "' parameter " + name +
                                                          " = " + formatNumber(value) + " is out of range: allowed " +
                                                          formatNumber(parameter.min) + " <= " + name +
                                                          " <= " + formatNumber(parameter.max) + " (" +
                                                          std::string(parameter.meaning) + ")");
    }
}

ScenarioParams completeScenarioParams(std::string_view scenarioName, const ScenarioParams& chosen) {
    checkScenarioParams(scenarioName, chosen);
    ScenarioParams values = chosen;
    for (const ScenarioParameter& parameter : findScenario(scenarioName)->parameters)
        values.try_emplace(std::string(parameter.name), parameter.defaultValue);
    return values;
}

std::vector<NamedTime> scenarioTimeScales(std::string_view scenarioName, const ScenarioParams& chosen) {
    const ScenarioParams values = completeScenarioParams(scenarioName, chosen);
    return findScenario(scenarioName)->timeScales(values);
}

Bodies generateScenario(std::string_view name, std::size_t bodyCount, std::uint64_t seed,
                        const ScenarioParams& chosen) {
    const ScenarioParams values = completeScenarioParams(name, chosen);
    Bodies bodies;
    try {
        findScenario(name)->generate(bodies, bodyCount, seed, values);
        bodies.numberSequentially();
    } catch (const std::bad_alloc&) {
        constexpr double kBytesPerBody = Bodies::kBytesPerBody;
        throw std::runtime_error(
            "not enough host memory for " + std::to_string(bodyCount) + " bodies of scenario '" + std::string(name) +
            "' (" + std::to_string(int(double(bodyCount) * kBytesPerBody / (1 << 20))) + " MiB): choose fewer bodies");
    }
    return bodies;
}

} // namespace gravlab

namespace gravlab::scenario {

double parameterValue(const ScenarioParams& values, std::string_view name) {
    const auto found = values.find(name);
    if (found == values.end())
        throw std::logic_error("scenario parameter '" + std::string(name) + "' was not completed with its default");
    return found->second;
}

} // namespace gravlab::scenario
