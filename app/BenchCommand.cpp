#include "BenchCommand.hpp"

#include "OptionParsing.hpp"

#include <Scenarios.hpp>

#if defined(GRAVLAB_HAS_CUDA)
#include <CudaBackend.hpp>
#include <CudaCheck.hpp>
#include <CudaStream.hpp>
#include <DeviceBodies.hpp>
#include <OrbGpu.hpp>
#endif

#include <algorithm>
#include <ctime>
#include <iomanip>
#include <ostream>
#include <vector>

namespace gravlab {
namespace {

#if defined(GRAVLAB_HAS_CUDA)
struct BenchResult {
    std::string gpu;
    std::string date;
    double medianStepMs = 0;
    double fastestStepMs = 0;
    std::vector<PhaseTiming> medianPhases; ///< the backend's phases, each the median over the timed steps
    double bodyStepsPerSecond = 0;
    double interactionsPerSecond = 0; ///< direct solvers only
    double gflops = 0;                ///< direct solvers only
    std::uint64_t peakDeviceBytes = 0;
    std::size_t treeCells = 0;  ///< tree only
    std::size_t walkGroups = 0; ///< tree only
};

std::string todayUtc() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &utc);
    return text;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

std::string jsonEscaped(const std::string& text) {
    std::string escaped;
    for (const char c : text) {
        if (c == '"' || c == '\\')
            escaped += '\\';
        escaped += c;
    }
    return escaped;
}

double bytesPerBody(const BenchOptions& options, const BenchResult& result) {
    return double(result.peakDeviceBytes) / double(options.bodyCount);
}

void printJson(const BenchOptions& options, const BenchResult& result, std::ostream& out) {
    const bool tree = options.solver == SolverKind::Tree;
    out << std::setprecision(6) << "{\"gpu\": \"" << jsonEscaped(result.gpu) << "\", \"date\": \"" << result.date
        << "\", \"solver\": \"" << toString(options.solver) << "\", \"scenario\": \"" << jsonEscaped(options.scenario)
        << "\", \"bodies\": " << options.bodyCount << ", \"steps\": " << options.stepCount
        << ", \"warmupSteps\": " << options.warmupStepCount << ", \"medianStepMs\": " << result.medianStepMs
        << ", \"fastestStepMs\": " << result.fastestStepMs << ", \"bodyStepsPerSecond\": " << result.bodyStepsPerSecond
        << ", \"peakDeviceBytes\": " << result.peakDeviceBytes
        << ", \"deviceBytesPerBody\": " << bytesPerBody(options, result);
    for (const PhaseTiming& phase : result.medianPhases)
        out << ", \"" << phase.phase << "Ms\": " << phase.milliseconds;
    if (tree)
        out << ", \"theta\": " << options.openingAngle << ", \"treeCells\": " << result.treeCells
            << ", \"walkGroups\": " << result.walkGroups;
    else
        out << ", \"interactionsPerSecond\": " << result.interactionsPerSecond << ", \"gflops\": " << result.gflops
            << ", \"flopsPerInteraction\": " << kFlopsPerInteraction;
    out << "}\n";
}

void printText(const BenchOptions& options, const BenchResult& result, std::ostream& out) {
    out << std::setprecision(4) << "gravlab bench: solver " << toString(options.solver);
    if (options.solver == SolverKind::Tree)
        out << " (theta " << options.openingAngle << ")";
    out << ", scenario " << options.scenario << ", N = " << options.bodyCount << ", median of " << options.stepCount
        << " steps after " << options.warmupStepCount << " warm-up steps\n"
        << "GPU: " << result.gpu << ", " << result.date << "\n"
        << "median step: " << result.medianStepMs << " ms, fastest " << result.fastestStepMs << " ms\n"
        << "median per phase:";
    for (const PhaseTiming& phase : result.medianPhases)
        out << " " << phase.phase << " " << phase.milliseconds << " ms";
    out << "\nbody-steps/s: " << result.bodyStepsPerSecond << "\n"
        << "peak device memory: " << formatBytes(double(result.peakDeviceBytes)) << " ("
        << bytesPerBody(options, result) << " bytes per body)\n";
    if (options.solver == SolverKind::Tree)
        out << "octree cells: " << result.treeCells << " (" << double(result.treeCells) / double(options.bodyCount)
            << " per body), walk groups: " << result.walkGroups << " ("
            << double(options.bodyCount) / double(std::max<std::size_t>(result.walkGroups, 1)) << " bodies each)\n";
    else
        out << "interactions/s: " << result.interactionsPerSecond << " (N^2 per step)\n"
            << "GFLOP/s: " << result.gflops << " (" << kFlopsPerInteraction << " flops per interaction)\n";
}

std::uint64_t freeDeviceBytes() {
    std::size_t freeBytes = 0, totalBytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    return freeBytes;
}

/// Median of each phase over the steps, in the order the backend names them.
std::vector<PhaseTiming> medianPhases(const std::vector<std::vector<PhaseTiming>>& steps) {
    std::vector<PhaseTiming> medians = steps.front();
    for (std::size_t phase = 0; phase < medians.size(); ++phase) {
        std::vector<double> values;
        for (const std::vector<PhaseTiming>& step : steps)
            values.push_back(step[phase].milliseconds);
        medians[phase].milliseconds = median(values);
    }
    return medians;
}

BenchResult measure(const BenchOptions& options) {
    requireDeviceMemoryForBodies(options.bodyCount, CudaBackend::kDeviceBytesPerBody);
    const Bodies bodies = generateScenario(options.scenario, options.bodyCount, options.seed);
    const std::uint64_t freeBefore = freeDeviceBytes();
    BenchResult result;
    {
        CudaBackend backend;
        backend.load(bodies);
        SimParams params;
        params.solver = options.solver;
        params.openingAngle = options.openingAngle;
        backend.step(params, options.warmupStepCount);

        std::vector<double> stepMs;
        std::vector<std::vector<PhaseTiming>> phases;
        for (int step = 0; step < options.stepCount; ++step) {
            backend.step(params, 1);
            phases.push_back(backend.lastStepTimings());
            double total = 0;
            for (const PhaseTiming& timing : phases.back())
                total += timing.milliseconds;
            stepMs.push_back(total);
        }
        result.peakDeviceBytes = freeBefore - std::min(freeBefore, freeDeviceBytes());
        result.gpu = backend.description();
        result.medianPhases = medianPhases(phases);
        result.medianStepMs = median(stepMs);
        result.fastestStepMs = *std::min_element(stepMs.begin(), stepMs.end());
        result.treeCells = backend.treeCellCount();
        result.walkGroups = backend.treeWalkGroupCount();
    }
    result.date = todayUtc();
    const double n = double(options.bodyCount);
    result.bodyStepsPerSecond = n / (result.medianStepMs * 1e-3);
    if (options.solver != SolverKind::Tree) {
        result.interactionsPerSecond = n * n / (result.medianStepMs * 1e-3);
        result.gflops = result.interactionsPerSecond * kFlopsPerInteraction * 1e-9;
    }
    return result;
}

/// The GPU ORB build of the scenario's bodies into options.domainCount domains: each repeat starts from the same
/// unpartitioned order (uploaded outside the timed region) and is timed with CUDA events around the build alone.
void measureOrb(const BenchOptions& options, std::ostream& out) {
    requireDeviceMemoryForBodies(options.bodyCount, DeviceBodies::kBytesPerBody + OrbGpu::kScratchBytesPerBody);
    const Bodies bodies = generateScenario(options.scenario, options.bodyCount, options.seed);
    CudaStream stream;
    DeviceBodies device;
    OrbGpu orb(options.orbBisection ? OrbCutFinder::Bisection : OrbCutFinder::RadixSelect);
    CudaEvent start, stop;
    std::vector<double> buildMs;
    for (int run = 0; run < options.warmupStepCount + options.stepCount; ++run) {
        uploadBodies(bodies, device, stream.get());
        start.record(stream.get());
        orb.build(device, options.domainCount, stream.get());
        stop.record(stream.get());
        stop.synchronize();
        if (run >= options.warmupStepCount)
            buildMs.push_back(elapsedMilliseconds(start, stop));
    }
    const double medianMs = median(buildMs);
    const double fastestMs = *std::min_element(buildMs.begin(), buildMs.end());
    const std::string gpu = queryCurrentDevice().name;
    if (options.json) {
        out << std::setprecision(6) << "{\"gpu\": \"" << jsonEscaped(gpu) << "\", \"date\": \"" << todayUtc()
            << "\", \"orb\": true, \"scenario\": \"" << jsonEscaped(options.scenario)
            << "\", \"bodies\": " << options.bodyCount << ", \"domains\": " << options.domainCount
            << ", \"cutFinder\": \"" << (options.orbBisection ? "bisection" : "radix")
            << "\", \"runs\": " << options.stepCount << ", \"medianBuildMs\": " << medianMs
            << ", \"fastestBuildMs\": " << fastestMs << "}\n";
        return;
    }
    out << std::setprecision(4) << "gravlab bench --orb: " << options.bodyCount << " bodies (" << options.scenario
        << ") into " << options.domainCount << " domains, " << (options.orbBisection ? "bisection" : "radix-select")
        << " cut finder, median of " << options.stepCount << " builds after " << options.warmupStepCount
        << " warm-up builds\n"
        << "GPU: " << gpu << ", " << todayUtc() << "\n"
        << "median build (cuts and in-place partition): " << medianMs << " ms, fastest " << fastestMs << " ms\n";
}
#endif

} // namespace

