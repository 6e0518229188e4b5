// Command-line flags (CLI11), their ranges and the messages for bad values.
#include "CommandLine.hpp"

#include "CompareOptions.hpp"
#include "OptionParsing.hpp"
#include "ScenarioGalleryText.hpp"
#include "session/DiagnosticsSampler.hpp"
#include "session/SessionFile.hpp"

#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <vector>

namespace gravlab {
namespace {

/// Flags converted after parsing through the sim's name parsers, and --steps-per-frame before it becomes optional.
struct RawOptions {
    std::string scenario;
    std::vector<std::string> scenarioParams;
    std::string loadFormat;
    std::string saveFormat;
    std::string solver;
    std::string backend;
    std::string opening;
    std::string precision;
    std::string color;
    std::string colorScale;
    std::string overlayDepth;
    std::string orbBalance;
    std::string timeSteps;
    std::string levelChoice;
    std::string movie;
    std::string movieEncoder;
    int stepsPerFrame = 1;
    bool listScenarios = false;
    CompareFlags compare;
};

void addSimulationOptions(CLI::App& app, SimParams& params, RawOptions& raw) {
    const SimParams defaults;
    app.add_option("--scenario", raw.scenario, "initial conditions (see the list below)")
        ->type_name("NAME")
        ->default_str(defaults.scenario);
    app.add_option("--scenario-param", raw.scenarioParams,
                   "a parameter of the scenario, NAME=VALUE; repeat for several (each scenario's are listed below)")
        ->type_name("NAME=VALUE")
        ->allow_extra_args(false);
    addNumberOption(app, kBodyCountRange, NumberKind::Whole, params.bodyCount, "number of bodies")
        ->type_name("N")
        ->default_str(std::to_string(defaults.bodyCount) + " on the CPU, " + std::to_string(kDefaultCudaBodyCount) +
                      " on a GPU");
    app.add_option_function<std::string>(
           "--seed",
           [&params](const std::string& text) {
               params.seed = rethrowForFlag("seed", [&] { return parseSeed(text); });
           },
           "seed of the scenario's random sampling, any whole number >= 0")
        ->type_name("N")
        ->default_str(std::to_string(defaults.seed));
    addNumberOption(
        app, kTimeStepRange, NumberKind::Real, params.timeStep,
        "leapfrog time step, in the simulation's time unit (N-body units unless a --load file states physical "
        "ones: docs/UNITS.md)");
    app.add_option("--time-steps", raw.timeSteps,
                   "fixed (every body takes dt) or hierarchical (each body dt / 2^level, the level from its "
                   "acceleration: for eccentric orbits, close passages and collapses)")
        ->type_name("NAME")
        ->default_str(std::string(toString(defaults.timeSteps.mode)));
    addNumberOption(app, kTimeStepAccuracyRange, NumberKind::Real, params.timeSteps.accuracy,
                    "hierarchical steps: a body's step is at most eta sqrt(softening / |a|), or under "
                    "--level-choice tidal eta times its dynamical time (0.02 to 0.05 there)");
    addNumberOption(app, kMaxTimeStepLevelRange, NumberKind::Whole, params.timeSteps.maxLevel,
                    "hierarchical steps: the deepest level, whose step is dt / 2^level");
    app.add_option("--level-choice", raw.levelChoice,
                   "hierarchical steps: how a body's level is chosen: start (the criterion at each step's start), "
                   "symmetric (averaged over each step's two ends, the end's acceleration extrapolated: less energy "
                   "drift for the same cost) or tidal (a fraction eta of the body's dynamical time, from how its "
                   "acceleration changed over its last step: short steps in dense cores, long ones in smooth fields)")
        ->type_name("NAME")
        ->default_str(std::string(enumName(defaults.timeSteps.levelChoice)));
    addNumberOption(app, kSofteningRange, NumberKind::Real, params.softeningLength,
                    "Plummer softening length, in the simulation's length unit");
    addNumberOption(app, kGravitationalConstantRange, NumberKind::Real, params.gravitationalConstant,
                    "gravitational constant (1 in N-body units; a --load file with physical units sets it, e.g. "
                    "43009 for kpc, 1e10 Msun, km/s, and --G overrides that)");
    addNumberOption(app, kOpeningAngleRange, NumberKind::Real, params.openingAngle,
                    "Barnes-Hut opening angle of the tree solver (smaller: more accurate, slower); under --opening "
                    "relative, the criterion of an evaluation without previous accelerations");
    app.add_option("--opening", raw.opening,
                   "the tree's opening criterion: geometric (theta) or relative (a cell's estimated force error "
                   "below --force-accuracy times the body's last acceleration: the same accuracy for less work)")
        ->type_name("NAME")
        ->default_str(std::string(toString(defaults.openingCriterion)));
    addNumberOption(app, kForceAccuracyRange, NumberKind::Real, params.forceAccuracy,
                    "tolerated force error of one cell under --opening relative, relative to the body's acceleration "
                    "(smaller: more accurate, slower)");
    app.add_option("--solver", raw.solver, "force solver: " + solversHelpText())
        ->type_name("NAME")
        ->default_str(defaults.solver + " on the CPU, " + std::string(kDefaultGpuSolver) + " on a GPU; " +
                      std::string(treeDrawingSolver().name) + " with --overlay-depth or --color leaf-depth");
    app.add_option(
           "--backend", raw.backend,
           "where the simulation runs: auto (CUDA when a GPU is present, else GL compute "
           "shaders on a hardware GL driver, else the CPU), cuda, cpu, gl (OpenGL 4.5 compute shaders: any GPU)")
        ->type_name("NAME")
        ->default_str(std::string(toString(defaults.backend)));
    app.add_option("--precision", raw.precision,
                   "state and integration precision: single, or double (fp64 positions, velocities and kicks; fp64 "
                   "forces with --solver direct-fp64) for long, accurate runs of few bodies")
        ->type_name("NAME")
        ->default_str(std::string(toString(defaults.precision)));
}

void addFileOptions(CLI::App& app, AppOptions& options, RawOptions& raw) {
    const std::string formats = listNames(EnumNames<SnapshotFormat>::entries);
    app.add_option("--load", options.simulation.initialFile,
                   "start from the bodies of a snapshot file instead of a scenario (tipsy, tipsy-native, hdf5 or csv, "
                   "told apart by their first bytes); its bodies set N and its units, where it states them, set G")
        ->type_name("FILE");
    app.add_option("--format", raw.loadFormat, "format of the --load file when its bytes do not tell: " + formats)
        ->type_name("NAME");
    app.add_flag("--recentre", options.simulation.recentre,
                 "move the loaded bodies to their centre-of-mass frame (by default a file's values are kept exactly)");
    addNumberOption(app, kSaveEveryRange, NumberKind::Whole, options.saving.everySteps,
                    "write a snapshot every K steps, the initial state included (window or headless)")
        ->type_name("K")
        ->default_str("0 (none)");
    app.add_option("--save-dir", options.saving.folder, "folder for snapshot_00000000.hdf5, ... (created if missing)")
        ->type_name("DIR")
        ->default_str(options.saving.folder.string());
    app.add_option("--save-format", raw.saveFormat, "format of the snapshots: " + formats)
        ->type_name("NAME")
        ->default_str(std::string(enumName(options.saving.format)));
    app.add_option("--plots-csv", options.plotsCsv,
                   "headless: write the plots' time series (energy error, momentum drifts, virial ratio, Lagrangian "
                   "radii, step time per phase; one row per sample, units in the header) to FILE after the last frame")
        ->type_name("FILE");
    addNumberOption(app, kPlotsEveryRange, NumberKind::Whole, options.plotsEverySteps,
                    "steps between the --plots-csv samples")
        ->type_name("K")
        ->default_str("0 (one per frame)");
}

/// --load and --save-* flags: formats parsed, and the flags that mean nothing without their partner refused.
void completeFileOptions(const CLI::App& app, const RawOptions& raw, AppOptions& options) {
    SimParams& params = options.simulation;
    const bool loading = !params.initialFile.empty();
    for (const char* scenarioFlag : {"--scenario", "--scenario-param", "--bodies", "--seed"})
        if (loading && app.count(scenarioFlag) > 0)
            throw UsageError(std::string(scenarioFlag) + " has no effect with --load: the file's bodies are the "
                                                         "initial conditions. Drop one of the two.");
    for (const char* loadFlag : {"--format", "--recentre"})
        if (!loading && app.count(loadFlag) > 0)
            throw UsageError(std::string(loadFlag) + " applies to a file given with --load, and there is none.");
    if (app.count("--format") > 0)
        params.initialFileFormat =
            rethrowForFlag("format", [&] { return parseEnumName<SnapshotFormat>(raw.loadFormat); });
    if (app.count("--save-format") > 0)
        options.saving.format =
            rethrowForFlag("save-format", [&] { return parseEnumName<SnapshotFormat>(raw.saveFormat); });
    for (const char* saveFlag : {"--save-dir", "--save-format"})
        if (options.saving.everySteps == 0 && app.count(saveFlag) > 0)
            throw UsageError(std::string(saveFlag) + " needs --save-every K (K > 0) to write any snapshot.");
    if (app.count("--plots-every") > 0 && !options.plotsCsv)
        throw UsageError("--plots-every sets the rows of --plots-csv FILE, and there is none.");
    options.gravitationalConstantGiven = app.count("--G") > 0;
}

void addOutputOptions(CLI::App& app, const AppOptions& defaults, AppOptions& options, RawOptions& raw) {
    addNumberOption(app, kStepsPerFrameRange, NumberKind::Whole, raw.stepsPerFrame, "simulation steps per frame")
        ->type_name("N")
        ->default_str("1 in a window, " + std::to_string(AppOptions::kHeadlessStepsPerFrame) + " headless");
    app.add_flag("--headless", options.headless,
                 "render PNG frames (or a --movie) through EGL instead of opening a window");
    addNumberOption(app, kFrameCountRange, NumberKind::Whole, options.frameCount,
                    "frames to render (implies --headless)")
        ->type_name("N");
    app.add_option("--out", options.outputFolder,
                   "folder for frame_00000.png, ... (created if missing; implies --headless)")
        ->type_name("DIR")
        ->default_str(defaults.outputFolder.string());
    addNumberOption(app, kWidthRange, NumberKind::Whole, options.width, "image or window width in pixels")
        ->type_name("N");
    addNumberOption(app, kHeightRange, NumberKind::Whole, options.height, "image or window height in pixels")
        ->type_name("N");
    app.add_option_function<std::string>(
           "--ui-scale",
           [&options](const std::string& text) {
               options.uiScale = parseNumberForFlag("ui-scale", kUiScaleRange, text, NumberKind::Real);
           },
           "window: " + std::string(kUiScaleRange.meaning) + " for projectors and high-DPI screens, " +
               describeRange(kUiScaleRange))
        ->type_name("FLOAT")
        ->default_str("the monitor's content scale");
    app.add_flag("--fullscreen", options.fullscreen, "window: start fullscreen on the window's monitor (F11 toggles)");
    app.add_option_function<std::string>(
           "--quit-after",
           [&options](const std::string& text) {
               options.quitAfterSeconds = parseNumberForFlag("quit-after", kQuitAfterRange, text, NumberKind::Real);
           },
           "window: close after this many seconds and print the display frames/s and steps/s (for demonstrations "
           "and measurements), " +
               describeRange(kQuitAfterRange))
        ->type_name("SECONDS");
    app.add_option_function<std::string>(
           "--camera", [&options](const std::string& mode) { options.cameraFollowsBodies = mode == "follow"; },
           "headless: follow (refit the still camera when the bodies leave the view) or fixed (never refit)")
        ->check(CLI::IsMember({"follow", "fixed"}))
        ->type_name("MODE")
        ->default_str("follow");
    app.add_option("--color", raw.color,
                   "what colours the bodies: " + listNames(EnumNames<ColorMode>::entries) + "; orb-domain implies ORB")
        ->type_name("MODE")
        ->default_str(std::string(toString(defaults.colorMode)) + "; orb-domain while ORB is on");
    app.add_option("--color-scale", raw.colorScale,
                   "how --color's per-body quantities map to colours: " +
                       listNames(EnumNames<ColorScaleChoice>::entries))
        ->type_name("SCALE")
        ->default_str("auto");
    app.add_option("--overlay-depth", raw.overlayDepth,
                   "draw the octree cells of depths MIN..MAX (0 = root, at most " + std::to_string(kMaxOverlayDepth) +
                       ") as wireframe boxes, in the window and in headless frames; tree solver only")
        ->type_name("MIN:MAX");
    app.add_flag("--list-scenarios", raw.listScenarios,
                 "print the scenario gallery (what each shows, what to look for, time scales, suggested settings, "
                 "parameters) and exit");
}

/// The session's values as the base of options (see the design note on sessions).
void applySession(const SavedSession& session, AppOptions& options) {
    options.simulation = session.params;
    options.camera = session.camera;
    options.colorMode = session.colorMode;
    options.colorScale = session.colorScale;
    options.treeOverlay = session.treeOverlay;
    options.orbOverlay = session.orbOverlay;
    options.startPaused = session.paused;
    options.stepsPerFrame = session.stepsPerFrame;
    options.autoRefreshEnergy = session.autoRefreshEnergy;
}

void addSessionOption(CLI::App& app, AppOptions& options) {
    app.add_option_function<std::string>(
           "--session",
           [&options](const std::string& file) {
               try {
                   applySession(loadSession(file), options);
               } catch (const SessionFileError& error) {
                   throw CLI::ValidationError("--session", error.what());
               }
               options.sessionFile = file;
           },
           "start from a saved session (a JSON file the window's Session panel writes; see the README); flags given "
           "on the same command line override its values")
        ->type_name("FILE")
        ->trigger_on_parse();
}

void addMovieOptions(CLI::App& app, const AppOptions& defaults, AppOptions& options, RawOptions& raw) {
    app.add_option("--movie", raw.movie,
                   "encode the frames into an H.264 MP4 through ffmpeg instead of PNG files (with --out, both); "
                   "implies --headless. In the window, key M or the Record button records into " +
                       defaults.outputFolder.string() + "/gravlab_DATE_TIME.mp4")
        ->type_name("FILE");
    app.add_option("--movie-encoder", raw.movieEncoder,
                   "ffmpeg's video encoder for movies and recordings, e.g. libx264, h264_nvenc, libx265")
        ->type_name("NAME")
        ->default_str("h264_nvenc when a trial encode works, else libx264");
    addNumberOption(app, kFramesPerSecondRange, NumberKind::Real, options.framesPerSecond,
                    "playback rate of movies and recordings (each rendered frame is one movie frame)")
        ->type_name("N");
}

void addOrbOptions(CLI::App& app, AppOptions& options, RawOptions& raw) {
    OrbParams& orb = options.simulation.orb;
    const std::string defaultCount = std::to_string(kDefaultOrbDomainCount);
    addNumberOption(app, kOrbDomainRange, NumberKind::Whole, orb.domainCount,
                    "split the bodies into D domains by orthogonal recursive bisection (ORB). The other ORB flags "
                    "without it switch ORB on with min(" +
                        defaultCount +
                        ", N) domains; while ORB is on, bodies are coloured by domain unless --color is given. 0 = "
                        "off, at most --bodies")
        ->type_name("D")
        ->default_str("0 (off)");
    app.add_option("--orb-balance", raw.orbBalance,
                   "what ORB balances between domains: count (bodies) or work (force interactions)")
        ->type_name("NAME")
        ->default_str(std::string(toString(orb.balance)));
    addNumberOption(app, kOrbRebuildIntervalRange, NumberKind::Whole, orb.rebuildInterval,
                    "full ORB re-partition every K steps (1 = every step); in between, bodies migrate between fixed "
                    "cells")
        ->type_name("K");
    addNumberOption(app, kOrbImbalanceLimitRange, NumberKind::Real, orb.imbalanceLimit,
                    "re-partition early when the largest domain over the mean passes X")
        ->type_name("X");
    app.add_flag("--orb-cells", options.orbOverlay.showCells,
                 "draw the ORB cells (the domains) as wireframe boxes in their bodies' colours, in the window and in "
                 "headless frames");
}

/// One ORB flag the command line gave besides --orb-domains, as a sentence names it and as the user would drop it.
struct OrbFlagGiven {
    std::string field;   ///< "orb-every"
    std::string setting; ///< "orb-every = 5", "color = 'orb-domain'"
    std::string flag;    ///< "--orb-every", "--color orb-domain"
};

/// The ORB flags given on the command line besides --orb-domains, in the order they are named; values as typed.
std::vector<OrbFlagGiven> orbFlagsGiven(const CLI::App& app, const RawOptions& raw, const AppOptions& options) {
    std::vector<OrbFlagGiven> given;
    if (app.count("--orb-cells") > 0)
        given.push_back({"orb-cells", "orb-cells", "--orb-cells"});
    if (app.count("--color") > 0 && options.colorMode == ColorMode::OrbDomain)
        given.push_back({"color", "color = 'orb-domain'", "--color orb-domain"});
    if (app.count("--orb-balance") > 0)
        given.push_back({"orb-balance", "orb-balance = '" + raw.orbBalance + "'", "--orb-balance"});
    for (const char* field : {"orb-every", "orb-imbalance"}) {
        const CLI::Option* option = app.get_option(std::string("--") + field);
        if (option->count() > 0)
            given.push_back({field, std::string(field) + " = " + option->results().back(), std::string("--") + field});
    }
    return given;
}

/// "a", "a and b", "a, b and c" of the member of each flag.
std::string joined(const std::vector<OrbFlagGiven>& flags, std::string OrbFlagGiven::*member) {
    std::string text;
    for (std::size_t i = 0; i < flags.size(); ++i)
        text += (i == 0 ? "" : i + 1 == flags.size() ? " and " : ", ") + flags[i].*member;
    return text;
}

/// The ORB balance and the defaults of the design note; throws InvalidParameterError for a bad value, and for ORB
/// flags given with an explicit --orb-domains 0, which would otherwise be ignored without a word.
void completeOrbOptions(const CLI::App& app, const RawOptions& raw, AppOptions& options) {
    OrbParams& orb = options.simulation.orb;
    if (app.count("--orb-balance") > 0)
        orb.balance = parseOrbBalance(raw.orbBalance);
    const std::vector<OrbFlagGiven> given = orbFlagsGiven(app, raw, options);
    const bool domainsGiven = app.count("--orb-domains") > 0;
    if (domainsGiven && orb.domainCount == 0 && !given.empty()) {
        const std::string flags = joined(given, &OrbFlagGiven::flag);
        throw InvalidParameterError(given.front().field,
                                    joined(given, &OrbFlagGiven::setting) + (given.size() == 1 ? " needs" : " need") +
                                        " ORB domains, but orb-domains = 0 switches ORB off: give --orb-domains 1 "
                                        "or more, leave --orb-domains out for min(" +
                                        std::to_string(kDefaultOrbDomainCount) + ", N) domains, or drop " + flags);
    }
    const bool viewShowsDomains = options.orbOverlay.showCells || options.colorMode == ColorMode::OrbDomain;
    if (!domainsGiven && orb.domainCount == 0 && (!given.empty() || viewShowsDomains))
        orb.domainCount = defaultOrbDomainCount(options.simulation.bodyCount);
    const bool orbAskedForHere = domainsGiven || !given.empty();
    if (orb.domainCount > 0 && orbAskedForHere && app.count("--color") == 0)
        options.colorMode = ColorMode::OrbDomain;
}

/// Converts the names and validates everything; throws InvalidParameterError for the first bad value. The numbers
/// arrived while CLI11 parsed (addNumberOption).
void completeOptions(const CLI::App& app, const RawOptions& raw, AppOptions& options) {
    SimParams& params = options.simulation;
    if (app.count("--scenario") > 0)
        params.scenario = raw.scenario;
    for (const std::string& assignment : raw.scenarioParams)
        parseScenarioParamAssignment(assignment, params.scenarioParams);
    options.bodyCountGiven = app.count("--bodies") > 0 || options.sessionFile.has_value();
    options.solverGiven = app.count("--solver") > 0 || options.sessionFile.has_value();
    if (app.count("--solver") > 0)
        params.solver = findSolver(raw.solver).name;
    if (app.count("--backend") > 0)
        params.backend = parseBackendKind(raw.backend);
    if (app.count("--opening") > 0)
        params.openingCriterion = parseOpeningCriterion(raw.opening);
    if (app.count("--time-steps") > 0)
        params.timeSteps.mode = parseTimeStepMode(raw.timeSteps);
    if (app.count("--level-choice") > 0)
        params.timeSteps.levelChoice = parseEnumName<LevelChoice>(raw.levelChoice);
    if (app.count("--precision") > 0)
        params.precision = parsePrecision(raw.precision);
    if (app.count("--steps-per-frame") > 0)
        options.stepsPerFrame = raw.stepsPerFrame;
    if (app.count("--color") > 0)
        options.colorMode = parseColorMode(raw.color);
    if (app.count("--color-scale") > 0)
        options.colorScale = parseEnumName<ColorScaleChoice>(raw.colorScale);
    if (app.count("--overlay-depth") > 0) {
        options.treeOverlay.enabled = true;
        options.treeOverlay.depths = parseTreeDepthRange(raw.overlayDepth);
    }
    completeOrbOptions(app, raw, options);
    completeFileOptions(app, raw, options);
    options.outputFolderGiven = app.count("--out") > 0;
    if (app.count("--movie") > 0) {
        if (raw.movie.empty())
            throw InvalidParameterError("movie", "the movie's file name is empty; give one such as merger.mp4");
        options.movieFile = raw.movie;
    }
    if (app.count("--movie-encoder") > 0) {
        if (raw.movieEncoder.empty())
            throw InvalidParameterError("movie-encoder", "the encoder name is empty; try libx264 or h264_nvenc");
        options.movieEncoder = raw.movieEncoder;
    }
    if (app.count("--frames") > 0 || app.count("--out") > 0 || app.count("--movie") > 0)
        options.headless = true;
    validateSimParams(params);
    completeCompareOptions(app, raw.compare, params.openingAngle, options.compare, options.compareCsv);
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
                 "frames or a movie headless.",
                 "gravlab"};
    app.get_formatter()->column_width(34);
    addSimulationOptions(app, options.simulation, raw);
    addFileOptions(app, options, raw);
    addOutputOptions(app, defaults, options, raw);
    addOrbOptions(app, options, raw);
    addSessionOption(app, options);
    addMovieOptions(app, defaults, options, raw);
    addCompareOptions(app, raw.compare);
    BenchOptions bench;
    const CLI::App* benchCommand = addBenchCommand(app, bench);
    AccuracyOptions accuracy;
    const CLI::App* accuracyCommand = addAccuracyCommand(app, accuracy);
    TimeStepBenchOptions timeStepBench;
    const CLI::App* timeStepBenchCommand = addTimeStepBenchCommand(app, timeStepBench);
    ConvertOptions convert;
    const CLI::App* convertCommand = addConvertCommand(app, convert);
    app.footer("Scenarios (gravlab --list-scenarios describes each):\n" + scenarioSummaryText() +
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
    if (*timeStepBenchCommand)
        return running([&](CommandLineOutcome& outcome) { outcome.timeStepBench = timeStepBench; });
    if (*convertCommand)
        return running([&](CommandLineOutcome& outcome) { outcome.convert = convert; });
    if (raw.listScenarios)
        return finished(0, scenarioGalleryText());
    try {
        completeOptions(app, raw, options);
    } catch (const InvalidParameterError& error) {
        return usageError("--" + error.field() + ": " + error.what());
    } catch (const UsageError& error) {
        return usageError(error.what());
    }
    return running([&](CommandLineOutcome& outcome) { outcome.options = options; });
}

} // namespace gravlab
