// The headless frame loop: simulation steps, offscreen rendering through EGL, frames to PNG files or a movie.
#include "HeadlessRun.hpp"

#include "CameraWatch.hpp"
#include "ComparisonView.hpp"
#include "FramePipeline.hpp"
#include "session/DiagnosticsCsv.hpp"
#include "session/DivergenceCsv.hpp"
#include "session/SessionController.hpp"

#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/render/OffscreenTarget.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gravlab {

namespace {

void reportProgress(std::ostream& progress, bool onOneLine, int framesWritten, int frameCount,
                    const Simulation& simulation, double secondsElapsed) {
    const int tenth = std::max(frameCount / 10, 1);
    if (!onOneLine && framesWritten % tenth != 0 && framesWritten != frameCount)
        return;
    char line[160];
    std::snprintf(line, sizeof(line), "gravlab: frame %d/%d  t = %.4g  (%.2f frames/s)", framesWritten, frameCount,
                  simulation.time(), framesWritten / std::max(secondsElapsed, 1e-9));
    if (onOneLine)
        progress << '\r' << line << "   " << std::flush;
    else
        progress << line << '\n';
}

/// Frame 0 shows the initial conditions, before any step has built an octree. When the frames need one (overlay or
/// leaf-depth colours), or |a| colours need forces, evaluating the forces once builds it; the first step needs those
/// accelerations anyway.
void buildTreeForFirstFrame(Simulation& simulation, const HeadlessSettings& settings) {
    const bool needsTree = settings.treeOverlay.enabled || settings.colorMode == ColorMode::LeafDepth;
    // |a|, the potential and the force error colour frame 0 from that evaluation too.
    const bool needsForces = settings.colorMode == ColorMode::Acceleration ||
                             settings.colorMode == ColorMode::Potential || settings.colorMode == ColorMode::ForceError;
    if (!needsForces && (!needsTree || !findSolver(simulation.params().solver).drawsTreeCells))
        return;
    Vec3Arrays<float> accelerations;
    simulation.backend().readAccelerations(simulation.params(), accelerations);
}

/// Writes the plots' series when --plots-csv asked for it; the summary line names the file and its rows.
std::string writePlotsCsvIfAsked(const SessionController& session, const HeadlessSettings& settings) {
    if (!settings.plotsCsv)
        return {};
    writeDiagnosticsCsv(session.plotHistory(), *settings.plotsCsv);
    return "gravlab: wrote " + std::to_string(session.plotHistory().size()) + " plot samples to " +
           settings.plotsCsv->string() + "\n";
}

std::string overlaySummary(const HeadlessSettings& settings, const TreeOverlayFeed& feed) {
    if (!settings.treeOverlay.enabled)
        return {};
    return ", octree depths " + std::to_string(settings.treeOverlay.depths.min) + ".." +
           std::to_string(settings.treeOverlay.depths.max) + ": " + std::to_string(feed.cellCount()) +
           " cells in the last frame" + (feed.capped() ? " (capped)" : "");
}

/// The ORB domains of the last frame, when ORB ran: their count, balance and, with --orb-cells, the boxes drawn.
std::string orbSummary(const Simulation& simulation, const HeadlessSettings& settings, const SceneRenderer& scene) {
    const OrbStatus status = simulation.visuals().orbStatus();
    if (status.domainCount == 0)
        return {};
    char text[200];
    std::snprintf(text, sizeof(text), ", ORB %u domains (%s balance, imbalance %.3f memory %.3f work, %llu rebuilds)",
                  status.domainCount, std::string(toString(simulation.params().orb.balance)).c_str(),
                  status.imbalance.memory, status.imbalance.work, static_cast<unsigned long long>(status.rebuilds));
    std::string summary = text;
    if (settings.orbOverlay.showCells) {
        const OrbOverlayRenderer& overlay = scene.orbOverlay();
        summary += ", " + std::to_string(overlay.domainCount()) + " domain boxes in the last frame (" +
                   std::to_string(overlay.clippedBoxCount()) + " cut at the region of interest, " +
                   std::to_string(overlay.skippedBoxCount()) + " outside it)";
    }
    return summary;
}

/// Where the time went: the steps, and the frames without them (drawing, read-back and writing, including the wait
/// for the encoders to finish), so output speed is stated apart from the physics.
std::string timingSummary(std::size_t frameCount, double totalSeconds, double stepSeconds, int stepsPerFrame) {
    const double frameSeconds = std::max(totalSeconds - stepSeconds, 1e-9);
    const std::size_t steppedFrames = frameCount > 1 ? frameCount - 1 : 1;
    char text[320];
    std::snprintf(text, sizeof(text),
                  "gravlab: %zu frames in %.2f s: stepping %.2f s (%.2f ms per frame of %d steps), drawing and writing "
                  "%.2f s (%.1f frames/s without the steps)",
                  frameCount, totalSeconds, stepSeconds, 1e3 * stepSeconds / double(steppedFrames), stepsPerFrame,
                  frameSeconds, double(frameCount) / frameSeconds);
    return text;
}

std::string frameList(const std::vector<std::size_t>& frames) {
    std::string list;
    for (const std::size_t frame : frames)
        list += (list.empty() ? "" : ", ") + std::to_string(frame);
    return list;
}

/// The camera's refits and the dark frames, for the summary.
std::string cameraSummary(bool follows, const std::vector<std::size_t>& refits,
                          const std::vector<std::size_t>& darkFrames) {
    std::string text = !follows         ? "gravlab: camera fixed"
                       : refits.empty() ? "gravlab: camera held still (the bodies stayed in view)"
                                        : "gravlab: camera refitted at frames " + frameList(refits) +
                                              " (the bodies had left the view)";
    if (darkFrames.empty())
        return text + "; every frame had lit pixels";
    return text + "; " + std::to_string(darkFrames.size()) + " frames had nothing lit (" + frameList(darkFrames) +
           "): the bodies left the view or are too faint";
}

/// The seconds advance() took (a frame's steps, or frame 0's initial snapshot); throws the session's report when a
/// step left a non-finite state, met coincident bodies under softening 0, or a due snapshot could not be written
/// (nobody is there to lower dt or free the disk).
template <typename Advance> double timedAdvance(Advance&& advance) {
    const auto start = std::chrono::steady_clock::now();
    const FrameAdvance result = advance();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result.nonFiniteState)
        throw std::runtime_error(*result.nonFiniteState);
    if (result.coincidentBodies)
        throw std::runtime_error(*result.coincidentBodies);
    if (result.saveFailure)
        throw std::runtime_error(*result.saveFailure);
    return seconds;
}

