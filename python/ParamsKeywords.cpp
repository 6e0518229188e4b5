// Simulation parameters as Python keyword arguments (see ParamsKeywords.hpp).
#include "ParamsKeywords.hpp"

#include <gravlab/sim/EnumNames.hpp>
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <array>
#include <filesystem>
#include <limits>
#include <pybind11/stl/filesystem.h>
#include <sstream>

namespace gravlab::python {
namespace {

std::string typeName(py::handle value) {
    return py::str(py::type::handle_of(value).attr("__name__"));
}

/// value as an exact non-negative integer: a Python int or anything with __index__ (numpy integers), not a float or
/// a bool. With a range, the library's range check speaks first (it words bodies = 0 or orb_domains = -1 as the
/// command line does); without one any uint64 is allowed.
std::uint64_t integerValue(py::handle value, std::string_view name, const ParamRange* range) {
    if (PyBool_Check(value.ptr()) || PyFloat_Check(value.ptr()))
        throw py::type_error(std::string(name) + " must be an integer, got " + typeName(value));
    PyObject* index = PyNumber_Index(value.ptr());
    if (index == nullptr) {
        PyErr_Clear();
        throw py::type_error(std::string(name) + " must be an integer, got " + typeName(value));
    }
    const auto number = py::reinterpret_steal<py::int_>(index);
    if (range != nullptr) {
        double approximate = PyLong_AsDouble(number.ptr());
        if (approximate == -1.0 && PyErr_Occurred()) { // beyond a double: report it as infinite
            PyErr_Clear();
            approximate = number < py::int_(0) ? -std::numeric_limits<double>::infinity()
                                               : std::numeric_limits<double>::infinity();
        }
        checkInRange(*range, approximate);
    }
    const unsigned long long exact = PyLong_AsUnsignedLongLong(number.ptr());
    if (exact == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        throw InvalidParameterError(std::string(name),
                                    std::string(name) + " = " + py::repr(number).cast<std::string>() +
                                        " is out of range: allowed 0 <= " + std::string(name) + " < 2^64");
    }
    return exact;
}

double floatValue(py::handle value, std::string_view name) {
    if (PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr()))
        throw py::type_error(std::string(name) + " must be a number, got " + typeName(value));
    const double number = PyFloat_AsDouble(value.ptr());
    if (number == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        throw py::type_error(std::string(name) + " must be a number, got " + typeName(value));
    }
    return number;
}

std::string textValue(py::handle value, std::string_view name) {
    if (!PyUnicode_Check(value.ptr()))
        throw py::type_error(std::string(name) + " must be a str, got " + typeName(value));
    return value.cast<std::string>();
}

/// A dict of parameter names (str) and numbers; names and ranges are checked with the scenario (validateSimParams).
ScenarioParams scenarioParamsValue(py::handle value) {
    if (!PyDict_Check(value.ptr()))
        throw py::type_error("scenario_params must be a dict of parameter names and numbers, got " + typeName(value));
    ScenarioParams params;
    for (const auto& [key, number] : py::reinterpret_borrow<py::dict>(value))
        params[textValue(key, "a scenario_params name")] =
            floatValue(number, "scenario_params['" + py::str(key).cast<std::string>() + "']");
    return params;
}

/// "time step in N-body time units, 0 < dt <= 1", with the keyword's spelling (orb_domains, not orb-domains).
std::string describeRange(const ParamRange& range, std::string_view keyword) {
    std::ostringstream text;
    text.precision(10);
    text << range.meaning << ", " << range.min << (range.minInclusive ? " <= " : " < ") << keyword
         << " <= " << range.max;
    return text.str();
}

/// One keyword: what it sets, how its value is read, how the help describes it.
struct Keyword {
    std::string_view name;
    KeywordScope scope; ///< Stepping: taken by every call; All: only by set()
    std::string_view kind;
    const ParamRange* range; ///< the library's range, described in the help; nullptr: help says what it is
    std::string_view help;
    void (*apply)(SimParams& params, py::handle value);
    py::object (*read)(const SimParams& params);
};

const std::array kKeywords{
    Keyword{"dt",
            KeywordScope::Stepping,
            "float",
            &kTimeStepRange,
            {},
            [](SimParams& p, py::handle v) { p.timeStep = floatValue(v, "dt"); },
            [](const SimParams& p) -> py::object { return py::float_(p.timeStep); }},
    Keyword{"softening",
            KeywordScope::Stepping,
            "float",
            &kSofteningRange,
            {},
            [](SimParams& p, py::handle v) { p.softeningLength = floatValue(v, "softening"); },
            [](const SimParams& p) -> py::object { return py::float_(p.softeningLength); }},
    Keyword{"G",
            KeywordScope::Stepping,
            "float",
            &kGravitationalConstantRange,
            {},
            [](SimParams& p, py::handle v) { p.gravitationalConstant = floatValue(v, "G"); },
            [](const SimParams& p) -> py::object { return py::float_(p.gravitationalConstant); }},
    Keyword{"theta",
            KeywordScope::Stepping,
            "float",
            &kOpeningAngleRange,
            {},
            [](SimParams& p, py::handle v) { p.openingAngle = floatValue(v, "theta"); },
            [](const SimParams& p) -> py::object { return py::float_(p.openingAngle); }},
    Keyword{"opening", KeywordScope::Stepping, "str", nullptr,
            "the tree's opening criterion: 'geometric' (theta) or 'relative' (force_accuracy)",
            [](SimParams& p, py::handle v) { p.openingCriterion = parseOpeningCriterion(textValue(v, "opening")); },
            [](const SimParams& p) -> py::object { return py::str(std::string(toString(p.openingCriterion))); }},
    Keyword{"force_accuracy",
            KeywordScope::Stepping,
            "float",
            &kForceAccuracyRange,
            {},
            [](SimParams& p, py::handle v) { p.forceAccuracy = floatValue(v, "force_accuracy"); },
            [](const SimParams& p) -> py::object { return py::float_(p.forceAccuracy); }},
    Keyword{"solver", KeywordScope::Stepping, "str or None", nullptr,
            "force solver, one of gravlab.solvers(); None: tree on a GPU, direct on the CPU",
            [](SimParams& p, py::handle v) { p.solver = v.is_none() ? std::string() : textValue(v, "solver"); },
            [](const SimParams& p) -> py::object { return py::str(p.solver); }},
    Keyword{"backend", KeywordScope::Stepping, "str", nullptr,
            "'auto' (CUDA when a GPU is present, else the CPU), 'cuda' or 'cpu'",
            [](SimParams& p, py::handle v) { p.backend = parseBackendKind(textValue(v, "backend")); },
            [](const SimParams& p) -> py::object { return py::str(std::string(toString(p.backend))); }},
    Keyword{"precision", KeywordScope::Stepping, "str", nullptr,
            "'single' (float state) or 'double' (fp64 state and kicks; fp64 forces with solver 'direct-fp64')",
            [](SimParams& p, py::handle v) { p.precision = parsePrecision(textValue(v, "precision")); },
            [](const SimParams& p) -> py::object { return py::str(std::string(toString(p.precision))); }},
    Keyword{"orb_domains",
            KeywordScope::Stepping,
            "int",
            &kOrbDomainRange,
            {},
            [](SimParams& p, py::handle v) {
                p.orb.domainCount = std::uint32_t(integerValue(v, "orb_domains", &kOrbDomainRange));
            },
            [](const SimParams& p) -> py::object { return py::int_(p.orb.domainCount); }},
    Keyword{"orb_balance", KeywordScope::Stepping, "str", nullptr,
            "what ORB balances: 'count' (bodies) or 'work' (force work)",
            [](SimParams& p, py::handle v) { p.orb.balance = parseOrbBalance(textValue(v, "orb_balance")); },
            [](const SimParams& p) -> py::object { return py::str(std::string(toString(p.orb.balance))); }},
    Keyword{"orb_every",
            KeywordScope::Stepping,
            "int",
            &kOrbRebuildIntervalRange,
            {},
            [](SimParams& p, py::handle v) {
                p.orb.rebuildInterval = std::uint32_t(integerValue(v, "orb_every", &kOrbRebuildIntervalRange));
            },
            [](const SimParams& p) -> py::object { return py::int_(p.orb.rebuildInterval); }},
    Keyword{"orb_imbalance",
            KeywordScope::Stepping,
            "float",
            &kOrbImbalanceLimitRange,
            {},
            [](SimParams& p, py::handle v) { p.orb.imbalanceLimit = floatValue(v, "orb_imbalance"); },
            [](const SimParams& p) -> py::object { return py::float_(p.orb.imbalanceLimit); }},
    Keyword{"time_steps", KeywordScope::Stepping, "str", nullptr,
            "'fixed' (one step for every body) or 'hierarchical' (power-of-two steps per body, dt the largest)",
            [](SimParams& p, py::handle v) { p.timeSteps.mode = parseTimeStepMode(textValue(v, "time_steps")); },
            [](const SimParams& p) -> py::object { return py::str(std::string(toString(p.timeSteps.mode))); }},
    Keyword{"eta",
            KeywordScope::Stepping,
            "float",
            &kTimeStepAccuracyRange,
            {},
            [](SimParams& p, py::handle v) { p.timeSteps.accuracy = floatValue(v, "eta"); },
            [](const SimParams& p) -> py::object { return py::float_(p.timeSteps.accuracy); }},
    Keyword{"max_level",
            KeywordScope::Stepping,
            "int",
            &kMaxTimeStepLevelRange,
            {},
            [](SimParams& p, py::handle v) {
                p.timeSteps.maxLevel = std::uint32_t(integerValue(v, "max_level", &kMaxTimeStepLevelRange));
            },
            [](const SimParams& p) -> py::object { return py::int_(p.timeSteps.maxLevel); }},
    Keyword{"level_choice", KeywordScope::Stepping, "str", nullptr,
            "'start' (a body's level from its acceleration at each step's start), 'symmetric' (averaged over each "
            "step's two ends: less energy drift for the same cost) or 'tidal' (eta times the body's dynamical time, "
            "from how its acceleration changed over its last step)",
            [](SimParams& p, py::handle v) {
                p.timeSteps.levelChoice = parseEnumName<LevelChoice>(textValue(v, "level_choice"));
            },
            [](const SimParams& p) -> py::object { return py::str(std::string(enumName(p.timeSteps.levelChoice))); }},
    Keyword{"scenario", KeywordScope::All, "str", nullptr, "scenario name, one of gravlab.scenarios()",
            [](SimParams& p, py::handle v) { p.scenario = textValue(v, "scenario"); },
            [](const SimParams& p) -> py::object { return py::str(p.scenario); }},
    Keyword{"scenario_params", KeywordScope::All, "dict[str, float]", nullptr,
            "the scenario's own parameters by name, e.g. {'toomre-q': 1.2}; see gravlab --list-scenarios",
            [](SimParams& p, py::handle v) { p.scenarioParams = scenarioParamsValue(v); },
            [](const SimParams& p) -> py::object {
                py::dict values;
                for (const auto& [name, value] : p.scenarioParams)
                    values[py::str(name)] = py::float_(value);
                return values;
            }},
    Keyword{"bodies",
            KeywordScope::All,
            "int",
            &kBodyCountRange,
            {},
            [](SimParams& p, py::handle v) { p.bodyCount = integerValue(v, "bodies", &kBodyCountRange); },
            [](const SimParams& p) -> py::object { return py::int_(p.bodyCount); }},
    Keyword{"seed", KeywordScope::All, "int", nullptr, "seed of the scenario's sampling, 0 <= seed < 2^64",
            [](SimParams& p, py::handle v) { p.seed = integerValue(v, "seed", nullptr); },
            [](const SimParams& p) -> py::object { return py::int_(p.seed); }},
    Keyword{"file", KeywordScope::All, "str, os.PathLike or None", nullptr,
            "snapshot file of the initial bodies; None: the scenario's",
            [](SimParams& p, py::handle v) {
                p.initialFile = v.is_none() ? std::string() : v.cast<std::filesystem::path>().string();
            },
            [](const SimParams& p) -> py::object {
                return p.initialFile.empty() ? py::object(py::none()) : py::object(py::str(p.initialFile));
            }},
    Keyword{"format", KeywordScope::All, "str or None", nullptr,
            "the file's format, one of gravlab.snapshot_formats(); None: detected from its first bytes",
            [](SimParams& p, py::handle v) { p.initialFileFormat = formatArgument(v); },
            [](const SimParams& p) -> py::object {
                return p.initialFileFormat ? py::object(py::str(std::string(enumName(*p.initialFileFormat))))
                                           : py::object(py::none());
            }},
    Keyword{"recentre", KeywordScope::All, "bool", nullptr, "move the file's bodies to their centre-of-mass frame",
            [](SimParams& p, py::handle v) { p.recentre = v.cast<bool>(); },
            [](const SimParams& p) -> py::object { return py::bool_(p.recentre); }},
};

bool inScope(const Keyword& keyword, KeywordScope scope) {
    return scope == KeywordScope::All || keyword.scope == KeywordScope::Stepping;
}

std::string keywordNames(KeywordScope scope) {
    std::string names;
    for (const Keyword& keyword : kKeywords)
        if (inScope(keyword, scope))
            names.append(names.empty() ? "" : ", ").append(keyword.name);
    return names;
}

const Keyword* findKeyword(std::string_view name) {
    for (const Keyword& keyword : kKeywords)
        if (keyword.name == name)
            return &keyword;
    return nullptr;
}

} // namespace

