#pragma once
// Headless mode: step the simulation and write every frame as a PNG, or into a movie, with no window system at all.
//
// Design note: the frames go through the same session controller and frame pipeline as the window; this loop only
// adds the offscreen target and the files. One frame is: SessionController::advanceFrame() (steps stepsPerFrame
// times, not before the first frame, which shows the initial conditions; pushes the vertices and marks the overlays
// stale after each step) -> FramePipeline::updateOverlays() with the headless view (the octree cells of the chosen
// depths, the ORB cells with --orb-cells, no pick) -> FramePipeline::render() into an OffscreenTarget (EGL context) ->
// read back (FramebufferReadback) -> FrameOutputs: the movie's ffmpeg and the PNG writer pool, which encode while the
// next frame is simulated and drawn. The first failure of a write stops the run naming the file. A step that leaves a
// non-finite state stops the run with the backend's report (the controller would pause; nobody is there to lower dt).
// Before frame 0 the backend partitions the initial bodies (Simulation does, when it loads them), so the first frame
// already shows the domains; the bodies' palette follows the backend's orbStatus() rather than the requested colour
// mode alone, since ORB domain colours fall back to components while ORB is off. Energy is not measured automatically:
// nothing shows it here. The camera is fitted once to the initial bodies (which also sizes the particles) and then
// held still, so a sequence of frames plays as a movie; a session's camera, when one was given, replaces the fitted
// pose. It is refitted (keeping its angles) only when the bulk of the mass has left the view (CameraWatch; never with
// --camera fixed), and frames with nothing lit are counted: the summary names the refits and the dark frames. A
// session's paused state does not apply: frames always step. Progress goes to stderr on one line rewritten with '\r'
// when stderr is a terminal, and as a plain line per tenth of the run otherwise, so logs stay readable.
// With a comparison (--compare) each frame's left half is the main run and its right half the comparison run, one
// camera fitted to the half's aspect; the comparison follows every frame's steps, samples each frame, and the summary
// ends with the final divergence (the CSV, with --compare-csv, is written after the frames).
#include "CommandLine.hpp"
#include "output/FrameOutputs.hpp"
#include "session/SessionController.hpp"
#include "session/SnapshotSaver.hpp"

#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/sim/ColorScale.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <optional>
#include <ostream>

namespace gravlab {

struct HeadlessSettings {
    int frameCount = 120;
    int stepsPerFrame = 1;
    int width = 1280; ///< pixels
    int height = 720; ///< pixels
    ColorMode colorMode = ColorMode::Component;
    ColorScaleChoice colorScale = ColorScaleChoice::Auto; ///< log, linear or auto for per-body quantities
    TreeOverlaySettings treeOverlay;   ///< the octree cells drawn over the bodies (none with onlyPickedPath: no pick)
    OrbOverlaySettings orbOverlay;     ///< the ORB cells (the domains) drawn over the bodies
    std::optional<CameraState> camera; ///< a session's camera; none: fitted to the initial bodies
    bool cameraFollowsBodies = true;   ///< refit the camera when the bulk of the bodies leaves the view
    SnapshotSaving saving;             ///< snapshots while running (--save-every)
    bool progressOnOneLine = true;     ///< rewrite one line with '\r' (a terminal) or print a line per tenth (a log)
    std::optional<std::filesystem::path> plotsCsv; ///< the plots' time series, written after the last frame
    std::uint64_t plotsEverySteps = 0;             ///< steps between plot samples; 0: stepsPerFrame (one per frame)
    /// A comparison run drawn in the right half of every frame (ComparisonView); none: one run, the whole frame.
    std::optional<ComparisonChoice> compare;
    std::optional<std::filesystem::path> compareCsv; ///< the divergence history is written here at the end
};

HeadlessSettings headlessSettingsFrom(const AppOptions& options);
/// The session a headless run drives: its frames' steps, snapshots and plot samples, no automatic energy measurement.
/// The MPI ranks that follow rank 0 drive the same session, so they make the same collective calls.
SessionSettings sessionSettingsFrom(const HeadlessSettings& settings);
/// The PNG folder (unless only a movie was asked for), the movie, its rate and encoder.
FrameOutputSettings frameOutputSettingsFrom(const AppOptions& options);

/// Renders the frames into outputs, opened beforehand (so that they refuse before any simulation work), and finishes
/// them; progress goes to progress, the summary line to summary. Throws std::runtime_error naming the frame it
/// stopped at when rendering, stepping or writing fails. context: the headless context, current on this thread,
/// created before the simulation (whose GL backend, if it has one, lives in it) and outliving it.
void renderFramesHeadless(const HeadlessContext& context, Simulation& simulation, const HeadlessSettings& settings,
                          FrameOutputs& outputs, std::ostream& progress, std::ostream& summary);

} // namespace gravlab