/// Refits the camera to the bulk of the bodies when it has left the view; true when it did.
bool refitIfBulkLeft(std::span<const RenderVertex> vertices, std::size_t bodyCount, FramePipeline& pipeline,
                     OrbitCamera& camera, float aspect) {
    const SceneBounds bulk = robustBounds(vertices);
    if (!bulkLeftView(camera, aspect, bulk))
        return false;
    pipeline.fitCamera(bulk, bodyCount, camera, aspect);
    return true;
}

/// Waits for the encoders to write what is queued; a failure there still names what was written.
void finishOutputs(FrameOutputs& outputs, std::size_t frameCount) {
    try {
        outputs.finish();
    } catch (const std::exception& error) {
        throw std::runtime_error("stopped after rendering all " + std::to_string(frameCount) + " frames (" +
                                 outputs.describeRemains() + "): " + error.what());
    }
}

/// The snapshots written while running, as a summary line; nothing when saving was off.
std::string snapshotSummary(const SnapshotSaver& saver) {
    if (!saver.enabled())
        return {};
    return "gravlab: wrote " + std::to_string(saver.savedCount()) + " snapshots (every " +
           std::to_string(saver.saving().everySteps) + " steps, " + std::string(enumName(saver.saving().format)) +
           ") to " + saver.saving().folder.string() + "/\n";
}

