#pragma once
// The window's stepping on a worker thread: the view redraws at the display rate while a long step runs.
//
// Design note: each display frame the window calls poll(), which never waits. While a step is in flight it returns at
// once and the window draws the vertices it fed last, with the live camera, and panels fed from status(). When the
// step has finished (or failed), poll() completes it on the main thread with the worker idle: the controller's
// completeFrame() applies a failure (non-finite state, a snapshot not written, or any exception from the step, as its
// message), marks the overlays stale, records an energy measured with the step and pushes the vertices (CUDA-GL
// interop or the host copy). Then the requests queued while the step ran are applied in the order they came
// (whenIdle: parameter edits, reset, reversal, load, save, pick, camera fit: everything that reads or mutates the
// simulation), the status is captured, and poll() reports the worker idle: the window updates the overlays and calls
// startNextStep(), which hands stepsPerFrame steps to the worker when running. A step in flight is therefore never
// cut short: edits wait for it to finish ("finished cleanly") and apply before the next one starts, without blocking a
// frame. Pause acts at once (no next step is started); a single step (stepOnce) and an energy measurement on request
// (measureEnergySoon) also run on the worker, so no O(N) or O(N^2) work of the simulation runs on the main thread,
// save what an edit itself does (new bodies) and saving a file. Automatic energy measurements are decided when a step
// is handed over (SessionController::energyDue) and taken on the worker after the steps.
//   When a step takes less than a frame, each poll finds the previous frame's step done and starts the next: one step
// per frame, nothing skipped, and the same states as SessionController::advanceFrame() frame after frame, only one
// frame later on screen (the step of frame k overlaps the drawing of frame k). The headless loop stays synchronous.
// A backend whose device is GL steps on the main thread instead (StepWorker::runHere), where the window's context is
// current; the same poll() completes it one frame later, so nothing else changes (the frame then waits for the step).
// The worker is declared last, so it is joined (after finishing its step) before anything its job refers to is gone.
#include "SessionController.hpp"
#include "SessionStatus.hpp"
#include "StepWorker.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace gravlab {

/// What one poll() found.
struct StepPoll {
    /// No step in flight: until startNextStep() the simulation may be read and edited on the main thread.
    bool idle = false;
    /// The step that finished since the last poll, as the controller completed it.
    std::optional<FrameAdvance> completed;
};

class BackgroundStepper {
public:
    /// session (and its simulation and sink) must outlive the stepper; captures the first status.
    explicit BackgroundStepper(SessionController& session);

    /// Once per display frame; never waits for the step (see the design note).
    StepPoll poll();
    /// After an idle poll(): hands the next steps to the worker when running, a single step when one was asked for,
    /// or a measurement alone when one was asked for while paused.
    void startNextStep();
    /// Runs action now when no step is in flight, else right after the step in flight, in order with the others.
    void whenIdle(std::function<void()> action);
    /// Pauses and takes one step (on the worker, after the step in flight).
    void stepOnce();
    /// Measures the energy with the next step handed to the worker (or alone, while paused).
    void measureEnergySoon() { m_energyRequested = true; }

    bool stepInFlight() const { return m_stepInFlight; }
    /// What the panels show of the simulation, as of the last idle poll().
    const SessionStatus& status() const { return m_status; }
    /// Blocks until the step in flight has finished; poll() then completes it. For benchmarks and tests.
    void waitForStep() const { m_worker.waitUntilIdle(); }

private:
    /// Completes the finished step on the main thread; a thrown exception pauses with its message.
    FrameAdvance complete(const FinishedJob& finished);
    void runQueuedActions();

    SessionController& m_session;
    SessionStatus m_status;
    std::vector<std::function<void()>> m_queued; ///< whenIdle() actions waiting for the step in flight
    bool m_stepInFlight = false;
    bool m_singleStepRequested = false;
    bool m_energyRequested = false;
    FrameAdvance m_advance; ///< written by the job on the worker, read after it has finished
    StepWorker m_worker;    ///< last: joined first, while everything its job refers to still exists
};

} // namespace gravlab
