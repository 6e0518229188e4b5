// Window or headless: the decision and its fallbacks.
#include "Launch.hpp"

#include "GlBackendChoice.hpp"
#include "HeadlessRun.hpp"
#include "MeasuredWindowDefaults.hpp"
#include "MpiRanks.hpp"
#include "ViewerApp.hpp"

#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/render/RenderMemory.hpp>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <unistd.h>

namespace gravlab {

namespace {

bool environmentSet(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && value[0] != '\0';
}

/// Whether the options ask for something only the tree solver can show (the overlay, leaf-depth or force-error
/// colours).
bool wantsTree(const AppOptions& options) {
    return options.treeOverlay.enabled || options.colorMode == ColorMode::LeafDepth ||
           options.colorMode == ColorMode::ForceError;
}

/// Whether the window opens with a scenario whose size the user left open, off CUDA: then a quick measurement on the
/// backend it steps on picks the body count (MeasuredWindowDefaults.hpp).
bool wantsMeasuredDefaults(const AppOptions& options) {
    return !cudaBackendWouldBeChosen(options.simulation) && !options.headless && !options.bodyCountGiven &&
           options.simulation.initialFile.empty() && displayAnnounced();
}

/// On a GPU the default scene is larger and uses the GPU's default solver, unless the user chose otherwise or asked
/// for a softening it does not take (softening 0: the exact direct sum stays); asking
/// for the octree overlay or leaf-depth colours without naming a solver chooses the tree, which is what draws them.
/// A window on the CPU opens with as many bodies as a quick measurement says keep it at 30 frames/s (measured); one
/// asking for GL is measured once the window has moved onto it.
SimParams withLaunchDefaults(const AppOptions& options, std::optional<InteractiveDefaults>& measured,
                             std::ostream& err) {
    SimParams params = options.simulation;
    const bool onDevice = cudaBackendWouldBeChosen(params);
    if (onDevice && !options.bodyCountGiven)
        params.bodyCount = kDefaultCudaBodyCount;
    if (wantsMeasuredDefaults(options) && params.backend != BackendKind::Gl) {
        measured = measureWindowDefaults(params, options.stepsPerFrameFor(false), createBackend, err);
        params.bodyCount = measured->bodyCount;
    }
    if (!options.solverGiven && wantsTree(options))
        params.solver = treeDrawingSolver().name;
    else if (!options.solverGiven && onDevice && params.softeningLength >= findSolver(kDefaultGpuSolver).minSoftening)
        params.solver = kDefaultGpuSolver; // softening 0 keeps the direct sum, the solvers that take it
    return params;
}

/// A note when the user named a solver that cannot show what they asked for, so empty overlays are not a mystery.
void noteTreeOnlyOptions(const AppOptions& options, const SolverInfo& solver, std::ostream& err) {
    if (!wantsTree(options) || solver.drawsTreeCells)
        return;
    err << "gravlab: note: "
        << (options.treeOverlay.enabled ? std::string("--overlay-depth")
                                        : "--color " + std::string(enumName(options.colorMode)))
        << " needs --solver " << treeDrawingSolver().name << "; solver '" << solver.name << "' builds no octree, so "
        << (options.treeOverlay.enabled ? "no cells are drawn" : "bodies keep their component colours") << ".\n";
}

/// "galaxy-collision", or the file's name ("snap_042.hdf5") when the bodies come from one.
std::string initialConditionsName(const SimParams& params) {
    if (params.initialFile.empty())
        return params.scenario;
    return std::filesystem::path(params.initialFile).filename().string();
}

ViewerSettings viewerSettingsFrom(const AppOptions& options) {
    ViewerSettings settings;
    settings.width = options.width;
    settings.height = options.height;
    if (options.uiScale)
        settings.uiScale = float(*options.uiScale);
    settings.fullscreen = options.fullscreen;
    settings.quitAfterSeconds = options.quitAfterSeconds;
    settings.stepsPerFrame = options.stepsPerFrameFor(false);
    settings.saving = options.saving;
    settings.colorMode = options.colorMode;
    settings.colorScale = options.colorScale;
    settings.treeOverlay = options.treeOverlay;
    settings.orbOverlay = options.orbOverlay;
    settings.camera = options.camera;
    settings.startPaused = options.startPaused;
    settings.autoRefreshEnergy = options.autoRefreshEnergy;
    if (options.plotsCsv)
        settings.plotsCsv = *options.plotsCsv;
    if (options.sessionFile)
        settings.sessionFile = *options.sessionFile;
    settings.recording = {options.outputFolder, options.framesPerSecond, options.movieEncoder};
    settings.compare = options.compare;
    settings.compareCsv = options.compareCsv;
    return settings;
}

} // namespace

bool displayAnnounced() {
    return environmentSet("DISPLAY") || environmentSet("WAYLAND_DISPLAY");
}

int runGravlab(const AppOptions& given, std::ostream& out, std::ostream& err) {
    // Under mpirun every rank makes the simulation; rank 0 alone draws and writes (MpiRanks.hpp).
    const AppOptions options = runsAcrossRanks() ? optionsAcrossRanks(given) : given;
    // Refuse an unusable --out, a missing ffmpeg or an encoder that does not work before spending time on the initial
    // conditions.
    const bool follower = followsRankZero();
    std::optional<FrameOutputs> outputs;
    if (options.headless && !follower)
        outputs.emplace(frameOutputSettingsFrom(options), err);
    // A headless run makes its GL context before the simulation, so a GL backend can live in it and is destroyed
    // before it. A window's context exists only once the window is open: a run asking for gl starts on the CPU and
    // the window moves it onto GL (ViewerGlBackend.cpp).
    const bool windowAsked = !options.headless && displayAnnounced();
    std::optional<HeadlessContext> context;
    if (!windowAsked && !follower)
        context.emplace();
    std::optional<InteractiveDefaults> measured;
    SimParams params = withLaunchDefaults(options, measured, err);
    const bool glAsked = params.backend == BackendKind::Gl;
    if (windowAsked && glAsked)
        params.backend = BackendKind::Cpu;
    // The memory check counts what rendering will hold next to the bodies, so a run too large to draw is refused
    // before anything is generated (InsufficientMemoryError, exit status 2).
    Simulation simulation(params, appBackendFactory(), renderMemory());
    if (options.gravitationalConstantGiven &&
        simulation.params().gravitationalConstant != options.simulation.gravitationalConstant) {
        SimParams explicitGravity = simulation.params(); // --G wins over the G of a loaded file's units
        explicitGravity.gravitationalConstant = options.simulation.gravitationalConstant;
        simulation.setParams(explicitGravity);
    }
    if (follower)
        return followHeadlessRun(simulation, headlessSettingsFrom(options));
    err << "gravlab: " << initialConditionsName(simulation.params()) << ", " << simulation.bodyCount()
        << " bodies, solver " << simulation.params().solver << ", on " << simulation.backend().description() << '\n';
    if (simulation.params().units.physical())
        err << "gravlab: units " << simulation.params().units.summary() << '\n';
    noteTreeOnlyOptions(options, findSolver(simulation.params().solver), err);
    if (!options.headless && !displayAnnounced())
        err << "gravlab: no display found (DISPLAY and WAYLAND_DISPLAY are unset), so rendering " << options.frameCount
            << " frames headless instead of opening a window.\n";
    if (windowAsked) {
        try {
            ViewerSettings settings = viewerSettingsFrom(options);
            settings.glBackendAsked = glAsked;
            settings.measureBodyCountOnGl = wantsMeasuredDefaults(options);
            if (measured)
                settings.stepsPerFrame = measured->stepsPerFrame;
            ViewerApp viewer(simulation, settings);
            viewer.run(err);
            return 0;
        } catch (const WindowUnavailableError& error) {
            err << "gravlab: could not open a window (" << error.what() << "), so rendering " << options.frameCount
                << " frames headless instead.\n";
        }
    }
    if (!outputs) // falling back to headless: the outputs were not opened up front
        outputs.emplace(frameOutputSettingsFrom(options), err);
    if (!context) { // the window could not open: the headless context is made now, and a gl run moves into it
        context.emplace();
        if (glAsked) {
            SimParams onGl = simulation.params();
            onGl.backend = BackendKind::Gl;
            simulation.setParams(onGl);
        }
    }
    HeadlessSettings settings = headlessSettingsFrom(options);
    settings.progressOnOneLine = isatty(STDERR_FILENO) == 1;
    renderFramesHeadless(*context, simulation, settings, *outputs, err, out);
    return 0;
}

} // namespace gravlab
