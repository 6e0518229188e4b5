// Stepping on the worker, completing on the main thread (see the header).
#include "BackgroundStepper.hpp"

#include <exception>
#include <string>
#include <utility>

namespace gravlab {

BackgroundStepper::BackgroundStepper(SessionController& session)
    : m_session(session), m_status(captureStatus(session.simulation())) {}

StepPoll BackgroundStepper::poll() {
    StepPoll poll;
    if (m_stepInFlight) {
        const std::optional<FinishedJob> finished = m_worker.takeFinished();
        if (!finished)
            return poll; // still stepping: draw what was fed last
        m_stepInFlight = false;
        poll.completed = complete(*finished);
    } else {
        // Nothing ran: a snapshot due at this step (the initial state, or one reached before a pause) and vertices
        // an edit made stale, as advanceFrame() would while paused.
        m_session.completeFrame(m_session.stepSimulation(0));
    }
    runQueuedActions();
    m_status = captureStatus(m_session.simulation());
    poll.idle = true;
    return poll;
}

FrameAdvance BackgroundStepper::complete(const FinishedJob& finished) {
    if (finished.failure) {
        try {
            std::rethrow_exception(finished.failure);
        } catch (const std::exception& error) {
            m_session.pauseWithError(std::string("the step failed: ") + error.what());
        } catch (...) {
            m_session.pauseWithError("the step failed with an exception that is no std::exception");
        }
        // Whatever the step reached is drawn; the overlays' octree and domains may have changed with it.
        m_advance = FrameAdvance{};
        m_advance.stepped = true;
    }
    FrameAdvance advance = std::exchange(m_advance, FrameAdvance{});
    m_session.completeFrame(advance);
    return advance;
}

void BackgroundStepper::runQueuedActions() {
    // An action may queue another (it runs now, since nothing is in flight); take the list first.
    std::vector<std::function<void()>> actions = std::exchange(m_queued, {});
    for (const std::function<void()>& action : actions)
        action();
}

void BackgroundStepper::startNextStep() {
    if (m_stepInFlight)
        return;
    int stepCount = 0;
    if (m_singleStepRequested)
        stepCount = 1;
    else if (!m_session.paused())
        stepCount = m_session.stepsPerFrame();
    const bool measureEnergy = m_energyRequested || (stepCount > 0 && m_session.energyDue());
    m_singleStepRequested = false;
    m_energyRequested = false;
    if (stepCount == 0 && !measureEnergy)
        return;
    m_stepInFlight = true;
    const auto job = [this, stepCount, measureEnergy] {
        m_advance = m_session.stepSimulation(stepCount, measureEnergy);
    };
    // A GL backend's state lives in the window's context, current on this thread only: it steps here, and the next
    // poll() completes it as it would a worker's step.
    if (m_session.simulation().backend().device() == Device::Gl)
        m_worker.runHere(job);
    else
        m_worker.start(job);
}

void BackgroundStepper::whenIdle(std::function<void()> action) {
    if (m_stepInFlight)
        m_queued.push_back(std::move(action));
    else
        action();
}

void BackgroundStepper::stepOnce() {
    whenIdle([this] {
        m_session.setPaused(true);
        m_singleStepRequested = true;
    });
}

} // namespace gravlab
