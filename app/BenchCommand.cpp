#include "BenchCommand.hpp"

#include "BenchStatistics.hpp"
#include "CommandLine.hpp"
#include "FrameBench.hpp"
#include "GlBackendChoice.hpp"
#include "MpiRanks.hpp"
#include "OptionParsing.hpp"
#include "ReportJson.hpp"
#include "SnapshotBench.hpp"

#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/sim/Communicator.hpp>
#include <gravlab/sim/CpuFmaPeak.hpp>
#include <gravlab/sim/MemoryBudget.hpp>
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/StepBench.hpp>

#if defined(GRAVLAB_HAS_CUDA)
#include <gravlab/sim/DeviceBench.hpp>
#include <gravlab/sim/DeviceInfo.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <numeric>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace gravlab {
namespace {

struct BenchResult {
    Device device = Device::Cpu;
    std::string machine;
    std::string date;
    double medianStepMs = 0;
    double fastestStepMs = 0;
    double meanStepMs = 0; ///< with the occasional steps that re-partition (ORB, ranks) counted in
    std::vector<PhaseTiming> medianPhases; ///< the backend's phases, each the median over the timed steps
    std::vector<PhaseTiming> meanPhases;   ///< the same phases' means: a re-partition every K steps shows here
    double bodyStepsPerSecond = 0;
    double interactionsPerSecond = 0;        ///< direct solvers only
    double gflops = 0;                       ///< direct solvers only
    std::uint64_t peakDeviceBytes = 0;       ///< GPU only
    std::vector<SolverStatistic> statistics; ///< the solver's own figures (octree cells, walk groups)
    std::optional<CpuFmaPeak> cpuPeak;       ///< direct solvers on the CPU: the ceiling their rate is set against
    OrbStatus orb;                           ///< after the last step, with --orb-domains
    /// Under mpirun: each phase's median on the slowest and on the fastest rank (the step itself is rank 0's).
    std::vector<PhaseTiming> slowestRankPhases, fastestRankPhases;
};

/// The interaction rate that would use the measured FMA peak fully at kFlopsPerInteraction flops each.
double peakInteractionsPerSecond(const CpuFmaPeak& peak) {
    return peak.flopsPerSecond / kFlopsPerInteraction;
}

double bytesPerBody(const BenchOptions& options, const BenchResult& result) {
    return double(result.peakDeviceBytes) / double(options.bodyCount);
}

void printJson(const BenchOptions& options, const BenchResult& result, std::ostream& out) {
    const SolverInfo& solver = findSolver(options.solver);
    ReportJson report;
    report["device"] = std::string(toString(result.device));
    report[result.device == Device::Cpu ? "cpu" : "gpu"] = result.machine;
    report["date"] = result.date;
    report["ranks"] = worldCommunicator().size();
    report["solver"] = options.solver;
    report["precision"] = std::string(toString(options.precision));
    report["scenario"] = options.scenario;
    report["bodies"] = options.bodyCount;
    report["steps"] = options.stepCount;
    report["warmupSteps"] = options.warmupStepCount;
    report["medianStepMs"] = reportedNumber(result.medianStepMs);
    report["fastestStepMs"] = reportedNumber(result.fastestStepMs);
    report["meanStepMs"] = reportedNumber(result.meanStepMs);
    report["bodyStepsPerSecond"] = reportedNumber(result.bodyStepsPerSecond);
    report["peakDeviceBytes"] = result.peakDeviceBytes;
    report["deviceBytesPerBody"] = reportedNumber(bytesPerBody(options, result));
    for (const PhaseTiming& phase : result.medianPhases)
        report[phase.phase + "Ms"] = reportedNumber(phase.milliseconds);
    for (const PhaseTiming& phase : result.meanPhases)
        report[phase.phase + "MeanMs"] = reportedNumber(phase.milliseconds);
    if (solver.usesOpeningAngle) {
        report["theta"] = reportedNumber(options.openingAngle);
        report["opening"] = std::string(toString(options.openingCriterion));
        if (options.openingCriterion == OpeningCriterion::Relative)
            report["forceAccuracy"] = reportedNumber(options.forceAccuracy);
    }
    for (const SolverStatistic& statistic : result.statistics)
        report[statistic.key] = reportedNumber(statistic.value);
    if (solver.allPairs) {
        report["interactionsPerSecond"] = reportedNumber(result.interactionsPerSecond);
        report["gflops"] = reportedNumber(result.gflops);
        report["flopsPerInteraction"] = kFlopsPerInteraction;
    }
    if (result.cpuPeak) {
        report["cpuSimdTarget"] = result.cpuPeak->simdTarget;
        report["cpuThreads"] = result.cpuPeak->threads;
        report["fmaPeakGflops"] = reportedNumber(result.cpuPeak->flopsPerSecond * 1e-9);
        report["fmaPeakInteractionsPerSecond"] = reportedNumber(peakInteractionsPerSecond(*result.cpuPeak));
        report["fractionOfFmaPeak"] =
            reportedNumber(result.interactionsPerSecond / peakInteractionsPerSecond(*result.cpuPeak));
    }
    for (std::size_t k = 0; k < result.slowestRankPhases.size(); ++k) {
        report[result.slowestRankPhases[k].phase + "MsSlowestRank"] =
            reportedNumber(result.slowestRankPhases[k].milliseconds);
        report[result.fastestRankPhases[k].phase + "MsFastestRank"] =
            reportedNumber(result.fastestRankPhases[k].milliseconds);
    }
    if (options.stepOrbDomains > 0) {
        report["orbDomains"] = options.stepOrbDomains;
        report["orbEvery"] = options.stepOrbEvery;
        report["orbBalance"] = std::string(toString(options.orbBalance));
        report["orbMemoryImbalance"] = reportedNumber(result.orb.imbalance.memory);
        report["orbWorkImbalance"] = reportedNumber(result.orb.imbalance.work);
        report["orbMigratedLastStep"] = result.orb.migratedLastStep;
        report["orbLastRebuildMs"] = reportedNumber(result.orb.lastRebuildMilliseconds);
    }
    printReport(report, out);
}

void printText(const BenchOptions& options, const BenchResult& result, std::ostream& out) {
    const SolverInfo& solver = findSolver(options.solver);
    out << std::setprecision(4) << "gravlab bench: solver " << options.solver;
    if (solver.usesOpeningAngle)
        out << (options.openingCriterion == OpeningCriterion::Relative
                    ? " (relative opening, alpha " + std::to_string(options.forceAccuracy) + ")"
                    : " (theta " + std::to_string(options.openingAngle) + ")");
    out << ", " << toString(options.precision) << " precision";
    out << ", scenario " << options.scenario << ", N = " << options.bodyCount << ", median of " << options.stepCount
        << " steps after " << options.warmupStepCount << " warm-up steps\n"
        << (result.device == Device::Cpu ? "CPU: " : "GPU: ") << result.machine << ", " << result.date << "\n"
        << "median step: " << result.medianStepMs << " ms, fastest " << result.fastestStepMs << " ms, mean "
        << result.meanStepMs << " ms\n"
        << "median per phase:";
    for (const PhaseTiming& phase : result.medianPhases)
        out << " " << phase.phase << " " << phase.milliseconds << " ms";
    out << "\nmean per phase:";
    for (const PhaseTiming& phase : result.meanPhases)
        out << " " << phase.phase << " " << phase.milliseconds << " ms";
    if (!result.slowestRankPhases.empty()) {
        out << "\nslowest / fastest rank:";
        for (std::size_t k = 0; k < result.slowestRankPhases.size(); ++k)
            out << " " << result.slowestRankPhases[k].phase << " " << result.slowestRankPhases[k].milliseconds << " / "
                << result.fastestRankPhases[k].milliseconds << " ms";
    }
    out << "\nbody-steps/s: " << result.bodyStepsPerSecond << "\n";
    if (result.device == Device::Cuda && runsAcrossRanks())
        out << "peak device memory: not measured across ranks\n";
    else if (result.device == Device::Cuda)
        out << "peak device memory: " << formatBytes(double(result.peakDeviceBytes)) << " ("
            << bytesPerBody(options, result) << " bytes per body)\n";
    for (const SolverStatistic& statistic : result.statistics)
        out << statistic.name << ": " << statistic.value << " (" << statistic.value / double(options.bodyCount)
            << " per body)\n";
    if (solver.allPairs)
        out << "interactions/s: " << result.interactionsPerSecond << " (N^2 per step)\n"
            << "GFLOP/s: " << result.gflops << " (" << kFlopsPerInteraction << " flops per interaction)\n";
    if (result.cpuPeak)
        out << "CPU FMA peak: " << result.cpuPeak->flopsPerSecond * 1e-9 << " GFLOP/s float, measured on "
            << result.cpuPeak->threads << " threads (SIMD target " << result.cpuPeak->simdTarget << ")\n"
            << "FMA peak as interactions/s: " << peakInteractionsPerSecond(*result.cpuPeak) << " at "
            << kFlopsPerInteraction << " flops each; this run reached "
            << 100.0 * result.interactionsPerSecond / peakInteractionsPerSecond(*result.cpuPeak) << "% of it\n";
    if (options.stepOrbDomains > 0)
        out << "ORB: " << options.stepOrbDomains << " domains (" << toString(options.orbBalance)
            << " balance), re-partitioned every " << options.stepOrbEvery << " steps (last "
            << result.orb.lastRebuildMilliseconds << " ms), " << result.orb.migratedLastStep
            << " bodies migrated in the last step, imbalance " << result.orb.imbalance.memory << " memory, "
            << result.orb.imbalance.work << " work\n";
}

/// Each phase's time on the slowest and on the fastest rank. Collective; every rank has the same phases (one backend).
void spreadOverRanks(const std::vector<PhaseTiming>& phases, std::vector<PhaseTiming>& slowest,
                     std::vector<PhaseTiming>& fastest) {
    std::vector<double> largest, negatedSmallest;
    for (const PhaseTiming& phase : phases) {
        largest.push_back(phase.milliseconds);
        negatedSmallest.push_back(-phase.milliseconds);
    }
    worldCommunicator().allReduceMax(largest);
    worldCommunicator().allReduceMax(negatedSmallest);
    slowest = fastest = phases;
    for (std::size_t k = 0; k < phases.size(); ++k) {
        slowest[k].milliseconds = largest[k];
        fastest[k].milliseconds = -negatedSmallest[k];
    }
}

/// The steps timed on the backend a run would get: through the GL compute backend in a headless EGL context for
/// backend gl, and for auto where no CUDA device is chosen and the context's driver is a hardware one
/// (GlBackendChoice.hpp); createBackend's choice otherwise.
StepTimes timeBenchSteps(const SimParams& params, const BenchOptions& options) {
    std::optional<HeadlessContext> context;
    if (params.backend == BackendKind::Gl) {
        context.emplace();
    } else if (params.backend == BackendKind::Auto && !cudaBackendWouldBeChosen(params)) {
        try {
            context.emplace();
        } catch (const EglError&) {
            // No GL here at all: auto times the CPU, as it would without GL.
        }
    }
    if (context && (params.backend == BackendKind::Gl || autoChoosesGlBackend(params)))
        return timeSteps(params, appBackendFactory(), options.warmupStepCount, options.stepCount);
    return timeSteps(params, options.warmupStepCount, options.stepCount);
}

BenchResult measure(const BenchOptions& options) {
    const SimParams params = benchSimParams(options);
    const StepTimes times = timeBenchSteps(params, options);

    BenchResult result;
    std::vector<double> stepMs;
    for (const std::vector<PhaseTiming>& phases : times.steps)
        stepMs.push_back(totalMilliseconds(phases));
    result.peakDeviceBytes = times.peakDeviceBytes;
    result.device = times.device;
    result.machine = times.machine;
    result.medianPhases = medianPhases(times.steps);
    result.meanPhases = meanPhases(times.steps);
    if (runsAcrossRanks())
        spreadOverRanks(result.medianPhases, result.slowestRankPhases, result.fastestRankPhases);
    result.medianStepMs = median(stepMs);
    result.fastestStepMs = *std::min_element(stepMs.begin(), stepMs.end());
    result.meanStepMs = std::accumulate(stepMs.begin(), stepMs.end(), 0.0) / double(stepMs.size());
    result.statistics = times.statistics;
    result.orb = times.orb;
    result.date = todayUtc();
    const double n = double(options.bodyCount);
    result.bodyStepsPerSecond = n / (result.medianStepMs * 1e-3);
    if (findSolver(options.solver).allPairs) {
        result.interactionsPerSecond = n * n / (result.medianStepMs * 1e-3);
        result.gflops = result.interactionsPerSecond * kFlopsPerInteraction * 1e-9;
        if (result.device == Device::Cpu)
            result.cpuPeak = summedOverRanks(measureCpuFmaPeak()); // under mpirun: all ranks' cores
    }
    return result;
}

#if defined(GRAVLAB_HAS_CUDA)
struct OrbBenchResult {
    std::string gpu;
    double medianMs = 0;
    double fastestMs = 0;
    double bytesPerBody = 0;     ///< OrbGpu::modelledBytesPerBody
    double copyBandwidth = 0;    ///< bytes/s of a device-to-device cudaMemcpy, read + write
    std::size_t splitLevels = 0; ///< levels that split cells
    OrbImbalance imbalance;
};

OrbBenchResult measureOrb(const BenchOptions& options) {
    DeviceOrbBench bench;
    bench.bodyCount = options.bodyCount;
    bench.domainCount = options.domainCount;
    bench.bisection = options.orbBisection;
    bench.balance = options.orbBalance;
    bench.positionsOnly = options.orbPositionsOnly;
    bench.scenario = options.scenario;
    bench.seed = options.seed;
    bench.warmupBuildCount = options.warmupStepCount;
    bench.buildCount = options.stepCount;
    const DeviceOrbBuildTimes times = timeDeviceOrbBuilds(bench);

    OrbBenchResult result;
    result.gpu = times.gpu;
    result.medianMs = median(times.buildMilliseconds);
    result.fastestMs = *std::min_element(times.buildMilliseconds.begin(), times.buildMilliseconds.end());
    result.splitLevels = times.splitLevels;
    result.bytesPerBody = times.bytesPerBody;
    result.copyBandwidth = times.copyBandwidth;
    result.imbalance = times.imbalance;
    return result;
}

void printOrb(const BenchOptions& options, const OrbBenchResult& result, std::ostream& out) {
    const double n = double(options.bodyCount);
    const double bodiesPerSecond = n / (result.medianMs * 1e-3);
    const double effectiveBandwidth = result.bytesPerBody * n / (result.medianMs * 1e-3);
    const char* finder = options.orbBisection ? "bisection" : "radix";
    const std::string input = options.orbPositionsOnly ? "uniform-positions" : options.scenario;
    if (options.json) {
        ReportJson report;
        report["gpu"] = result.gpu;
        report["date"] = todayUtc();
        report["orb"] = true;
        report["scenario"] = input;
        report["positionsOnly"] = options.orbPositionsOnly;
        report["bodies"] = options.bodyCount;
        report["domains"] = options.domainCount;
        report["cutFinder"] = finder;
        report["balance"] = std::string(toString(options.orbBalance));
        report["runs"] = options.stepCount;
        report["warmupRuns"] = options.warmupStepCount;
        report["medianBuildMs"] = reportedNumber(result.medianMs);
        report["fastestBuildMs"] = reportedNumber(result.fastestMs);
        report["bodiesPerSecond"] = reportedNumber(bodiesPerSecond);
        report["splitLevels"] = result.splitLevels;
        report["modelledBytesPerBody"] = reportedNumber(result.bytesPerBody);
        report["effectiveGBps"] = reportedNumber(effectiveBandwidth * 1e-9);
        report["deviceCopyGBps"] = reportedNumber(result.copyBandwidth * 1e-9);
        report["memoryImbalance"] = reportedNumber(result.imbalance.memory);
        report["workImbalance"] = reportedNumber(result.imbalance.work);
        printReport(report, out);
        return;
    }
    out << std::setprecision(4) << "gravlab bench --orb: " << options.bodyCount << " bodies (" << input << ") into "
        << options.domainCount << " domains, " << finder << " cut finder, " << toString(options.orbBalance)
        << " balance, median of " << options.stepCount << " builds after " << options.warmupStepCount
        << " warm-up builds\n"
        << "GPU: " << result.gpu << ", " << todayUtc() << "\n"
        << "median build (cuts and partition" << (options.orbPositionsOnly ? "" : ", bodies gathered")
        << "): " << result.medianMs << " ms, fastest " << result.fastestMs << " ms, " << bodiesPerSecond
        << " bodies/s\n"
        << "effective bandwidth: " << effectiveBandwidth * 1e-9 << " GB/s (" << result.bytesPerBody
        << " bytes per body modelled over " << result.splitLevels << " split levels); device copy bandwidth "
        << result.copyBandwidth * 1e-9 << " GB/s (1 GiB cudaMemcpy device to device, read + write)\n"
        << "imbalance: memory " << result.imbalance.memory << ", work " << result.imbalance.work;
    if (options.orbPositionsOnly)
        out << " (positions only: every body weighs 1)\n";
    else
        out << " (weights: interaction-count stand-ins 1 + floor(1000 x exponential) in acceleration.w)\n";
}
#endif

} // namespace

