#pragma once
// The scenario gallery as text (gravlab --list-scenarios, the --help footer) and the parsing of --scenario-param.
//
// Design note: everything printed comes from the registry's gallery entries (Scenarios.hpp), so a new scenario shows
// up here without an edit. Time scales are computed for the parameter values given (defaults otherwise).
#include <gravlab/sim/Scenarios.hpp>

#include <string>

namespace gravlab {

/// One line per scenario (name and one-line description) followed by its parameters with range and default.
std::string scenarioSummaryText();

/// The full gallery: per scenario its overview, what to look for, time scales, suggested settings and parameters.
std::string scenarioGalleryText();

/// Adds "name=value" to params; throws InvalidParameterError (field "scenario-param") for text of another shape or
/// a value that is not a finite number. Names and ranges are checked later, against the chosen scenario.
void parseScenarioParamAssignment(const std::string& text, ScenarioParams& params);

} // namespace gravlab
