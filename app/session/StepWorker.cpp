// The background thread of StepWorker (see the header).
#include "StepWorker.hpp"

#include <stdexcept>
#include <utility>

namespace gravlab {

StepWorker::StepWorker() : m_thread([this] { run(); }) {}

StepWorker::~StepWorker() {
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_jobOrStop.notify_one();
    m_thread.join(); // the thread finishes a job in flight before it sees m_stopping
}

void StepWorker::start(std::function<void()> job) {
    {
        const std::lock_guard lock(m_mutex);
        if (m_inFlight || m_finished)
            throw std::logic_error("StepWorker::start: the previous job has not finished and been taken");
        m_job = std::move(job);
        m_inFlight = true;
    }
    m_jobOrStop.notify_one();
}

void StepWorker::runHere(const std::function<void()>& job) {
    {
        const std::lock_guard lock(m_mutex);
        if (m_inFlight || m_finished)
            throw std::logic_error("StepWorker::runHere: the previous job has not finished and been taken");
    }
    FinishedJob finished;
    try {
        job();
    } catch (...) {
        finished.failure = std::current_exception();
    }
    const std::lock_guard lock(m_mutex);
    m_finished = std::move(finished);
}

bool StepWorker::busy() const {
    const std::lock_guard lock(m_mutex);
    return m_inFlight;
}

std::optional<FinishedJob> StepWorker::takeFinished() {
    const std::lock_guard lock(m_mutex);
    return std::exchange(m_finished, std::nullopt);
}

void StepWorker::waitUntilIdle() const {
    std::unique_lock lock(m_mutex);
    m_jobEnded.wait(lock, [this] { return !m_inFlight; });
}

void StepWorker::run() {
    std::unique_lock lock(m_mutex);
    while (true) {
        m_jobOrStop.wait(lock, [this] { return m_inFlight || m_stopping; });
        if (!m_inFlight)
            return; // stopping, with nothing left to run
        std::function<void()> job = std::move(m_job);
        lock.unlock();
        FinishedJob finished;
        try {
            job();
        } catch (...) {
            finished.failure = std::current_exception();
        }
        job = nullptr; // what the job captured goes before the main thread hears it has finished
        lock.lock();
        m_finished = std::move(finished);
        m_inFlight = false;
        m_jobEnded.notify_all();
    }
}

} // namespace gravlab
