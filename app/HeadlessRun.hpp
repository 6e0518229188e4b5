#pragma once
// Headless mode: step the simulation and write every frame as a PNG, with no window system at all.
//
// Design note: one frame is: step stepsPerFrame times (not before the first frame, which shows the initial
// conditions) -> copy positions into the vertex buffer, the octree cells of the chosen depths into the overlay
// (TreeOverlayFeed, as in the window) and, with --orb-cells, the ORB cells into theirs (OrbCellFeed) -> SceneRenderer
// into an OffscreenTarget (EGL context) -> read back -> PNG. Before frame 0 the backend partitions the initial bodies
// (updateOrbDomains), so the first frame already shows the domains; the bodies' palette follows the backend's
// orbStatus() rather than the requested colour mode alone, since ORB domain colours fall back to components while ORB
// is off. The
// camera is fitted once to the initial bodies and then held still, so a sequence of frames plays as a movie. Progress
// goes to stderr on one line rewritten with '\r' when stderr is a terminal, and as a plain line per tenth of the run
// otherwise, so logs stay readable.
#include "CommandLine.hpp"

#include <Simulation.hpp>
#include <filesystem>
#include <optional>
#include <ostream>

namespace gravlab {

struct HeadlessSettings {
    int frameCount = 120;
    int stepsPerFrame = 1;
    int width = 1280; ///< pixels
    int height = 720; ///< pixels
    std::filesystem::path outputFolder;
    ColorMode colorMode = ColorMode::Component;
    std::optional<TreeDepthRange> overlayDepths; ///< octree depths drawn over the bodies; none: no overlay
    bool orbCells = false;                       ///< draw the ORB cells (the domains) over the bodies
    bool progressOnOneLine = true; ///< rewrite one line with '\r' (a terminal) or print a line per tenth (a log)
};

HeadlessSettings headlessSettingsFrom(const AppOptions& options);

/// Renders the frames into settings.outputFolder, which the caller has checked with prepareOutputFolder; progress
/// goes to progress, the summary line to summary. Throws std::runtime_error (naming how many frames were written) when
/// rendering or stepping fails.
void renderFramesHeadless(Simulation& simulation, const HeadlessSettings& settings, std::ostream& progress,
                          std::ostream& summary);

} // namespace gravlab
