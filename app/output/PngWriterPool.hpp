#pragma once
// PNG frames encoded and written by worker threads, so the render loop only reads pixels back and hands them over.
//
// Design note: a 1080p frame costs tens of milliseconds of deflate, far more than drawing it on a GPU, so encoding on
// the render thread made PNG output the bottleneck of headless runs. Here workerCount std::jthreads (by default the
// hardware threads minus the render thread, at least one) take frames from a bounded queue. submit() blocks while
// pendingLimit frames wait, so memory stays bounded (by default twice the workers, fewer for huge frames: at most
// kPendingBytes queued) and a slow disk slows the render loop instead of filling memory. Each file is written through
// writePng, whole or not at all (AtomicFile). Errors: the first failure a worker meets wins; it is kept, the frames
// still queued are dropped (no point writing past a full disk), and the next submit() or finish() rethrows it, so the
// render loop stops with the message naming the file. Frames being written by other workers at that moment finish
// whole. finish() waits for every queued frame and joins; destroying the pool without finish() (a throw on the way)
// drops the queued frames, lets the ones in progress complete and joins.
#include <gravlab/render/Image.hpp>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

namespace gravlab {

class PngWriterPool {
public:
    /// Queued frames never hold more than this many bytes of pixels (unless one frame is larger: then one waits).
    static constexpr std::size_t kPendingBytes = std::size_t{1} << 30;

    /// workerCount >= 1 threads; submit() blocks while pendingLimit >= 1 frames wait for a worker.
    PngWriterPool(unsigned workerCount, std::size_t pendingLimit);
    ~PngWriterPool();
    PngWriterPool(const PngWriterPool&) = delete;
    PngWriterPool& operator=(const PngWriterPool&) = delete;

    /// The hardware threads minus one for the render loop, at least 1.
    static unsigned defaultWorkerCount();
    /// Twice workerCount, lowered so the queued frames of frameBytes each stay within kPendingBytes; at least 1.
    static std::size_t defaultPendingLimit(unsigned workerCount, std::size_t frameBytes);

    /// Queues image to be written to file, blocking while the queue is full; rethrows the first error a worker met
    /// (a FileWriteError naming its file), after which nothing more is queued.
    void submit(std::filesystem::path file, ImageRgba8 image);
    /// Waits until every queued frame is written and joins the workers; rethrows the first error a worker met. Call
    /// once, after the last submit().
    void finish();

    /// Files completely written so far.
    std::size_t filesWritten() const;
    unsigned workerCount() const { return m_workerCount; }

private:
    struct Job {
        std::filesystem::path file;
        ImageRgba8 image;
    };
    void work(std::stop_token stop);

    const unsigned m_workerCount;
    const std::size_t m_pendingLimit;
    mutable std::mutex m_mutex;
    std::condition_variable_any m_jobQueued; ///< workers wait here for a job, the end of input or a stop request
    std::condition_variable m_jobTaken;      ///< submit() waits here for room in the queue
    std::deque<Job> m_queue;
    bool m_inputEnded = false; ///< finish() was called: workers leave once the queue is empty
    std::exception_ptr m_firstError;
    std::size_t m_filesWritten = 0;
    std::vector<std::jthread> m_workers; ///< last: joined before the members they use are destroyed
};

} // namespace gravlab