SimParams benchSimParams(const BenchOptions& options) {
    SimParams params;
    params.scenario = options.scenario;
    params.bodyCount = options.bodyCount;
    params.seed = options.seed;
    params.solver = options.solver;
    params.backend = options.backend;
    params.precision = options.precision;
    params.openingAngle = options.openingAngle;
    params.openingCriterion = options.openingCriterion;
    params.forceAccuracy = options.forceAccuracy;
    params.orb.domainCount = options.stepOrbDomains;
    params.orb.rebuildInterval = options.stepOrbEvery;
    params.orb.balance = options.orbBalance;
    return params;
}

CLI::App* addBenchCommand(CLI::App& app, BenchOptions& options) {
    CLI::App* bench = app.add_subcommand("bench", "time a force solver on the GPU or the CPU: median step and phases, "
                                                  "body-steps/s, device memory; or the GPU ORB build (--orb)");
    addNameOption(
        *bench, "solver", options.solver, [](const std::string& text) { return std::string(findSolver(text).name); },
        "force solver: " + solversHelpText(), options.solver);
    addNameOption(*bench, "backend", options.backend, parseBackendKind,
                  "where the steps run: auto (CUDA when a GPU is present, else GL compute shaders on a hardware GL "
                  "driver, else the CPU), cuda, cpu or gl (OpenGL 4.5 compute shaders in a headless EGL context)",
                  std::string(toString(options.backend)));
    addNameOption(*bench, "precision", options.precision, parsePrecision,
                  "solver steps: the state's precision, single or double (fp64 state and kicks, a low-part array per "
                  "coordinate)",
                  std::string(toString(options.precision)));
    addNumberOption(*bench, kBenchBodyRange, NumberKind::Whole, options.bodyCount,
                    "number of bodies; above 2^28 only with --orb --positions-only (the GPU's memory may allow fewer)");
    addNumberOption(*bench, kBenchStepRange, NumberKind::Whole, options.stepCount, "timed steps");
    addNumberOption(*bench, kBenchWarmupRange, NumberKind::Whole, options.warmupStepCount,
                    "warm-up steps before timing");
    addNumberOption(*bench, kOpeningAngleRange, NumberKind::Real, options.openingAngle,
                    "Barnes-Hut opening angle of the tree solver");
    addNameOption(*bench, "opening", options.openingCriterion, parseOpeningCriterion,
                  "the tree's opening criterion: geometric or relative",
                  std::string(toString(options.openingCriterion)));
    addNumberOption(*bench, kForceAccuracyRange, NumberKind::Real, options.forceAccuracy,
                    "alpha of the relative opening criterion");
    bench->add_option("--scenario", options.scenario, "initial conditions")
        ->check([](const std::string& name) {
            return findScenario(name) != nullptr ? std::string() : "unknown scenario '" + name + "'";
        })
        ->capture_default_str();
    bench->add_flag("--json", options.json, "print one JSON object instead of text");
    bench->add_flag("--io", options.io,
                    "time writing and reading snapshot files of --bodies bodies in every format (GB/s) instead of a "
                    "solver step; --steps repeats, median");
    bench->add_option("--io-dir", options.ioFolder, "with --io: folder for the files (default: a temporary folder)")
        ->type_name("DIR");
    addNumberOption(*bench, kFrameCountRange, NumberKind::Whole, options.frameCount,
                    "time this many frames of the window's frame path offscreen (step, feed, overlays, draw, UI)");
    addNumberOption(*bench, kWidthRange, NumberKind::Whole, options.frameWidth, "with --frames: frame width");
    addNumberOption(*bench, kHeightRange, NumberKind::Whole, options.frameHeight, "with --frames: frame height");
    addNumberOption(*bench, kStepsPerFrameRange, NumberKind::Whole, options.stepsPerFrame,
                    "with --frames: simulation steps per frame");
    bench->add_flag("--background", options.background,
                    "with --frames: step on a worker thread as the window does; reports display frames/s and step "
                    "completions/s apart");
    addNumberOption(*bench, kDisplayHzRange, NumberKind::Real, options.displayHz,
                    "with --frames: pace the frames as a display of this refresh rate does (0: unpaced)");
    bench->add_flag("--orb", options.orb, "time the ORB build (cuts and in-place partition) instead of a solver step");
    addNumberOption(*bench, kBenchDomainRange, NumberKind::Whole, options.domainCount, "ORB domains (with --orb)");
    bench
        ->add_option_function<std::string>(
            "--cut-finder",
            [&options](const std::string& text) {
                if (text != "radix" && text != "bisection")
                    throw CLI::ValidationError("--cut-finder",
                                               "cut-finder = '" + text + "' is not known: allowed radix or bisection");
                options.orbBisection = text == "bisection";
            },
            "ORB cut finder (with --orb): radix (radix select) or bisection (the baseline)")
        ->default_str("radix");
    addNameOption(*bench, "orb-balance", options.orbBalance, parseOrbBalance,
                  "ORB balance (with --orb): count, or work (random weights, see the design note)",
                  std::string(toString(options.orbBalance)));
    addNumberOption(*bench, kOrbDomainRange, NumberKind::Whole, options.stepOrbDomains,
                    "solver steps: keep this many ORB domains while stepping (0: none)");
    addNumberOption(*bench, kOrbRebuildIntervalRange, NumberKind::Whole, options.stepOrbEvery,
                    "solver steps: re-partition every K steps, migrate in between");
    bench->add_flag("--positions-only", options.orbPositionsOnly,
                    "with --orb: build over uniform random positions alone (count balance), for up to 2^32 - 1 bodies");
    // Which range --bodies has depends on flags that may follow it, so the text is checked again once all are parsed.
    bench->final_callback([bench, &options] {
        const CLI::Option* bodies = bench->get_option("--bodies");
        if (bodies->count() > 0 && !(options.orb && options.orbPositionsOnly))
            parseNumberForFlag("bodies", kBenchStateBodyRange, bodies->results().back(), NumberKind::Whole);
    });
    return bench;
}