/// Every frame is sampled; energies too while a pair of O(N^2) measurements stays under a second.
ComparisonCadence headlessComparisonCadence() {
    ComparisonCadence cadence;
    cadence.energyIntervalSeconds = 0;
    cadence.maxEnergySeconds = 1.0;
    return cadence;
}

/// The comparison's last sample as the summary's last line, and the CSV written when asked for.
void finishComparison(const ComparisonView& view, const Simulation& main, const HeadlessSettings& settings,
                      std::ostream& summary) {
    const Comparison& comparison = view.comparison();
    const DivergenceSample& last = comparison.history().latest();
    char text[400];
    std::snprintf(text, sizeof(text),
                  "gravlab: compare %s against %s at t = %.6g: rms position difference %.6g (%.6g half-mass radii), "
                  "largest %.6g; ",
                  runLabel(main.params()).c_str(), runLabel(comparison.run().params()).c_str(), last.simulationTime,
                  last.rmsPositionDifference, last.rmsOverHalfMassRadius, last.maxPositionDifference);
    summary << text;
    if (const DivergenceSample* measured = comparison.history().latestWithEnergies()) {
        std::snprintf(text, sizeof(text), "energy error at t = %.6g: %.3g (main), %.3g (comparison)",
                      measured->simulationTime, measured->energyErrorA, measured->energyErrorB);
        summary << text;
    } else {
        summary << "energy errors not measured (O(N^2) at N = " << main.bodyCount() << " is too slow)";
    }
    summary << (comparison.failure().empty() ? "" : "; " + comparison.failure()) << '\n';
    if (settings.compareCsv) {
        writeDivergenceCsv(*settings.compareCsv, comparison.history());
        summary << "gravlab: wrote the divergence history (" << comparison.history().size() << " samples) to "
                << settings.compareCsv->string() << '\n';
    }
}

} // namespace

HeadlessSettings headlessSettingsFrom(const AppOptions& options) {
    HeadlessSettings settings;
    settings.frameCount = options.frameCount;
    settings.stepsPerFrame = options.stepsPerFrameFor(true);
    settings.width = options.width;
    settings.height = options.height;
    settings.colorMode = options.colorMode;
    settings.colorScale = options.colorScale;
    settings.treeOverlay = options.treeOverlay;
    settings.orbOverlay = options.orbOverlay;
    settings.camera = options.camera;
    settings.cameraFollowsBodies = options.cameraFollowsBodies;
    settings.saving = options.saving;
    settings.plotsCsv = options.plotsCsv;
    settings.plotsEverySteps = options.plotsEverySteps;
    settings.compare = options.compare;
    settings.compareCsv = options.compareCsv;
    return settings;
}

SessionSettings sessionSettingsFrom(const HeadlessSettings& settings) {
    SessionSettings session;
    session.stepsPerFrame = settings.stepsPerFrame;
    session.colorMode = settings.colorMode;
    session.colorScale = settings.colorScale;
    session.autoRefreshEnergy = false;
    session.saving = settings.saving;
    // Plots only when a CSV is asked for: one sample per frame by default.
    session.plots.enabled = settings.plotsCsv.has_value();
    session.plots.everySteps =
        settings.plotsEverySteps > 0 ? settings.plotsEverySteps : std::uint64_t(std::max(settings.stepsPerFrame, 1));
    const std::uint64_t totalSteps =
        std::uint64_t(std::max(settings.frameCount, 1)) * std::uint64_t(settings.stepsPerFrame);
    // Room for every row up to a million (a few hundred bytes each); a longer run keeps its newest million.
    session.plots.capacity = std::size_t(std::min<std::uint64_t>(totalSteps / session.plots.everySteps + 2, 1u << 20));
    return session;
}

