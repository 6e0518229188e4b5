#pragma once
// `gravlab bench --frames N`: the window's frame path, offscreen, timed part by part.
//
// Design note: the interactive frame is what a user feels, so this benchmark runs the real one without a window: an
// EGL context (HeadlessContext) and an OffscreenTarget of the window's size, the SessionController and FramePipeline
// the window uses (CUDA-GL interop where it works), the overlays, and the real ImGui panels drawn through ImGui's
// OpenGL 3 backend (OffscreenImGui: no platform backend, so the display size and time step are set here). Each frame
// is timed in parts: step, vertex feed, overlays, draw, UI and the whole frame, on the CPU with steady_clock and on
// the GPU with GL timestamp queries (GpuTimestamps); the step's own phases come from the backend (CUDA events on the
// GPU, as `gravlab bench` reports them). Medians are taken over the frames after the warm-up frames. As the window's
// swap would, the loop keeps at most two frames queued on the GPU (a fence per frame, waited two frames later), so the
// CPU cannot run ahead and the frame rate is one the GPU sustains.
//   Synchronous mode (default): each frame steps (SessionController::stepSimulation), then completes the step (vertex
// feed), as the headless loop and the window used to. With --background the window's mode: steps run on the worker
// (BackgroundStepper) while frames are drawn, the feed happens in the frame that finds a step finished, and display
// frames per second and step completions per second are reported apart.
#include <cstdint>
#include <iosfwd>
#include <string>

namespace gravlab {

struct BenchOptions;

/// Runs the frame benchmark of options (frameCount frames after warmupStepCount warm-up frames) and prints text or
/// JSON to out. Throws EglError when no headless GL context can be made, and what the simulation throws.
void runFrameBench(const BenchOptions& options, std::ostream& out);

} // namespace gravlab