SimParams applyKeywords(SimParams params, const py::dict& keywords, KeywordScope scope, const char* caller) {
    for (const auto& [key, value] : keywords) {
        const std::string name = py::str(key);
        const Keyword* keyword = findKeyword(name);
        if (keyword == nullptr || !inScope(*keyword, scope))
            throw py::type_error(std::string(caller) + "() got an unexpected keyword argument '" + name +
                                 "': it takes " + keywordNames(scope));
        keyword->apply(params, value);
    }
    return params;
}

SimParams withDefaultSolver(SimParams params) {
    if (params.solver.empty())
        params.solver = cudaBackendWouldBeChosen(params) ? kDefaultGpuSolver : kDefaultSolver;
    return params;
}

py::dict paramsDict(const SimParams& params) {
    py::dict values;
    for (const Keyword& keyword : kKeywords)
        values[py::str(std::string(keyword.name))] = keyword.read(params);
    return values;
}

std::string keywordsHelp(KeywordScope group) {
    std::string help;
    for (const Keyword& keyword : kKeywords)
        if (keyword.scope == group)
            help.append("    ")
                .append(keyword.name)
                .append(" (")
                .append(keyword.kind)
                .append("): ")
                .append(keyword.range ? describeRange(*keyword.range, keyword.name) : std::string(keyword.help))
                .append("\n");
    return help;
}

std::optional<SnapshotFormat> formatArgument(py::handle format) {
    if (format.is_none())
        return std::nullopt;
    return parseEnumName<SnapshotFormat>(textValue(format, "format"));
}

} // namespace gravlab::python
