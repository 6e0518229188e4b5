// Command-line flags (CLI11), their ranges and the messages for bad values.
#include "CommandLine.hpp"

#include "OptionParsing.hpp"

#include <CLI/CLI.hpp>
#include <Scenarios.hpp>
#include <Simulation.hpp>
#include <algorithm>

namespace gravlab {
namespace {

/// Flags whose text is converted here (see the design note) or through the sim's name parsers.
struct RawOptions {
    std::string scenario;
    std::string bodies;
    std::string seed;
    std::string solver;
    std::string backend;
    std::string frames;
    std::string width;
    std::string height;
    std::string stepsPerFrame;
    std::string color;
    std::string overlayDepth;
    std::string orbDomains;
    std::string orbBalance;
    std::string orbEvery;
    std::string orbImbalance;
    bool listScenarios = false;
};

std::string scenarioList() {
    std::string list;
    for (const Scenario& scenario : scenarios()) {
        std::string name(scenario.name);
        name.resize(std::max<std::size_t>(name.size(), 18), ' ');
        list += "  " + name + std::string(scenario.description) + "\n";
    }
    return list;
}

void addSimulationOptions(CLI::App& app, SimParams& params, RawOptions& raw) {
    const SimParams defaults;
    app.add_option("--scenario", raw.scenario, "initial conditions (see the list below)")
        ->type_name("NAME")
        ->default_str(defaults.scenario);
    app.add_option("--bodies", raw.bodies, "number of bodies, " + describeRange(kBodyCountRange))
        ->type_name("N")
        ->default_str(std::to_string(defaults.bodyCount) + " on the CPU, " + std::to_string(kDefaultCudaBodyCount) +
                      " on a GPU");
    app.add_option("--seed", raw.seed, "seed of the scenario's random sampling, any whole number >= 0")
        ->type_name("N")
        ->default_str(std::to_string(defaults.seed));
    app.add_option("--dt", params.timeStep, "leapfrog time step in N-body time units, " + describeRange(kTimeStepRange))
        ->capture_default_str();
    app.add_option("--softening", params.softeningLength,
                   "Plummer softening length in N-body length units, " + describeRange(kSofteningRange))
        ->capture_default_str();
    app.add_option("--G", params.gravitationalConstant,
                   "gravitational constant, " + describeRange(kGravitationalConstantRange))
        ->capture_default_str();
    app.add_option("--theta", params.openingAngle,
                   "Barnes-Hut opening angle of the tree solver (smaller: more accurate, slower), " +
                       describeRange(kOpeningAngleRange))
        ->capture_default_str();
    app.add_option("--solver", raw.solver, "force solver: " + solversHelpText())
        ->type_name("NAME")
        ->default_str(defaults.solver + " on the CPU, " + std::string(kDefaultGpuSolver) + " on a GPU; " +
                      std::string(treeDrawingSolver().name) + " with --overlay-depth or --color leaf-depth");
    app.add_option("--backend", raw.backend, "where the simulation runs: auto (CUDA when a GPU is present), cuda, cpu")
        ->type_name("NAME")
        ->default_str(std::string(toString(defaults.backend)));
}

void addOutputOptions(CLI::App& app, const AppOptions& defaults, AppOptions& options, RawOptions& raw) {
    app.add_option("--steps-per-frame", raw.stepsPerFrame,
                   "simulation steps per frame, " + describeRange(kStepsPerFrameRange))
        ->type_name("N")
        ->default_str("1 in a window, " + std::to_string(AppOptions::kHeadlessStepsPerFrame) + " headless");
    app.add_flag("--headless", options.headless, "render PNG frames through EGL instead of opening a window");
    app.add_option("--frames", raw.frames, "frames to render (implies --headless), " + describeRange(kFrameCountRange))
        ->type_name("N")
        ->default_str(std::to_string(defaults.frameCount));
    app.add_option("--out", options.outputFolder,
                   "folder for frame_00000.png, ... (created if missing; implies --headless)")
        ->type_name("DIR")
        ->default_str(defaults.outputFolder.string());
    app.add_option("--width", raw.width, "image or window width in pixels, " + describeRange(kWidthRange))
        ->type_name("N")
        ->default_str(std::to_string(defaults.width));
    app.add_option("--height", raw.height, "image or window height in pixels, " + describeRange(kHeightRange))
        ->type_name("N")
        ->default_str(std::to_string(defaults.height));
    app.add_option("--color", raw.color,
                   "what colours the bodies: component (the scenario's colours), leaf-depth (depth of each body's "
                   "octree leaf; tree solver only) or orb-domain (each body's ORB domain; implies ORB)")
        ->type_name("MODE")
        ->default_str(std::string(toString(defaults.colorMode)) + "; orb-domain while ORB is on");
    app.add_option("--overlay-depth", raw.overlayDepth,
                   "draw the octree cells of depths MIN..MAX (0 = root, at most " + std::to_string(kMaxOverlayDepth) +
                       ") as wireframe boxes, in the window and in headless frames; tree solver only")
        ->type_name("MIN:MAX");
    app.add_flag("--list-scenarios", raw.listScenarios, "print the scenarios with a one-line description and exit");
}

void addOrbOptions(CLI::App& app, AppOptions& options, RawOptions& raw) {
    const OrbParams defaults;
    const std::string defaultCount = std::to_string(kDefaultOrbDomainCount);
    app.add_option("--orb-domains", raw.orbDomains,
                   "split the bodies into D domains by orthogonal recursive bisection (ORB), " +
                       describeRange(kOrbDomainRange) + " and at most --bodies; 0 = off. The other ORB flags " +
                       "switch ORB on with min(" + defaultCount + ", N) domains; while ORB is on, bodies are " +
                       "coloured by domain unless --color is given")
        ->type_name("D")
        ->default_str("0 (off)");
    app.add_option("--orb-balance", raw.orbBalance,
                   "what ORB balances between domains: count (bodies) or work (force interactions)")
        ->type_name("NAME")
        ->default_str(std::string(toString(defaults.balance)));
    app.add_option("--orb-every", raw.orbEvery,
                   "full ORB re-partition every K steps (1 = every step); in between, bodies migrate between fixed "
                   "cells, " +
                       describeRange(kOrbRebuildIntervalRange))
        ->type_name("K")
        ->default_str(std::to_string(defaults.rebuildInterval));
    app.add_option("--orb-imbalance", raw.orbImbalance,
                   "re-partition early when the largest domain over the mean passes X, " +
                       describeRange(kOrbImbalanceLimitRange))
        ->type_name("X")
        ->default_str(formatNumber(defaults.imbalanceLimit));
    app.add_flag("--orb-cells", options.orbCells,
                 "draw the ORB cells (the domains) as wireframe boxes in their bodies' colours, in the window and in "
                 "headless frames");
}

/// The ORB flags' values and the defaults of the design note; throws InvalidParameterError for a bad value.
void completeOrbOptions(const CLI::App& app, const RawOptions& raw, AppOptions& options) {
    OrbParams& orb = options.simulation.orb;
    if (app.count("--orb-balance") > 0)
        orb.balance = parseOrbBalance(raw.orbBalance);
    if (app.count("--orb-every") > 0)
        orb.rebuildInterval =
            static_cast<std::uint32_t>(parseNumberInRange(kOrbRebuildIntervalRange, raw.orbEvery, NumberKind::Whole));
    if (app.count("--orb-imbalance") > 0)
        orb.imbalanceLimit = parseNumberInRange(kOrbImbalanceLimitRange, raw.orbImbalance, NumberKind::Real);
    const bool colorGiven = app.count("--color") > 0;
    const bool wantsDomainsShown = options.orbCells || options.colorMode == ColorMode::OrbDomain;
    if (app.count("--orb-domains") > 0) {
        orb.domainCount =
            static_cast<std::uint32_t>(parseNumberInRange(kOrbDomainRange, raw.orbDomains, NumberKind::Whole));
        if (orb.domainCount == 0 && wantsDomainsShown) {
            const std::string field = options.orbCells ? "orb-cells" : "color";
            const std::string what = options.orbCells ? "orb-cells" : "color = 'orb-domain'";
            throw InvalidParameterError(field, what +
                                                   " needs ORB domains, but orb-domains = 0 switches ORB off: give "
                                                   "--orb-domains 1 or more, or leave it out for min(" +
                                                   std::to_string(kDefaultOrbDomainCount) + ", N) domains");
        }
    } else if (wantsDomainsShown || app.count("--orb-balance") > 0 || app.count("--orb-every") > 0 ||
               app.count("--orb-imbalance") > 0) {
        orb.domainCount = defaultOrbDomainCount(options.simulation.bodyCount);
    }
    if (orb.domainCount > 0 && !colorGiven)
        options.colorMode = ColorMode::OrbDomain;
}

/// Converts the raw texts and validates everything; throws InvalidParameterError for the first bad value.
void completeOptions(const CLI::App& app, const RawOptions& raw, AppOptions& options) {
    SimParams& params = options.simulation;
    if (app.count("--scenario") > 0)
        params.scenario = raw.scenario;
    options.bodyCountGiven = app.count("--bodies") > 0;
    options.solverGiven = app.count("--solver") > 0;
    if (app.count("--bodies") > 0)
        params.bodyCount =
            static_cast<std::uint64_t>(parseNumberInRange(kBodyCountRange, raw.bodies, NumberKind::Whole));
    if (app.count("--seed") > 0)
        params.seed = parseSeed(raw.seed);
    if (app.count("--solver") > 0)
        params.solver = findSolver(raw.solver).name;
    if (app.count("--backend") > 0)
        params.backend = parseBackendKind(raw.backend);
    if (app.count("--steps-per-frame") > 0)
        options.stepsPerFrame =
            static_cast<int>(parseNumberInRange(kStepsPerFrameRange, raw.stepsPerFrame, NumberKind::Whole));
    if (app.count("--frames") > 0)
        options.frameCount = static_cast<int>(parseNumberInRange(kFrameCountRange, raw.frames, NumberKind::Whole));
    if (app.count("--width") > 0)
        options.width = static_cast<int>(parseNumberInRange(kWidthRange, raw.width, NumberKind::Whole));
    if (app.count("--height") > 0)
        options.height = static_cast<int>(parseNumberInRange(kHeightRange, raw.height, NumberKind::Whole));
    if (app.count("--color") > 0)
        options.colorMode = parseColorMode(raw.color);
    if (app.count("--overlay-depth") > 0)
        options.overlayDepths = parseTreeDepthRange(raw.overlayDepth);
    completeOrbOptions(app, raw, options);
    if (app.count("--frames") > 0 || app.count("--out") > 0)
        options.headless = true;
    validateSimParams(params);
}

/// An outcome that ends gravlab with exitCode after printing message.
CommandLineOutcome finished(int exitCode, std::string message) {
    CommandLineOutcome outcome;
    outcome.exitCode = exitCode;
    outcome.message = std::move(message);
    return outcome;
}

CommandLineOutcome usageError(const std::string& what) {
    return finished(2, "gravlab: error: " + what + "\nRun 'gravlab --help' to see every option and what it allows.\n");
}

/// An outcome that runs something: the app, bench or accuracy, chosen by which member the setter fills.
template <typename Setter> CommandLineOutcome running(Setter&& set) {
    CommandLineOutcome outcome;
    set(outcome);
    return outcome;
}

} // namespace

CommandLineOutcome parseCommandLine(int argc, const char* const* argv) {
    const AppOptions defaults;
    AppOptions options = defaults;
    RawOptions raw;
    CLI::App app{"Gravlab: a real-time GPU N-body gravity lab. Opens a window on the chosen scenario, or renders PNG "
                 "frames headless.",
                 "gravlab"};
    app.get_formatter()->column_width(34);
    addSimulationOptions(app, options.simulation, raw);
    addOutputOptions(app, defaults, options, raw);
    addOrbOptions(app, options, raw);
    BenchOptions bench;
    const CLI::App* benchCommand = addBenchCommand(app, bench);
    AccuracyOptions accuracy;
    const CLI::App* accuracyCommand = addAccuracyCommand(app, accuracy);
    app.footer("Scenarios:\n" + scenarioList() +
               "\nWith no flags, gravlab opens a window when a display is available; otherwise it renders " +
               std::to_string(defaults.frameCount) + " frames of the default scene to ./" +
               defaults.outputFolder.string() + " and says so.\n");

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        return finished(0, app.help());
    } catch (const CLI::ParseError& error) {
        return usageError(error.what());
    }
    if (*benchCommand)
        return running([&](CommandLineOutcome& outcome) { outcome.bench = bench; });
    if (*accuracyCommand)
        return running([&](CommandLineOutcome& outcome) { outcome.accuracy = accuracy; });
    if (raw.listScenarios)
        return finished(0, scenarioList());
    try {
        completeOptions(app, raw, options);
    } catch (const InvalidParameterError& error) {
        return usageError("--" + error.field() + ": " + error.what());
    }
    return running([&](CommandLineOutcome& outcome) { outcome.options = options; });
}

} // namespace gravlab
