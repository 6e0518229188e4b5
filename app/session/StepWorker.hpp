#pragma once
// One background thread that runs one job at a time and reports when it is done, for stepping off the main thread.
//
// Design note: the window must keep drawing while a long simulation step runs, so the step goes to this thread and
// the main thread only asks, once per display frame, whether it has finished: busy() and takeFinished() hold the lock
// for a few instructions, never for the job, so the main thread never waits on a step. The job is a plain callable;
// whatever it produces it leaves where its owner reads it, and the lock released when the job ends orders that write
// before the main thread's read. An exception leaving the job is caught on the thread and handed back with the
// completion, so a failed step is reported like a finished one. One std::thread, one mutex, one condition variable
// per direction; the destructor lets the job in flight finish (a CUDA step cannot be cut short), then joins, so the
// objects a job refers to must outlive the worker (declare the worker after them).
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace gravlab {

/// A job that has finished: failure holds what it threw, or is null when it returned.
struct FinishedJob {
    std::exception_ptr failure;
};

class StepWorker {
public:
    StepWorker();
    /// Waits for the job in flight, if any, then stops the thread.
    ~StepWorker();
    StepWorker(const StepWorker&) = delete;
    StepWorker& operator=(const StepWorker&) = delete;

    /// Hands job to the thread. Throws std::logic_error while a job is in flight or its completion was not taken.
    void start(std::function<void()> job);
    /// Runs job on the calling thread now and records its completion as start() would, for jobs that must stay on
    /// the caller's thread (a GL backend's step: its context is current there only). Same precondition as start().
    void runHere(const std::function<void()>& job);
    /// Whether a job was started and has not finished yet.
    bool busy() const;
    /// The finished job, once: empty while it runs or when none was started since the last take.
    std::optional<FinishedJob> takeFinished();
    /// Blocks until no job is in flight (benchmarks and tests that want each step to finish within its frame).
    void waitUntilIdle() const;

private:
    void run();

    mutable std::mutex m_mutex;
    std::condition_variable m_jobOrStop;        ///< the thread waits here for a job or the destructor
    mutable std::condition_variable m_jobEnded; ///< waitUntilIdle() waits here
    std::function<void()> m_job;
    bool m_inFlight = false;
    std::optional<FinishedJob> m_finished;
    bool m_stopping = false;
    std::thread m_thread; ///< last: it starts once the state above exists
};

} // namespace gravlab