FrameOutputSettings frameOutputSettingsFrom(const AppOptions& options) {
    FrameOutputSettings settings;
    settings.frameCount = static_cast<std::size_t>(options.frameCount);
    settings.width = options.width;
    settings.height = options.height;
    if (options.writesPngFrames())
        settings.pngFolder = options.outputFolder;
    settings.movieFile = options.movieFile;
    settings.framesPerSecond = options.framesPerSecond;
    settings.movieEncoder = options.movieEncoder;
    return settings;
}

namespace {

/// What a headless run counted while it drew its frames.
struct HeadlessTally {
    const std::vector<std::size_t>& refits;     ///< frames where the camera was refitted
    const std::vector<std::size_t>& darkFrames; ///< frames with nothing lit
    double stepSeconds;                         ///< stepping and saving, apart from drawing and writing
    double totalSeconds;
};

/// The parts of a headless run its summary reads.
struct HeadlessParts {
    const HeadlessContext& context;
    const FramePipeline& pipeline;
    const FrameOutputs& outputs;
    const Simulation& simulation;
    const SessionController& session;
    const ComparisonView* comparison; ///< the run beside the main one, if any
};

/// The end of a run: the summary lines (what was written and how, the colour scale, the camera's refits and dark
/// frames, the timing, the snapshots), then the comparison's final divergence and CSV and the plots' CSV when asked.
void finishRun(std::ostream& summary, const HeadlessParts& run, const HeadlessSettings& settings,
               const HeadlessTally& tally) {
    const auto frameCount = static_cast<std::size_t>(settings.frameCount);
    summary << "gravlab: wrote " << frameCount << " frames (" << settings.width << "x" << settings.height << ", "
            << run.context.description() << ", positions by " << run.pipeline.vertexPath()
            << overlaySummary(settings, run.pipeline.treeCells())
            << orbSummary(run.simulation, settings, run.pipeline.scene()) << ") " << run.outputs.describe() << "\n";
    summary << "gravlab: " << describeColorScale(run.simulation.visuals().colorScale(run.simulation.params().units))
            << '\n';
    summary << cameraSummary(settings.cameraFollowsBodies, tally.refits, tally.darkFrames) << '\n';
    summary << timingSummary(frameCount, tally.totalSeconds, tally.stepSeconds, settings.stepsPerFrame) << '\n';
    summary << snapshotSummary(run.session.snapshotSaver());
    if (run.comparison)
        finishComparison(*run.comparison, run.simulation, settings, summary);
    summary << writePlotsCsvIfAsked(run.session, settings);
}

/// The headless run's still camera: fitted to the bodies for the main run's part of the frame, then the session's
/// pose when one was given. Returns the aspect it was fitted for.
float fitStillCamera(const Simulation& simulation, FramePipeline& pipeline, const HeadlessSettings& settings,
                     const RenderTarget& mainPart, OrbitCamera& camera) {
    const float aspect = static_cast<float>(mainPart.width) / static_cast<float>(mainPart.height);
    pipeline.fitCamera(simulation, camera, aspect);
    if (settings.camera)
        applyCameraState(*settings.camera, camera);
    return aspect;
}

/// Brings the run to frame's state and returns the seconds that took: no step before frame 0, but its snapshot is
/// due, also in a run of one frame; a later frame takes its steps, and the comparison follows.
double stepToFrame(std::size_t frame, SessionController& session, const Simulation& simulation,
                   std::optional<ComparisonView>& comparison) {
    if (frame == 0)
        return timedAdvance([&] { return session.stepSimulation(0); });
    const double seconds = timedAdvance([&] { return session.advanceFrame(); });
    if (comparison)
        comparison->follow(simulation, session.colorMode());
    return seconds;
}

} // namespace

