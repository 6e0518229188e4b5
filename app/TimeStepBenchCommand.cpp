// `gravlab timesteps-bench` (see TimeStepBenchCommand.hpp for what it measures).
#include "TimeStepBenchCommand.hpp"

#include "OptionParsing.hpp"
#include "ReportJson.hpp"

#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/Simulation.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <limits>
#include <numbers>
#include <ostream>

namespace gravlab {
namespace {

/// One scenario's physics and the two families of runs measured on it.
struct TimeStepCase {
    std::string scenario;
    ScenarioParams scenarioParams;
    std::uint64_t bodyCount; ///< 0: the options' body count
    double softeningLength;
    double duration;
    std::uint32_t maxLevel; ///< hierarchical runs
    std::vector<double> fixedSteps;
    std::vector<HierarchicalRun> hierarchicalRuns;
};

/// One hierarchical run per eta at one base step.
std::vector<HierarchicalRun> etaSweep(double baseStep, std::initializer_list<double> accuracies) {
    std::vector<HierarchicalRun> runs;
    for (const double accuracy : accuracies)
        runs.push_back({baseStep, accuracy});
    return runs;
}

/// The cases, by scenario. The binary: e = 0.9 and a period of 2 pi, so the periapsis passage (r = 0.1) is 1/300 of an
/// orbit; the fixed dts span 128 to 8192 steps per orbit. The cold sphere: softening 0.002, through the bounce at
/// t_ff = 1.11. The galaxy collision: through the first passage, with the cores resolved (softening 0.002), where
/// the bulges' steps must be far shorter than the disks'; at softening 0.01 (--softening) the fixed steps already
/// resolve every time scale there and neither family wins.
TimeStepCase caseOf(const std::string& scenario) {
    constexpr double kPeriod = 2 * std::numbers::pi;
    if (scenario == "kepler-binary")
        return {scenario,
                {{"eccentricity", 0.9}, {"period", kPeriod}},
                2,
                1e-3,
                2 * kPeriod,
                10,
                {kPeriod / 128, kPeriod / 512, kPeriod / 2048, kPeriod / 8192},
                etaSweep(kPeriod / 128, {0.4, 0.2, 0.1, 0.05})};
    if (scenario == "cold-sphere")
        return {
            scenario, {}, 0, 0.002, 1.6, 8, {0.01, 0.005, 0.0025, 0.00125}, etaSweep(0.04, {0.6, 0.3, 0.15, 0.075})};
    return {scenario, {}, 0, 0.002, 2.0, 8, {0.02, 0.01, 0.005, 0.0025}, etaSweep(0.04, {0.6, 0.3, 0.15, 0.075})};
}

struct TimeStepRun {
    std::string scenario;
    std::uint64_t bodyCount = 0;
    TimeStepParams timeSteps;
    double timeStep = 0;
    double softeningLength = 0;
    std::uint64_t steps = 0;
    double forceEvaluations = 0;
    double wastedForceEvaluations = 0;
    double subSteps = 0; ///< drifts taken: one per step when fixed; each costs a launch sequence on the GPU
    double wallSeconds = 0;
    double largestEnergyError = 0; ///< infinite when the run blew up
    double finalEnergyError = 0;
};

void measureRun(SimulationBackend& backend, const Bodies& bodies, const SimParams& params, double duration,
                std::uint32_t samples, TimeStepRun& run) {
    backend.load(bodies);
    const double initial = backend.diagnostics(params).totalEnergy();
    run.steps = std::uint64_t(std::max(1L, std::lround(duration / params.timeStep)));
    const std::uint64_t perSample = std::max<std::uint64_t>(1, run.steps / samples);
    for (std::uint64_t done = 0; done < run.steps;) {
        const std::uint64_t count = std::min(perSample, run.steps - done);
        const auto start = std::chrono::steady_clock::now();
        try {
            backend.step(params, int(count));
        } catch (const NonFiniteStateError&) {
            run.largestEnergyError = run.finalEnergyError = std::numeric_limits<double>::infinity();
            return;
        }
        // The statistics wait for the device, so the wall time covers the steps' work.
        const TimeStepStatistics statistics = backend.timeStepStatistics();
        run.wallSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        run.forceEvaluations += statistics.forceEvaluationsPerStep * double(count);
        run.wastedForceEvaluations += statistics.wastedForceEvaluationsPerStep * double(count);
        run.subSteps += statistics.subStepsPerStep * double(count);
        done += count;
        run.finalEnergyError = std::abs(backend.diagnostics(params).totalEnergy() - initial) / std::abs(initial);
        run.largestEnergyError = std::max(run.largestEnergyError, run.finalEnergyError);
    }
}

void printRow(const TimeStepRun& run, std::ostream& out) {
    const bool hierarchical = run.timeSteps.mode == TimeStepMode::Hierarchical;
    out << std::left << std::setw(18) << run.scenario << std::right << std::setw(7) << run.bodyCount << std::setw(14)
        << (hierarchical && run.timeSteps.levelChoice != LevelChoice::Start ? enumName(run.timeSteps.levelChoice)
                                                                            : toString(run.timeSteps.mode))
        << std::setw(11) << std::setprecision(4) << run.timeStep << std::setw(7);
    if (hierarchical)
        out << run.timeSteps.accuracy;
    else
        out << "-";
    out << std::setw(8) << run.steps << std::setw(10) << std::setprecision(4) << run.subSteps << std::setw(13)
        << run.forceEvaluations << std::setw(10) << std::setprecision(3) << run.wallSeconds << std::setw(12)
        << run.largestEnergyError << std::setw(12) << run.finalEnergyError << "\n"
        << std::flush;
}

ReportJson runJson(const TimeStepRun& run) {
    ReportJson result;
    result["scenario"] = run.scenario;
    result["bodies"] = run.bodyCount;
    result["timeSteps"] = std::string(toString(run.timeSteps.mode));
    result["dt"] = reportedNumber(run.timeStep);
    result["softening"] = reportedNumber(run.softeningLength);
    if (run.timeSteps.mode == TimeStepMode::Hierarchical) {
        result["eta"] = reportedNumber(run.timeSteps.accuracy);
        result["maxLevel"] = run.timeSteps.maxLevel;
        result["levelChoice"] = std::string(enumName(run.timeSteps.levelChoice));
    }
    result["steps"] = run.steps;
    result["forceEvaluations"] = reportedNumber(run.forceEvaluations);
    result["wastedForceEvaluations"] = reportedNumber(run.wastedForceEvaluations);
    result["subSteps"] = reportedNumber(run.subSteps);
    result["wallSeconds"] = reportedNumber(run.wallSeconds);
    result["largestEnergyError"] = reportedNumber(run.largestEnergyError);
    result["finalEnergyError"] = reportedNumber(run.finalEnergyError);
    return result;
}

/// Every run of one case, appended to runs (and printed unless JSON).
void measureCase(const TimeStepBenchOptions& options, const TimeStepCase& timeStepCase, std::vector<TimeStepRun>& runs,
                 std::ostream& out) {
    SimParams params;
    params.scenario = timeStepCase.scenario;
    params.scenarioParams = timeStepCase.scenarioParams;
    params.bodyCount = timeStepCase.bodyCount > 0 ? timeStepCase.bodyCount : options.bodyCount;
    params.seed = options.seed;
    params.softeningLength = options.softeningLength > 0 ? options.softeningLength : timeStepCase.softeningLength;
    params.solver = options.solver;
    params.backend = options.backend;
    validateSimParams(params);
    const Bodies bodies = generateScenario(params.scenario, params.bodyCount, params.seed, params.scenarioParams);
    const std::unique_ptr<SimulationBackend> backend = createBackend(params);
    const double duration = timeStepCase.duration * options.durationScale;
    std::vector<SimParams> variants;
    for (const double fixedStep : options.fixedSteps.empty() ? timeStepCase.fixedSteps : options.fixedSteps) {
        params.timeStep = fixedStep;
        params.timeSteps = {};
        variants.push_back(params);
    }
    const std::vector<HierarchicalRun>& hierarchicalRuns =
        options.hierarchicalRuns.empty() ? timeStepCase.hierarchicalRuns : options.hierarchicalRuns;
    for (const LevelChoice choice : options.levelChoices)
        for (const auto& [baseStep, accuracy] : hierarchicalRuns) {
            params.timeStep = baseStep;
            params.timeSteps = {TimeStepMode::Hierarchical, accuracy, timeStepCase.maxLevel, choice};
            variants.push_back(params);
        }
    for (const SimParams& variant : variants) {
        validateSimParams(variant);
        TimeStepRun run{variant.scenario, variant.bodyCount, variant.timeSteps, variant.timeStep,
                        variant.softeningLength};
        measureRun(*backend, bodies, variant, duration, options.energySamples, run);
        runs.push_back(run);
        if (!options.json)
            printRow(run, out);
    }
}

void measureAll(const TimeStepBenchOptions& options, std::ostream& out) {
    std::vector<TimeStepRun> runs;
    SimParams probe;
    probe.solver = options.solver;
    probe.backend = options.backend;
    const std::string device = createBackend(probe)->description();
    if (!options.json)
        out << "time steps: " << device << ", solver " << options.solver << ", " << todayUtc() << "\n"
            << "scenario                N          mode         dt    eta   steps sub-steps  force evals    wall s  "
               "max|dE/E|  end|dE/E|\n";
    for (const std::string& scenario : options.scenarios)
        measureCase(options, caseOf(scenario), runs, out);
    if (!options.json)
        return;
    ReportJson report;
    report["command"] = "timesteps-bench";
    report["device"] = device;
    report["solver"] = options.solver;
    report["date"] = todayUtc();
    report["durationScale"] = reportedNumber(options.durationScale);
    report["runs"] = ReportJson::array();
    for (const TimeStepRun& run : runs)
        report["runs"].push_back(runJson(run));
    printReport(report, out);
}

/// "0.01:0.3" as a base step and eta, each checked against its range.
HierarchicalRun parseHierarchicalRun(const std::string& text) {
    const std::size_t colon = text.find(':');
    if (colon == std::string::npos)
        throw CLI::ValidationError("--hierarchical-runs",
                                   "'" + text + "' is not base-dt:eta (for example 0.01:0.3, a base step and an eta)");
    return {parseNumberForFlag("hierarchical-runs", kTimeStepRange, text.substr(0, colon), NumberKind::Real),
            parseNumberForFlag("hierarchical-runs", kTimeStepAccuracyRange, text.substr(colon + 1), NumberKind::Real)};
}

} // namespace

CLI::App* addTimeStepBenchCommand(CLI::App& app, TimeStepBenchOptions& options) {
    CLI::App* command = app.add_subcommand(
        "timesteps-bench", "energy error against force evaluations and wall time for fixed and hierarchical time "
                           "steps on an e = 0.9 binary, a cold collapse and a galaxy collision");
    command
        ->add_option_function<std::vector<std::string>>(
            "--scenarios",
            [&options](const std::vector<std::string>& names) {
                for (const std::string& name : names)
                    rethrowForFlag("scenarios", [&] { checkScenarioName(name); });
                options.scenarios = names;
            },
            "scenarios to measure (kepler-binary, cold-sphere, galaxy-collision; others use the collision's case)")
        ->delimiter(',')
        ->default_str("kepler-binary,cold-sphere,galaxy-collision");
    addNumberOption(*command, kBodyCountRange, NumberKind::Whole, options.bodyCount,
                    "bodies of every case but the binary");
    addNameOption(
        *command, "solver", options.solver, [](const std::string& text) { return std::string(findSolver(text).name); },
        "force solver: " + solversHelpText(), options.solver);
    addNameOption(*command, "backend", options.backend, parseBackendKind, "auto, cuda or cpu",
                  std::string(toString(options.backend)));
    command
        ->add_option_function<std::string>(
            "--seed",
            [&options](const std::string& text) {
                options.seed = rethrowForFlag("seed", [&] { return parseSeed(text); });
            },
            "scenario seed")
        ->default_str(std::to_string(options.seed));
    addNumberOption(*command, kBenchSofteningRange, NumberKind::Real, options.softeningLength,
                    "softening of every case (0: each case's own: 1e-3 binary, 2e-3 collapse and collision)");
    addNumberOption(*command, kDurationScaleRange, NumberKind::Real, options.durationScale,
                    "factor on every case's duration");
    addNumberOption(*command, kEnergySampleRange, NumberKind::Whole, options.energySamples,
                    "energy measurements per run");
    command
        ->add_option_function<std::vector<std::string>>(
            "--fixed-steps",
            [&options](const std::vector<std::string>& texts) {
                options.fixedSteps.clear();
                for (const std::string& text : texts)
                    options.fixedSteps.push_back(
                        parseNumberForFlag("fixed-steps", kTimeStepRange, text, NumberKind::Real));
            },
            "dt of the fixed-step runs of every case, instead of each case's own (" + describeRange(kTimeStepRange) +
                " each)")
        ->delimiter(',')
        ->type_name("DT,...");
    command
        ->add_option_function<std::vector<std::string>>(
            "--hierarchical-runs",
            [&options](const std::vector<std::string>& texts) {
                options.hierarchicalRuns.clear();
                for (const std::string& text : texts)
                    options.hierarchicalRuns.push_back(parseHierarchicalRun(text));
            },
            "hierarchical runs of every case as base-dt:eta pairs, instead of each case's own (" +
                describeRange(kTimeStepRange) + ", " + describeRange(kTimeStepAccuracyRange) + ")")
        ->delimiter(',')
        ->type_name("DT:ETA,...");
    command
        ->add_option_function<std::vector<std::string>>(
            "--level-choice",
            [&options](const std::vector<std::string>& texts) {
                options.levelChoices.clear();
                for (const std::string& text : texts)
                    options.levelChoices.push_back(
                        rethrowForFlag("level-choice", [&] { return parseEnumName<LevelChoice>(text); }));
            },
            "how the hierarchical runs choose a body's level: start, symmetric or tidal, or several (start,tidal) to "
            "measure each hierarchical run under each")
        ->delimiter(',')
        ->type_name("NAME,...")
        ->default_str(std::string(enumName(LevelChoice::Start)));
    command->add_flag("--json", options.json, "print one JSON object instead of the table");
    return command;
}

int runTimeStepBench(const TimeStepBenchOptions& options, std::ostream& out, std::ostream& err) {
    try {
        measureAll(options, out);
        return 0;
    } catch (const std::exception& error) {
        err << "gravlab timesteps-bench: " << error.what() << "\n";
        return 1;
    }
}

} // namespace gravlab
