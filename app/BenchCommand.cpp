#include "BenchCommand.hpp"

#include <Scenarios.hpp>

#if defined(GRAVLAB_HAS_CUDA)
#include <CudaBackend.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <vector>

namespace gravlab {
namespace {

/// A whole number within range from text such as "262144" or "1e6"; throws CLI::ValidationError otherwise.
double parseWhole(const ParamRange& range, const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    const bool whole =
        !text.empty() && end == text.c_str() + text.size() && std::isfinite(value) && value == std::floor(value);
    if (!whole || value < range.min || value > range.max) {
        std::ostringstream allowed;
        allowed << std::setprecision(10) << range.min << " <= " << range.name << " <= " << range.max;
        throw CLI::ValidationError("--" + std::string(range.name), "'" + text + "' is not allowed: " + allowed.str() +
                                                                       " (" + std::string(range.meaning) +
                                                                       ", a whole number)");
    }
    return value;
}

#if defined(GRAVLAB_HAS_CUDA)
struct BenchResult {
    std::string gpu;
    std::string date;
    double medianStepMs = 0;
    double medianForceMs = 0;
    double fastestStepMs = 0;
    double interactionsPerSecond = 0;
    double gflops = 0;
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

void printResult(const BenchOptions& options, const BenchResult& result, std::ostream& out) {
    const std::string solver(toString(options.solver));
    if (options.json) {
        out << std::setprecision(6) << "{\"gpu\": \"" << jsonEscaped(result.gpu) << "\", \"date\": \"" << result.date
            << "\", \"solver\": \"" << solver << "\", \"scenario\": \"" << jsonEscaped(options.scenario)
            << "\", \"bodies\": " << options.bodyCount << ", \"steps\": " << options.stepCount
            << ", \"warmupSteps\": " << options.warmupStepCount << ", \"medianStepMs\": " << result.medianStepMs
            << ", \"medianForceMs\": " << result.medianForceMs << ", \"fastestStepMs\": " << result.fastestStepMs
            << ", \"interactionsPerSecond\": " << result.interactionsPerSecond << ", \"gflops\": " << result.gflops
            << ", \"flopsPerInteraction\": " << kFlopsPerInteraction << "}\n";
        return;
    }
    out << std::setprecision(4) << "gravlab bench: solver " << solver << ", scenario " << options.scenario
        << ", N = " << options.bodyCount << ", median of " << options.stepCount << " steps after "
        << options.warmupStepCount << " warm-up steps\n"
        << "GPU: " << result.gpu << ", " << result.date << "\n"
        << "median step: " << result.medianStepMs << " ms (force " << result.medianForceMs << " ms), fastest "
        << result.fastestStepMs << " ms\n"
        << "interactions/s: " << result.interactionsPerSecond << " (N^2 per step)\n"
        << "GFLOP/s: " << result.gflops << " (" << kFlopsPerInteraction << " flops per interaction)\n";
}

BenchResult measure(const BenchOptions& options) {
    requireDeviceMemoryForBodies(options.bodyCount, CudaBackend::kDeviceBytesPerBody);
    CudaBackend backend;
    backend.load(generateScenario(options.scenario, options.bodyCount, options.seed));
    SimParams params;
    params.solver = options.solver;
    backend.step(params, options.warmupStepCount);

    std::vector<double> stepMs, forceMs;
    for (int step = 0; step < options.stepCount; ++step) {
        backend.step(params, 1);
        double total = 0;
        for (const PhaseTiming& timing : backend.lastStepTimings()) {
            total += timing.milliseconds;
            if (timing.phase == "force")
                forceMs.push_back(timing.milliseconds);
        }
        stepMs.push_back(total);
    }
    BenchResult result;
    result.gpu = backend.description();
    result.date = todayUtc();
    result.medianStepMs = median(stepMs);
    result.medianForceMs = median(forceMs);
    result.fastestStepMs = *std::min_element(stepMs.begin(), stepMs.end());
    const double n = double(options.bodyCount);
    result.interactionsPerSecond = n * n / (result.medianStepMs * 1e-3);
    result.gflops = result.interactionsPerSecond * kFlopsPerInteraction * 1e-9;
    return result;
}
#endif

} // namespace

CLI::App* addBenchCommand(CLI::App& app, BenchOptions& options) {
    CLI::App* bench = app.add_subcommand("bench", "time a force solver on the GPU: median step, interactions/s, "
                                                  "GFLOP/s (needs a CUDA device)");
    bench
        ->add_option_function<std::string>(
            "--solver",
            [&options](const std::string& text) {
                try {
                    options.solver = parseSolverKind(text);
                } catch (const InvalidParameterError& error) {
                    throw CLI::ValidationError("--solver", error.what());
                }
            },
            "direct or direct-symmetric")
        ->default_str(std::string(toString(options.solver)));
    bench
        ->add_option_function<std::string>(
            "--bodies",
            [&options](const std::string& text) {
                options.bodyCount = static_cast<std::uint64_t>(parseWhole(kBodyCountRange, text));
            },
            "number of bodies, 1 to 2^28 (the GPU's memory may allow fewer)")
        ->default_str(std::to_string(options.bodyCount));
    bench
        ->add_option_function<std::string>(
            "--steps",
            [&options](const std::string& text) { options.stepCount = int(parseWhole(kBenchStepRange, text)); },
            "timed steps, 1 to 10000")
        ->default_str(std::to_string(options.stepCount));
    bench
        ->add_option_function<std::string>(
            "--warmup",
            [&options](const std::string& text) { options.warmupStepCount = int(parseWhole(kBenchWarmupRange, text)); },
            "warm-up steps before timing, 1 to 1000")
        ->default_str(std::to_string(options.warmupStepCount));
    bench->add_option("--scenario", options.scenario, "initial conditions")
        ->check([](const std::string& name) {
            return findScenario(name) != nullptr ? std::string() : "unknown scenario '" + name + "'";
        })
        ->capture_default_str();
    bench->add_flag("--json", options.json, "print one JSON object instead of text");
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
        printResult(options, measure(options), out);
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
