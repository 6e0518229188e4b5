// The offscreen interactive frame benchmark (see the header).
#include "FrameBench.hpp"

#include "BenchCommand.hpp"
#include "BenchStatistics.hpp"
#include "FramePipeline.hpp"
#include "GlBackendChoice.hpp"
#include "OffscreenImGui.hpp"
#include "ReportJson.hpp"
#include "SimulationPanelViewOf.hpp"
#include "ViewSettings.hpp"
#include "panels/FilePanel.hpp"
#include "panels/OrbPanel.hpp"
#include "panels/SessionPanel.hpp"
#include "panels/SimulationPanel.hpp"
#include "panels/TreeOverlayPanel.hpp"
#include "session/BackgroundStepper.hpp"
#include "session/SessionController.hpp"

#include <gravlab/render/GpuTimestamps.hpp>
#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/render/OffscreenTarget.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <iomanip>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <thread>
#include <vector>

namespace gravlab {
namespace {

using Clock = std::chrono::steady_clock;

/// The parts of a frame, in the order they run; the GPU sees all but the step (CUDA, or the CPU).
enum Part : std::size_t { StepPart, FeedPart, OverlaysPart, DrawPart, UiPart, FramePart, kPartCount };
constexpr std::array<const char*, kPartCount> kPartNames{"step", "feed", "overlays", "draw", "ui", "frame"};
/// GPU marks: frame start, after the feed, the overlays, the draw and the UI (parts FeedPart .. UiPart between them).
constexpr std::size_t kGpuMarks = 5;

double millisecondsBetween(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

/// The window's panels, drawn from the session as the window draws them; their requests are dropped.
struct Panels {
    SimulationPanel simulation;
    OrbPanel orb;
    FilePanel file;
    SessionPanel session{"gravlab_session.json"};
    TreeOverlaySettings treeOverlay;
    OrbOverlaySettings orbOverlay;

    void draw(const SessionStatus& status, const SessionController& controller, const FramePipeline& pipeline,
              const std::string& renderer) {
        simulation.draw(simulationPanelViewOf(status, controller, pipeline, renderer, {}));
        drawTreeOverlayPanel({.settings = treeOverlay,
                              .solver = findSolver(status.params.solver),
                              .picked = std::nullopt,
                              .cellCount = pipeline.treeCells().cellCount(),
                              .capped = pipeline.treeCells().capped()});
        orb.draw({.orb = status.params.orb,
                  .bodyCount = status.bodyCount,
                  .overlay = orbOverlay,
                  .status = status.orb,
                  .boxCount = pipeline.scene().orbOverlay().boxCount()});
        file.draw({.loadedFile = status.params.initialFile, .message = {}, .messageIsError = false});
        session.draw({.outcome = {}, .outcomeIsError = false});
    }
};

/// Keeps at most two frames queued on the GPU, as a double-buffered swap chain does.
class FramesInFlight {
public:
    ~FramesInFlight() {
        for (GLsync fence : m_fences)
            if (fence)
                glDeleteSync(fence);
    }
    /// Waits for the frame two frames back.
    void waitForSlot(std::size_t frame) {
        GLsync& fence = m_fences[frame % m_fences.size()];
        if (!fence)
            return;
        glClientWaitSync(fence, GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64(10'000'000'000));
        glDeleteSync(fence);
        fence = nullptr;
    }
    void endFrame(std::size_t frame) {
        m_fences[frame % m_fences.size()] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    }

private:
    std::array<GLsync, 2> m_fences{};
};

struct FrameBenchResult {
    std::string machine;
    std::string renderer;
    std::string vertexPath;
    std::array<std::vector<double>, kPartCount> cpuMs; ///< per measured frame
    std::array<std::vector<double>, kPartCount> gpuMs; ///< per measured frame whose queries were read
    std::vector<double> stepMs;                        ///< per completed step call: the backend's phases summed
    std::vector<std::vector<PhaseTiming>> stepPhases;  ///< per completed step call
    std::size_t measuredFrames = 0;
    std::size_t stepCompletions = 0; ///< step calls completed during the measured frames
    /// The feed part of the frames that completed a step: with --background most frames feed nothing, so the median
    /// over all frames hides what a completion costs the frame it lands in.
    std::vector<double> feedOnCompletionMs;
    double measuredSeconds = 0;
};

/// The window's session settings (energy measured automatically when cheap), with the bench's steps per frame.
SessionSettings sessionSettingsOf(const BenchOptions& options) {
    SessionSettings settings;
    settings.stepsPerFrame = options.stepsPerFrame;
    return settings;
}

/// Everything one frame needs, built in the window's order (the context first, so it is destroyed last).
struct FrameBench {
    explicit FrameBench(const BenchOptions& benchOptions)
        : options(benchOptions), pipeline(log), target(benchOptions.frameWidth, benchOptions.frameHeight),
          simulation(benchSimParams(benchOptions), appBackendFactory()),
          session(simulation, pipeline, sessionSettingsOf(benchOptions)), timestamps(kGpuMarks),
          warmupFrames(std::size_t(benchOptions.warmupStepCount)) {
        pipeline.fitCamera(simulation, camera, float(options.frameWidth) / float(options.frameHeight));
        if (options.background)
            stepper = std::make_unique<BackgroundStepper>(session);
    }
    ~FrameBench() {
        if (stepper)
            stepper->waitForStep();
    }

    OverlayView overlayView() const {
        return {.tree = panels.treeOverlay,
                .orb = panels.orbOverlay,
                .colorMode = session.colorMode(),
                .pickedPoint = std::nullopt,
                .pickMarkerHalfSize = 0.0f};
    }
    /// Runs one frame; measured: its times go into result.
    void frame(std::size_t index, bool measured, FrameBenchResult& result);
    /// The step and the vertex feed of one frame, synchronously or through the stepper; returns the times.
    void stepAndFeed(std::array<double, kPartCount>& cpu, bool measured, FrameBenchResult& result);

    const BenchOptions& options;
    HeadlessContext context;
    std::ostringstream log;
    FramePipeline pipeline;
    OffscreenTarget target;
    Simulation simulation;
    SessionController session;
    OrbitCamera camera;
    OffscreenImGui imgui;
    Panels panels;
    GpuTimestamps timestamps;
    FramesInFlight inFlight;
    std::size_t warmupFrames;
    Clock::time_point lastFrameStart = Clock::now();
    std::unique_ptr<BackgroundStepper> stepper; ///< --background only; last: joined first
};

void FrameBench::stepAndFeed(std::array<double, kPartCount>& cpu, bool measured, FrameBenchResult& result) {
    const auto start = Clock::now();
    std::optional<FrameAdvance> completed;
    if (!stepper) {
        const FrameAdvance advance = session.stepSimulation(session.stepsPerFrame(), session.energyDue());
        const auto stepped = Clock::now();
        session.completeFrame(advance);
        cpu[StepPart] = millisecondsBetween(start, stepped);
        cpu[FeedPart] = millisecondsBetween(stepped, Clock::now());
        completed = advance;
    } else {
        const StepPoll poll = stepper->poll();
        cpu[StepPart] = 0; // on the worker
        cpu[FeedPart] = millisecondsBetween(start, Clock::now());
        completed = poll.completed;
        if (poll.idle) {
            const auto overlays = Clock::now();
            pipeline.updateOverlays(simulation, overlayView());
            stepper->startNextStep();
            cpu[OverlaysPart] = millisecondsBetween(overlays, Clock::now());
        }
    }
    if (measured && completed && completed->stepped) {
        const std::vector<PhaseTiming> phases = simulation.backend().lastStepTimings();
        ++result.stepCompletions;
        result.stepMs.push_back(stepper ? totalMilliseconds(phases) : cpu[StepPart]);
        result.feedOnCompletionMs.push_back(cpu[FeedPart]);
        result.stepPhases.push_back(phases);
    }
}

void FrameBench::frame(std::size_t index, bool measured, FrameBenchResult& result) {
    if (const std::optional<std::vector<double>> gpu = timestamps.beginFrame();
        gpu && index >= warmupFrames + GpuTimestamps::kFramesInFlight)
        for (std::size_t part = FeedPart; part <= UiPart; ++part)
            result.gpuMs[part].push_back((*gpu)[part - FeedPart]);
    inFlight.waitForSlot(index);
    const auto start = Clock::now();
    const float secondsSinceLastFrame = float(millisecondsBetween(lastFrameStart, start) * 1e-3);
    std::array<double, kPartCount> cpu{};
    cpu[FramePart] = millisecondsBetween(lastFrameStart, start);
    lastFrameStart = start;
    timestamps.mark(0);
    stepAndFeed(cpu, measured, result);
    timestamps.mark(1);
    if (!stepper) {
        const auto overlays = Clock::now();
        pipeline.updateOverlays(simulation, overlayView());
        cpu[OverlaysPart] = millisecondsBetween(overlays, Clock::now());
    }
    timestamps.mark(2);
    const auto draw = Clock::now();
    pipeline.render(camera, {target.framebuffer(), target.width(), target.height()},
                    stepper && stepper->stepInFlight());
    cpu[DrawPart] = millisecondsBetween(draw, Clock::now());
    timestamps.mark(3);
    const auto ui = Clock::now();
    glBindFramebuffer(GL_FRAMEBUFFER, target.framebuffer());
    imgui.beginFrame(target.width(), target.height(), secondsSinceLastFrame);
    panels.draw(stepper ? stepper->status() : captureStatus(simulation), session, pipeline, context.description());
    imgui.endFrame();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    cpu[UiPart] = millisecondsBetween(ui, Clock::now());
    timestamps.mark(4);
    inFlight.endFrame(index);
    // The frame part is the time since the previous frame began: it belongs to the previous frame.
    if (measured)
        for (std::size_t part = 0; part < FramePart; ++part)
            result.cpuMs[part].push_back(cpu[part]);
    if (measured && index > warmupFrames)
        result.cpuMs[FramePart].push_back(cpu[FramePart]);
}

FrameBenchResult measureFrames(const BenchOptions& options) {
    FrameBench bench(options);
    FrameBenchResult result;
    const std::size_t warmup = bench.warmupFrames;
    const std::size_t total = warmup + std::size_t(options.frameCount);
    Clock::time_point measuredStart;
    for (std::size_t index = 0; index < total; ++index) {
        if (index == warmup)
            measuredStart = Clock::now();
        const auto frameStart = Clock::now();
        bench.frame(index, index >= warmup, result);
        if (options.displayHz > 0) // the next refresh, as a window waiting for vertical sync
            std::this_thread::sleep_until(frameStart + std::chrono::duration_cast<Clock::duration>(
                                                           std::chrono::duration<double>(1.0 / options.displayHz)));
    }
    glFinish();
    result.measuredSeconds = std::chrono::duration<double>(Clock::now() - measuredStart).count();
    result.measuredFrames = std::size_t(options.frameCount);
    result.machine = bench.simulation.backend().description();
    result.renderer = bench.context.description();
    result.vertexPath = bench.pipeline.vertexPath();
    return result;
}

void printJson(const BenchOptions& options, const FrameBenchResult& result, std::ostream& out) {
    ReportJson report;
    report["mode"] = "frames";
    report["background"] = options.background;
    report["displayHz"] = options.displayHz;
    report["machine"] = result.machine;
    report["renderer"] = result.renderer;
    report["vertexPath"] = result.vertexPath;
    report["solver"] = options.solver;
    report["scenario"] = options.scenario;
    report["bodies"] = options.bodyCount;
    report["width"] = options.frameWidth;
    report["height"] = options.frameHeight;
    report["frames"] = result.measuredFrames;
    report["warmupFrames"] = options.warmupStepCount;
    report["stepsPerFrame"] = options.stepsPerFrame;
    report["framesPerSecond"] = reportedNumber(double(result.measuredFrames) / result.measuredSeconds);
    report["stepCompletionsPerSecond"] = reportedNumber(double(result.stepCompletions) / result.measuredSeconds);
    report["medianStepCallMs"] = reportedNumber(median(result.stepMs));
    report["cpu_feedOnCompletionMs"] = reportedNumber(median(result.feedOnCompletionMs));
    for (std::size_t part = 0; part < kPartCount; ++part)
        report[std::string("cpu_") + kPartNames[part] + "Ms"] = reportedNumber(median(result.cpuMs[part]));
    for (std::size_t part = FeedPart; part <= UiPart; ++part)
        report[std::string("gpu_") + kPartNames[part] + "Ms"] = reportedNumber(median(result.gpuMs[part]));
    for (const PhaseTiming& phase : medianPhases(result.stepPhases))
        report["step_" + phase.phase + "Ms"] = reportedNumber(phase.milliseconds);
    printReport(report, out);
}

void printText(const BenchOptions& options, const FrameBenchResult& result, std::ostream& out) {
    const double seconds = result.measuredSeconds;
    out << std::setprecision(4) << "gravlab bench --frames: " << (options.background ? "background" : "synchronous")
        << " stepping" << (options.displayHz > 0 ? ", paced at " + std::to_string(int(options.displayHz)) + " Hz" : "")
        << ", solver " << options.solver << ", scenario " << options.scenario << ", N = " << options.bodyCount << ", "
        << options.stepsPerFrame << " steps per frame, " << options.frameWidth << "x" << options.frameHeight
        << ", median of " << result.measuredFrames << " frames after " << options.warmupStepCount << " warm-up frames\n"
        << "simulation: " << result.machine << "\nrenderer: " << result.renderer << "\npositions by "
        << result.vertexPath << "\n"
        << "display frames/s: " << double(result.measuredFrames) / seconds
        << ", step completions/s: " << double(result.stepCompletions) / seconds << " (median step call "
        << median(result.stepMs) << " ms; feed " << median(result.feedOnCompletionMs)
        << " ms in the frames that completed one)\n"
        << "median per part (CPU ms):";
    for (std::size_t part = 0; part < kPartCount; ++part)
        out << " " << kPartNames[part] << " " << median(result.cpuMs[part]);
    out << "\nmedian per part (GPU ms, GL timestamps):";
    for (std::size_t part = FeedPart; part <= UiPart; ++part)
        out << " " << kPartNames[part] << " " << median(result.gpuMs[part]);
    out << "\nmedian step phases (the backend's timers):";
    for (const PhaseTiming& phase : medianPhases(result.stepPhases))
        out << " " << phase.phase << " " << phase.milliseconds;
    out << "\n";
}

} // namespace

void runFrameBench(const BenchOptions& options, std::ostream& out) {
    const FrameBenchResult result = measureFrames(options);
    if (options.json)
        printJson(options, result, out);
    else
        printText(options, result, out);
}

} // namespace gravlab