namespace {

/// The ORB build benchmark runs on the GPU only: it times the GPU build's kernels.
int runOrbBench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
#if defined(GRAVLAB_HAS_CUDA)
    std::string reason;
    if (!cudaDeviceAvailable(reason)) {
        err << "gravlab bench --orb: times the GPU ORB build, and there is no usable CUDA device: " << reason << "\n";
        return 1;
    }
    if (options.orbPositionsOnly && options.orbBalance == OrbBalance::Work)
        throw std::invalid_argument("--positions-only builds under count balance (the weights live in the "
                                    "full body state); leave out --orb-balance work");
    printOrb(options, measureOrb(options), out);
    return 0;
#else
    (void)options;
    (void)out;
    err << "gravlab bench --orb: times the GPU ORB build, and this build of Gravlab has no CUDA core (configure with "
           "-DGRAVLAB_CUDA=ON on a machine with nvcc)\n";
    return 1;
#endif
}

} // namespace

int runBench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
    try {
        if (options.orb)
            return runOrbBench(options, out, err);
        if (options.frameCount > 0) {
            try {
                runFrameBench(options, out);
            } catch (const EglError& error) {
                err << "gravlab bench --frames: no headless OpenGL context can be made here: " << error.what() << "\n";
                return 1;
            }
            return 0;
        }
        if (options.io) {
            runSnapshotBench({.bodyCount = options.bodyCount,
                              .repeats = options.stepCount,
                              .scenario = options.scenario,
                              .folder = options.ioFolder,
                              .json = options.json},
                             out);
            return 0;
        }
        const BenchResult result = measure(options);
        if (result.device == Device::Cpu)
            err << "gravlab bench: timing the CPU backend (" << result.machine << ")\n";
        if (options.json)
            printJson(options, result, out);
        else
            printText(options, result, out);
        return 0;
    } catch (const InvalidParameterError& error) {
        err << "gravlab bench: " << error.what() << "\n";
        return 2; // a request the registry or the ranges refuse, like a bad flag
    } catch (const std::exception& error) {
        err << "gravlab bench: " << error.what() << "\n";
        return 1;
    }
}

} // namespace gravlab
