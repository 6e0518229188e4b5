// SimParams to and from JSON (see SimParamsJson.hpp).
#include "SimParamsJson.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <array>
#include <limits>
#include <utility>

namespace gravlab {
namespace {

inline constexpr ParamRange kUnitScaleRange{"scale", 0.0, std::numeric_limits<double>::max(), true,
                                            "in cgs; 0 in all three for N-body units"};

/// The key of each field as validateSimParams names it (the command line's spelling), for its cross-field refusals.
constexpr std::array<std::pair<std::string_view, std::string_view>, 20> kKeyOfParameter{{
    {"scenario", "scenario"},
    {"scenario-param", "scenarioParams"},
    {"bodies", "bodyCount"},
    {"G", "gravitationalConstant"},
    {"dt", "timeStep"},
    {"softening", "softeningLength"},
    {"theta", "openingAngle"},
    {"opening", "openingCriterion"},
    {"force-accuracy", "forceAccuracy"},
    {"solver", "solver"},
    {"backend", "backend"},
    {"time-steps", "timeSteps.mode"},
    {"eta", "timeSteps.accuracy"},
    {"max-level", "timeSteps.maxLevel"},
    {"level-choice", "timeSteps.levelChoice"},
    {"precision", "precision"},
    {"orb-domains", "orb.domainCount"},
    {"orb-balance", "orb.balance"},
    {"orb-every", "orb.rebuildInterval"},
    {"orb-imbalance", "orb.imbalanceLimit"},
}};

std::string keyOfParameter(std::string_view field) {
    for (const auto& [parameter, key] : kKeyOfParameter)
        if (parameter == field)
            return std::string(key);
    return std::string(field);
}

Json unitsToJson(const UnitSystem& units) {
    return {{"lengthInCm", units.lengthInCm},
            {"massInGrams", units.massInGrams},
            {"velocityInCmPerSecond", units.velocityInCmPerSecond},
            {"lengthName", units.lengthName},
            {"massName", units.massName},
            {"velocityName", units.velocityName}};
}

UnitSystem readUnits(JsonObjectReader& reader) {
    UnitSystem units = nbodyUnits();
    reader.read("lengthInCm", units.lengthInCm, kUnitScaleRange);
    reader.read("massInGrams", units.massInGrams, kUnitScaleRange);
    reader.read("velocityInCmPerSecond", units.velocityInCmPerSecond, kUnitScaleRange);
    const bool anyScale = units.lengthInCm > 0 || units.massInGrams > 0 || units.velocityInCmPerSecond > 0;
    if (anyScale && !units.physical())
        reader.fail("lengthInCm", "lengthInCm, massInGrams and velocityInCmPerSecond are either all 0 (N-body units) "
                                  "or all positive; found " +
                                      unitsToJson(units).dump());
    if (units.physical()) {
        const UnitSystem named = unitSystemFromCgs(units.lengthInCm, units.massInGrams, units.velocityInCmPerSecond);
        units.lengthName = named.lengthName;
        units.massName = named.massName;
        units.velocityName = named.velocityName;
    }
    reader.read("lengthName", units.lengthName);
    reader.read("massName", units.massName);
    reader.read("velocityName", units.velocityName);
    return units;
}

void readOrb(JsonObjectReader& reader, OrbParams& orb) {
    reader.readWhole("domainCount", orb.domainCount, kOrbDomainRange);
    reader.readName("balance", orb.balance);
    reader.readWhole("rebuildInterval", orb.rebuildInterval, kOrbRebuildIntervalRange);
    reader.read("imbalanceLimit", orb.imbalanceLimit, kOrbImbalanceLimitRange);
}

void readTimeSteps(JsonObjectReader& reader, TimeStepParams& timeSteps) {
    reader.readName("mode", timeSteps.mode);
    reader.read("accuracy", timeSteps.accuracy, kTimeStepAccuracyRange);
    reader.readWhole("maxLevel", timeSteps.maxLevel, kMaxTimeStepLevelRange);
    reader.readName("levelChoice", timeSteps.levelChoice);
}

/// A check of the sim that throws InvalidParameterError, its refusal as a JsonFieldError under key.
template <typename Check> void checkAs(const JsonObjectReader& reader, std::string_view key, Check&& check) {
    try {
        check();
    } catch (const InvalidParameterError& error) {
        reader.fail(key, error.what());
    }
}

/// "scenarioParams": {"toomre-q": 1.2, ...}, checked against the scenario's parameter table.
void readScenarioParams(JsonObjectReader& reader, SimParams& params) {
    const Json* object = reader.find("scenarioParams");
    if (object == nullptr)
        return;
    if (!object->is_object())
        reader.fail("scenarioParams", "an object of parameter names and numbers was expected, found " + object->dump());
    for (const auto& [name, value] : object->items()) {
        if (!value.is_number())
            reader.fail("scenarioParams", "parameter '" + name + "' must be a number, found " + value.dump());
        params.scenarioParams[name] = value.get<double>();
    }
    checkAs(reader, "scenarioParams", [&] { checkScenarioParams(params.scenario, params.scenarioParams); });
}

Json scenarioParamsToJson(const ScenarioParams& values) {
    Json object = Json::object();
    for (const auto& [name, value] : values)
        object[name] = value;
    return object;
}

void readInitialConditions(JsonObjectReader& reader, SimParams& params) {
    reader.read("scenario", params.scenario);
    checkAs(reader, "scenario", [&] { checkScenarioName(params.scenario); });
    reader.readWhole("bodyCount", params.bodyCount, kBodyCountRange);
    reader.readWhole("seed", params.seed);
    reader.read("initialFile", params.initialFile);
    if (const Json* format = reader.find("initialFileFormat"); format != nullptr && !format->is_null())
        params.initialFileFormat = reader.parseName<SnapshotFormat>("initialFileFormat", *format);
    reader.read("recentre", params.recentre);
    reader.readObject("units", [&](JsonObjectReader& units) { params.units = readUnits(units); });
    readScenarioParams(reader, params);
}

void readPhysicsAndSolver(JsonObjectReader& reader, SimParams& params) {
    reader.read("gravitationalConstant", params.gravitationalConstant, kGravitationalConstantRange);
    reader.read("timeStep", params.timeStep, kTimeStepRange);
    reader.readObject("timeSteps", [&](JsonObjectReader& timeSteps) { readTimeSteps(timeSteps, params.timeSteps); });
    reader.read("softeningLength", params.softeningLength, kSofteningRange);
    reader.read("openingAngle", params.openingAngle, kOpeningAngleRange);
    reader.readName("openingCriterion", params.openingCriterion);
    reader.read("forceAccuracy", params.forceAccuracy, kForceAccuracyRange);
    reader.read("solver", params.solver);
    checkAs(reader, "solver", [&] { params.solver = findSolver(params.solver).name; });
    reader.readName("backend", params.backend);
    reader.readName("precision", params.precision);
    reader.readObject("orb", [&](JsonObjectReader& orb) { readOrb(orb, params.orb); });
}

} // namespace

Json simParamsToJson(const SimParams& params) {
    return {{"scenario", params.scenario},
            {"scenarioParams", scenarioParamsToJson(params.scenarioParams)},
            {"bodyCount", params.bodyCount},
            {"seed", params.seed},
            {"initialFile", params.initialFile},
            {"initialFileFormat",
             params.initialFileFormat ? Json(std::string(enumName(*params.initialFileFormat))) : Json()},
            {"recentre", params.recentre},
            {"units", unitsToJson(params.units)},
            {"gravitationalConstant", params.gravitationalConstant},
            {"timeStep", params.timeStep},
            {"timeSteps",
             {{"mode", std::string(enumName(params.timeSteps.mode))},
              {"accuracy", params.timeSteps.accuracy},
              {"maxLevel", params.timeSteps.maxLevel},
              {"levelChoice", std::string(enumName(params.timeSteps.levelChoice))}}},
            {"softeningLength", params.softeningLength},
            {"openingAngle", params.openingAngle},
            {"openingCriterion", std::string(enumName(params.openingCriterion))},
            {"forceAccuracy", params.forceAccuracy},
            {"solver", params.solver},
            {"backend", std::string(enumName(params.backend))},
            {"precision", std::string(enumName(params.precision))},
            {"orb",
             {{"domainCount", params.orb.domainCount},
              {"balance", std::string(enumName(params.orb.balance))},
              {"rebuildInterval", params.orb.rebuildInterval},
              {"imbalanceLimit", params.orb.imbalanceLimit}}}};
}

SimParams simParamsFromJson(const Json& object, const std::string& path) {
    JsonObjectReader reader(object, path);
    SimParams params;
    readInitialConditions(reader, params);
    readPhysicsAndSolver(reader, params);
    reader.finish();
    try {
        validateSimParams(params);
    } catch (const InvalidParameterError& error) {
        throw JsonFieldError(joinKeyPath(path, keyOfParameter(error.field())), error.what());
    }
    return params;
}

} // namespace gravlab
