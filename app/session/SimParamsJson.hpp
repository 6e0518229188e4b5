#pragma once
// SimParams as a JSON object, written and read back field for field: the "params" of a session file.
//
// Design note: keys are the struct's field names (so a message's key path, "params.orb.domainCount", points at the
// field), enum values and solvers are their command-line names, units are the UnitSystem's six fields:
//   {"scenario": "plummer", "scenarioParams": {"virial-ratio": 0.5}, "bodyCount": 8192, "seed": 42,
//    "initialFile": "", "initialFileFormat": null, "recentre": false, "units": {"lengthInCm": 0, ...},
//    "gravitationalConstant": 1, "timeStep": 0.01,
//    "timeSteps": {"mode": "fixed", "accuracy": 0.2, "maxLevel": 8}, "softeningLength": 0.05, "openingAngle": 0.5,
//    "solver": "direct", "backend": "auto", "orb": {"domainCount": 0, "balance": "count", "rebuildInterval": 16,
//    "imbalanceLimit": 1.25}}
// Reading starts from SimParams' defaults, so any key may be left out. Each value is checked as it is read against
// the same ParamRange, EnumNames table, scenario (with its parameter table) and solver registries the command line
// uses, then validateSimParams() checks what no single field can (domains against bodies, a solver against the
// backend); every refusal is a JsonFieldError naming the key path. Units: the three scales are all 0 (N-body units)
// or all positive; names left out follow from the scales as for a file's units (unitSystemFromCgs). It lives in the
// GL-free session library, which links gravlab_sim alone, so other front ends (a Python module) can reuse it without
// the window.
#include "JsonReader.hpp"

#include <gravlab/sim/SimParams.hpp>

#include <string>

namespace gravlab {

/// Every field of params; initialFileFormat is null when the format is detected from the file.
Json simParamsToJson(const SimParams& params);

/// The parameters in object (a JSON object whose key path is path, e.g. "params"), the defaults where a key is
/// absent, checked as validateSimParams() checks them. Throws JsonFieldError for the first key that is unknown, of
/// the wrong type, out of range, or an unknown name.
SimParams simParamsFromJson(const Json& object, const std::string& path);

} // namespace gravlab
