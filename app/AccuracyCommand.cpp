// `gravlab accuracy` (see AccuracyCommand.hpp): option parsing, the measurement loop and the table / JSON output.
#include "AccuracyCommand.hpp"

#include "GlBackendChoice.hpp"
#include "OptionParsing.hpp"
#include "ReportJson.hpp"

#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/sim/AccuracyReport.hpp>
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <ctime>
#include <iomanip>
#include <optional>
#include <ostream>
#include <sstream>

namespace gravlab {
namespace {

/// The comma-separated entries of text; an empty entry is an error naming flag and giving example (for numbers, with
/// what each entry allows).
std::vector<std::string> splitList(const std::string& flag, const std::string& text, const std::string& example) {
    std::vector<std::string> entries;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        entries.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (entries.back().empty())
            throw CLI::ValidationError(flag, "'" + text +
                                                 "' is not allowed: give comma-separated values without "
                                                 "empty entries, e.g. " +
                                                 example);
        if (comma == std::string::npos)
            return entries;
        start = comma + 1;
    }
}

void addListOptions(CLI::App& command, AccuracyOptions& options) {
    command
        .add_option_function<std::string>(
            "--scenarios",
            [&options](const std::string& text) {
                options.scenarios = splitList("--scenarios", text, "plummer,disk-galaxy");
                for (const std::string& name : options.scenarios)
                    rethrowForFlag("scenarios", [&] { checkScenarioName(name); });
            },
            "comma-separated scenario names")
        ->default_str("plummer,disk-galaxy");
    command
        .add_option_function<std::string>(
            "--bodies",
            [&options](const std::string& text) {
                options.bodyCounts.clear();
                for (const std::string& entry :
                     splitList("--bodies", text, "100000,1000000, each " + describeRange(kBodyCountRange)))
                    options.bodyCounts.push_back(
                        std::uint64_t(parseNumberForFlag("bodies", kBodyCountRange, entry, NumberKind::Whole)));
            },
            "comma-separated body counts, each " + describeRange(kBodyCountRange))
        ->default_str("100000,1000000");
    command
        .add_option_function<std::string>(
            "--thetas",
            [&options](const std::string& text) {
                options.openingAngles.clear();
                for (const std::string& entry :
                     splitList("--thetas", text, "0.3,0.5,0.7,1.0, each " + describeRange(kOpeningAngleRange)))
                    options.openingAngles.push_back(
                        parseNumberForFlag("thetas", kOpeningAngleRange, entry, NumberKind::Real));
            },
            "comma-separated opening angles, each " + describeRange(kOpeningAngleRange))
        ->default_str("0.3,0.5,0.7,1.0");
    command.add_option_function<std::string>(
        "--force-accuracies",
        [&options](const std::string& text) {
            options.forceAccuracies.clear();
            for (const std::string& entry :
                 splitList("--force-accuracies", text, "0.001,0.002, each " + describeRange(kForceAccuracyRange)))
                options.forceAccuracies.push_back(
                    parseNumberForFlag("force-accuracies", kForceAccuracyRange, entry, NumberKind::Real));
        },
        "comma-separated alphas of the relative opening criterion, each " + describeRange(kForceAccuracyRange) +
            ": one row per alpha instead of per theta, measured after an evaluation at the first theta");
}

void addValueOptions(CLI::App& command, AccuracyOptions& options) {
    addNumberOption(command, kAccuracySampleRange, NumberKind::Whole, options.sampleCount,
                    "sampled bodies per case (all bodies when N is smaller)");
    addNameOption(command, "backend", options.backend, parseBackendKind,
                  "auto, cuda, cpu or gl (OpenGL compute shaders, direct only)",
                  std::string(toString(options.backend)));
    addNameOption(
        command, "solver", options.solver, [](const std::string& text) { return std::string(findSolver(text).name); },
        "force solver to measure: " + solversHelpText(), options.solver);
    command
        .add_option_function<std::string>(
            "--seed",
            [&options](const std::string& text) {
                options.seed = rethrowForFlag("seed", [&] { return parseSeed(text); });
            },
            "scenario seed, which also picks the sampled bodies")
        ->default_str(std::to_string(options.seed));
    addNumberOption(command, kSofteningRange, NumberKind::Real, options.softeningLength, "Plummer softening length");
    command.add_flag("--json", options.json, "print one JSON object instead of the table");
}

struct AccuracyRow {
    std::string scenario;
    std::uint64_t bodyCount;
    double openingAngle;
    double forceAccuracy; ///< 0 under the geometric criterion
    AccuracyMeasurement measurement;
};

std::string tableLine(const std::string& scenario, const std::string& bodies, const std::string& theta,
                      const std::string& median, const std::string& p99, const std::string& max,
                      const std::string& time) {
    std::ostringstream line;
    line << std::left << std::setw(18) << scenario << std::setw(10) << bodies << std::setw(7) << theta << std::setw(11)
         << median << std::setw(11) << p99 << std::setw(11) << max << time << "\n";
    return line.str();
}

std::string scientific(double value) {
    std::ostringstream text;
    text << std::scientific << std::setprecision(3) << value;
    return text.str();
}

void printTableHeader(const AccuracyOptions& options, const std::string& backend, std::ostream& out) {
    out << "gravlab accuracy: relative acceleration error |a - a_ref| / |a_ref| of solver " << options.solver
        << " against the fp64 direct sum, " << options.sampleCount
        << " sampled bodies per case (all when N is smaller)\n"
        << "backend: " << backend << "; softening " << options.softeningLength << ", G 1, seed " << options.seed << ", "
        << todayUtc() << "\n"
        << tableLine("scenario", "N", options.forceAccuracies.empty() ? "theta" : "alpha", "median", "p99", "max",
                     "solver ms");
}

void printTableRow(const AccuracyRow& row, std::ostream& out) {
    const RelativeErrorStatistics& errors = row.measurement.errors;
    std::ostringstream theta, time;
    theta << (row.forceAccuracy > 0 ? row.forceAccuracy : row.openingAngle);
    time << std::fixed << std::setprecision(1) << row.measurement.solverMilliseconds;
    out << tableLine(row.scenario, std::to_string(row.bodyCount), theta.str(), scientific(errors.median),
                     scientific(errors.percentile99), scientific(errors.max), time.str())
        << std::flush;
}

void printJson(const AccuracyOptions& options, const std::string& backend, const std::vector<AccuracyRow>& rows,
               std::ostream& out) {
    ReportJson report;
    report["backend"] = backend;
    report["date"] = todayUtc();
    report["solver"] = options.solver;
    report["samples"] = options.sampleCount;
    report["softening"] = reportedNumber(options.softeningLength);
    report["G"] = 1;
    report["seed"] = options.seed;
    report["results"] = ReportJson::array();
    for (const AccuracyRow& row : rows) {
        const RelativeErrorStatistics& errors = row.measurement.errors;
        ReportJson result;
        result["scenario"] = row.scenario;
        result["bodies"] = row.bodyCount;
        result["theta"] = reportedNumber(row.openingAngle);
        if (row.forceAccuracy > 0)
            result["forceAccuracy"] = reportedNumber(row.forceAccuracy);
        result["sampled"] = errors.sampleCount;
        result["median"] = reportedNumber(errors.median);
        result["p90"] = reportedNumber(errors.percentile90);
        result["p99"] = reportedNumber(errors.percentile99);
        result["max"] = reportedNumber(errors.max);
        result["solverMs"] = reportedNumber(row.measurement.solverMilliseconds);
        result["referenceMs"] = reportedNumber(row.measurement.referenceMilliseconds);
        report["results"].push_back(std::move(result));
    }
    printReport(report, out);
}

SimParams paramsFor(const AccuracyOptions& options, const std::string& scenario, std::uint64_t bodyCount) {
    SimParams params;
    params.scenario = scenario;
    params.bodyCount = bodyCount;
    params.seed = options.seed;
    params.softeningLength = options.softeningLength;
    params.solver = options.solver;
    params.backend = options.backend;
    return params;
}

/// One row's opening criterion: theta alone, or alpha after an evaluation at theta.
struct AccuracyCase {
    double openingAngle;
    double forceAccuracy;
};

std::vector<AccuracyCase> casesOf(const AccuracyOptions& options) {
    std::vector<AccuracyCase> cases;
    if (options.forceAccuracies.empty())
        for (const double openingAngle : options.openingAngles)
            cases.push_back({openingAngle, 0.0});
    for (const double forceAccuracy : options.forceAccuracies)
        cases.push_back({options.openingAngles.front(), forceAccuracy});
    return cases;
}

void measureAll(const AccuracyOptions& options, std::ostream& out) {
    const SimParams first = paramsFor(options, options.scenarios.front(), options.bodyCounts.front());
    // The GL backend lives in a headless context made before it and destroyed after it.
    std::optional<HeadlessContext> context;
    if (first.backend == BackendKind::Gl)
        context.emplace();
    const std::unique_ptr<SimulationBackend> backend = appBackendFactory()(first);
    const std::string description = backend->description();
    if (!options.json)
        printTableHeader(options, description, out);
    std::vector<AccuracyRow> rows;
    for (const std::string& scenario : options.scenarios)
        for (const std::uint64_t bodyCount : options.bodyCounts) {
            SimParams params = paramsFor(options, scenario, bodyCount);
            validateSimParams(params);
            backend->load(generateScenario(scenario, bodyCount, options.seed));
            AccuracyReference reference(options.sampleCount, options.seed);
            for (const AccuracyCase& accuracyCase : casesOf(options)) {
                params.openingAngle = accuracyCase.openingAngle;
                params.openingCriterion = OpeningCriterion::Geometric;
                if (accuracyCase.forceAccuracy > 0) {
                    Vec3Arrays<float> previous; // the relative criterion reads the accelerations of the last evaluation
                    backend->readAccelerations(params, previous);
                    params.openingCriterion = OpeningCriterion::Relative;
                    params.forceAccuracy = accuracyCase.forceAccuracy;
                }
                rows.push_back({scenario, bodyCount, accuracyCase.openingAngle, accuracyCase.forceAccuracy,
                                measureAccuracy(*backend, params, reference)});
                if (!options.json)
                    printTableRow(rows.back(), out);
            }
        }
    if (options.json)
        printJson(options, description, rows, out);
}

} // namespace

CLI::App* addAccuracyCommand(CLI::App& app, AccuracyOptions& options) {
    CLI::App* command = app.add_subcommand(
        "accuracy", "measure a solver's (the tree's by default) acceleration error against the fp64 direct sum "
                    "(median, 99th percentile, max) for scenarios, body counts and thetas");
    addListOptions(*command, options);
    addValueOptions(*command, options);
    return command;
}

int runAccuracy(const AccuracyOptions& options, std::ostream& out, std::ostream& err) {
    if (options.scenarios.empty() || options.bodyCounts.empty() || options.openingAngles.empty()) {
        err << "gravlab accuracy: nothing to measure: give at least one scenario, body count and theta\n";
        return 1;
    }
    try {
        measureAll(options, out);
        return 0;
    } catch (const std::exception& error) {
        err << "gravlab accuracy: " << error.what() << "\n";
        return 1;
    }
}

} // namespace gravlab