void renderFramesHeadless(const HeadlessContext& context, Simulation& simulation, const HeadlessSettings& settings,
                          FrameOutputs& outputs, std::ostream& progress, std::ostream& summary) {
    FramePipeline pipeline(progress);
    const OffscreenTarget target(settings.width, settings.height);
    buildTreeForFirstFrame(simulation, settings);
    SessionController session(simulation, pipeline, sessionSettingsFrom(settings));
    std::optional<ComparisonView> comparison;
    if (settings.compare)
        comparison.emplace(simulation, *settings.compare, headlessComparisonCadence(), session.colorMode(), progress);
    const RenderTarget whole{target.framebuffer(), target.width(), target.height()};
    const RenderTarget mainPart = comparison ? sideBySide(whole)[0] : whole;
    OrbitCamera camera;
    const float aspect = fitStillCamera(simulation, pipeline, settings, mainPart, camera);

    const auto start = std::chrono::steady_clock::now();
    double stepSeconds = 0; // stepping (and saving snapshots), apart from drawing and writing the frames
    const auto frameCount = static_cast<std::size_t>(settings.frameCount);
    std::vector<std::size_t> refits;
    std::vector<std::size_t> darkFrames;
    const auto refitIfLeft = [&](std::span<const RenderVertex> vertices, std::size_t frame) {
        const bool refitted = refitIfBulkLeft(vertices, simulation.bodyCount(), pipeline, camera, aspect);
        if (refitted)
            refits.push_back(frame);
        return refitted;
    };
    const auto drawFrame = [&] {
        const OverlayView view{.tree = settings.treeOverlay,
                               .orb = settings.orbOverlay,
                               .colorMode = session.colorMode(),
                               .pickedPoint = std::nullopt, // no pick without a window
                               .pickMarkerHalfSize = 0.0f};
        pipeline.updateOverlays(simulation, view);
        pipeline.render(camera, mainPart);
        if (comparison)
            comparison->draw(camera, sideBySide(whole)[1], view);
        return target.readPixels();
    };
    for (std::size_t frame = 0; frame < frameCount; ++frame) {
        try {
            bool viewChecked = false;
            stepSeconds += stepToFrame(frame, session, simulation, comparison);
            if (frame > 0) {
                // Free on the host-copy path; on the interop path a copy now and then (and below, for a dark frame).
                const auto freeVertices = pipeline.hostVerticesIfFree();
                if (settings.cameraFollowsBodies && (freeVertices || frame % kInteropCheckInterval == 0)) {
                    refitIfLeft(freeVertices ? *freeVertices : pipeline.hostVertices(simulation), frame);
                    viewChecked = true;
                }
            }
            ImageRgba8 image = drawFrame();
            // A dark frame on the interop path, between checks: look now, and draw the frame again if the bodies left.
            if (!hasLitPixel(image) && settings.cameraFollowsBodies && !viewChecked &&
                refitIfLeft(pipeline.hostVertices(simulation), frame))
                image = drawFrame();
            if (!hasLitPixel(image))
                darkFrames.push_back(frame);
            outputs.deliver(frame, std::move(image));
        } catch (const std::exception& error) {
            if (settings.progressOnOneLine && frame > 0)
                progress << '\n';
            throw std::runtime_error("stopped at frame " + std::to_string(frame) + " of " + std::to_string(frameCount) +
                                     " (" + outputs.describeRemains() + "): " + error.what());
        }
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        reportProgress(progress, settings.progressOnOneLine, static_cast<int>(frame + 1), settings.frameCount,
                       simulation, elapsed.count());
    }
    if (settings.progressOnOneLine)
        progress << '\n';
    finishOutputs(outputs, frameCount);

    const HeadlessTally tally{refits, darkFrames, stepSeconds,
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
    finishRun(summary, {context, pipeline, outputs, simulation, session, comparison ? &*comparison : nullptr}, settings,
              tally);
}
} // namespace gravlab