CLI::App* addBenchCommand(CLI::App& app, BenchOptions& options) {
    CLI::App* bench = app.add_subcommand("bench", "time a force solver on the GPU: median step and phases, "
                                                  "body-steps/s, memory (needs a CUDA device)");
    bench
        ->add_option_function<std::string>(
            "--solver",
            [&options](const std::string& text) {
                options.solver = rethrowForFlag("solver", [&] { return parseSolverKind(text); });
            },
            "direct, direct-symmetric or tree")
        ->default_str(std::string(toString(options.solver)));
    bench
        ->add_option_function<std::string>(
            "--bodies",
            [&options](const std::string& text) {
                options.bodyCount =
                    static_cast<std::uint64_t>(parseNumberForFlag("bodies", kBodyCountRange, text, NumberKind::Whole));
            },
            "number of bodies, 1 to 2^28 (the GPU's memory may allow fewer)")
        ->default_str(std::to_string(options.bodyCount));
    bench
        ->add_option_function<std::string>(
            "--steps",
            [&options](const std::string& text) {
                options.stepCount = int(parseNumberForFlag("steps", kBenchStepRange, text, NumberKind::Whole));
            },
            "timed steps, 1 to 10000")
        ->default_str(std::to_string(options.stepCount));
    bench
        ->add_option_function<std::string>(
            "--warmup",
            [&options](const std::string& text) {
                options.warmupStepCount = int(parseNumberForFlag("warmup", kBenchWarmupRange, text, NumberKind::Whole));
            },
            "warm-up steps before timing, 1 to 1000")
        ->default_str(std::to_string(options.warmupStepCount));
    bench
        ->add_option_function<std::string>(
            "--theta",
            [&options](const std::string& text) {
                options.openingAngle = parseNumberForFlag("theta", kOpeningAngleRange, text, NumberKind::Real);
            },
            "Barnes-Hut opening angle of the tree solver, 0.1 to 1.5")
        ->default_str("0.5");
    bench->add_option("--scenario", options.scenario, "initial conditions")
        ->check([](const std::string& name) {
            return findScenario(name) != nullptr ? std::string() : "unknown scenario '" + name + "'";
        })
        ->capture_default_str();
    bench->add_flag("--json", options.json, "print one JSON object instead of text");
    bench->add_flag("--orb", options.orb, "time the ORB build (cuts and in-place partition) instead of a solver step");
    bench
        ->add_option_function<std::string>(
            "--domains",
            [&options](const std::string& text) {
                options.domainCount =
                    std::uint32_t(parseNumberForFlag("domains", kBenchDomainRange, text, NumberKind::Whole));
            },
            "ORB domains (with --orb), " + describeRange(kBenchDomainRange))
        ->default_str(std::to_string(options.domainCount));
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
    return bench;
}

int runBench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
#if defined(GRAVLAB_HAS_CUDA)
    std::string reason;
    if (!cudaDeviceAvailable(reason)) {
        err << "gravlab bench: needs a CUDA device: " << reason << "\n";
        return 1;
    }
    try {
        if (options.orb) {
            measureOrb(options, out);
            return 0;
        }
        const BenchResult result = measure(options);
        if (options.json)
            printJson(options, result, out);
        else
            printText(options, result, out);
        return 0;
    } catch (const std::exception& error) {
        err << "gravlab bench: " << error.what() << "\n";
        return 1;
    }
#else
    (void)options;
    (void)out;
    err << "gravlab bench: this build of Gravlab has no CUDA core (configure with -DGRAVLAB_CUDA=ON on a machine with "
           "nvcc)\n";
    return 1;
#endif
}

} // namespace gravlab
