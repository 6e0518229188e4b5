// The scenario gallery as text and the parsing of --scenario-param (see ScenarioGalleryText.hpp).
#include "ScenarioGalleryText.hpp"

#include "OptionParsing.hpp"

#include <gravlab/sim/SimParams.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace gravlab {
namespace {

std::string parameterLines(const Scenario& scenario, const std::string& indent) {
    std::string text;
    for (const ScenarioParameter& parameter : scenario.parameters)
        text += indent + std::string(parameter.name) + " = " + formatNumber(parameter.defaultValue) + " (" +
                formatNumber(parameter.min) + " to " + formatNumber(parameter.max) +
                "): " + std::string(parameter.meaning) + "\n";
    return text;
}

std::string suggestedLine(const SuggestedSettings& suggested) {
    return "--bodies " + std::to_string(suggested.bodyCount) + " --dt " + formatNumber(suggested.timeStep) +
           " --softening " + formatNumber(suggested.softeningLength) + " --solver " + std::string(suggested.solver) +
           " --steps-per-frame " + std::to_string(suggested.stepsPerFrame);
}

} // namespace

std::string scenarioSummaryText() {
    std::string list;
    for (const Scenario& scenario : scenarios()) {
        std::string name(scenario.name);
        name.resize(std::max<std::size_t>(name.size(), 18), ' ');
        list += "  " + name + std::string(scenario.description) + "\n";
        list += parameterLines(scenario, "      --scenario-param ");
    }
    return list;
}

std::string scenarioGalleryText() {
    std::string text;
    for (const Scenario& scenario : scenarios()) {
        text += std::string(scenario.name) + ": " + std::string(scenario.description) + "\n";
        text += "  " + std::string(scenario.overview) + "\n";
        text += "  What to look for: " + std::string(scenario.whatToLookFor) + "\n";
        text += "  Time scales (N-body time units):\n";
        for (const NamedTime& time : scenarioTimeScales(scenario.name))
            text += "    " + time.name + ": " + formatNumber(std::round(time.value * 1000.0) / 1000.0) + "\n";
        text += "  Suggested: " + suggestedLine(scenario.suggested) + "\n";
        if (scenario.parameters.empty())
            text += "  Parameters: none\n";
        else
            text += "  Parameters (--scenario-param NAME=VALUE):\n" + parameterLines(scenario, "    ");
        text += "\n";
    }
    return text;
}

void parseScenarioParamAssignment(const std::string& text, ScenarioParams& params) {
    const std::size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
        throw InvalidParameterError("scenario-param",
                                    "scenario-param '" + text + "' is not of the form NAME=VALUE, e.g. toomre-q=1.5");
    const std::string valueText = text.substr(equals + 1);
    char* end = nullptr;
    const double value = std::strtod(valueText.c_str(), &end);
    if (valueText.empty() || end != valueText.c_str() + valueText.size() || !std::isfinite(value))
        throw InvalidParameterError("scenario-param",
                                    "scenario-param '" + text + "': '" + valueText + "' is not a finite number");
    params[text.substr(0, equals)] = value;
}

} // namespace gravlab
