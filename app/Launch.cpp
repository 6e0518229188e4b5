// Window or headless: the decision and its fallbacks.
#include "Launch.hpp"

#include "HeadlessRun.hpp"
#include "OutputFolder.hpp"
#include "ViewerApp.hpp"

#include <cstdlib>
#include <unistd.h>

namespace gravlab {

namespace {

bool environmentSet(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && value[0] != '\0';
}

/// On a GPU the default scene is larger and uses the pair-once solver, unless the user chose otherwise.
SimParams withDeviceDefaults(const AppOptions& options) {
    SimParams params = options.simulation;
    if (!cudaBackendWouldBeChosen(params))
        return params;
    if (!options.bodyCountGiven)
        params.bodyCount = kDefaultCudaBodyCount;
    if (!options.solverGiven)
        params.solver = kDefaultCudaSolver;
    return params;
}

} // namespace

bool displayAnnounced() {
    return environmentSet("DISPLAY") || environmentSet("WAYLAND_DISPLAY");
}

int runGravlab(const AppOptions& options, std::ostream& out, std::ostream& err) {
    // Refuse an unusable --out before spending time on the initial conditions.
    if (options.headless)
        prepareOutputFolder(options.outputFolder);
    Simulation simulation(withDeviceDefaults(options));
    err << "gravlab: " << simulation.params().scenario << ", " << simulation.bodyCount() << " bodies, solver "
        << toString(simulation.params().solver) << ", on " << simulation.backend().description() << '\n';
    if (!options.headless) {
        if (!displayAnnounced()) {
            err << "gravlab: no display found (DISPLAY and WAYLAND_DISPLAY are unset), so rendering "
                << options.frameCount << " frames headless instead of opening a window.\n";
        } else {
            try {
                ViewerApp viewer(simulation, {options.width, options.height, options.stepsPerFrameFor(false)});
                viewer.run();
                return 0;
            } catch (const WindowUnavailableError& error) {
                err << "gravlab: could not open a window (" << error.what() << "), so rendering " << options.frameCount
                    << " frames headless instead.\n";
            }
        }
    }
    HeadlessSettings settings = headlessSettingsFrom(options);
    settings.progressOnOneLine = isatty(STDERR_FILENO) == 1;
    renderFramesHeadless(simulation, settings, err, out);
    return 0;
}

} // namespace gravlab
