// Worker threads that encode and write PNG frames from a bounded queue (see PngWriterPool.hpp).
#include "PngWriterPool.hpp"

#include <algorithm>
#include <stdexcept>

namespace gravlab {

PngWriterPool::PngWriterPool(unsigned workerCount, std::size_t pendingLimit)
    : m_workerCount(workerCount), m_pendingLimit(pendingLimit) {
    if (workerCount < 1 || pendingLimit < 1)
        throw std::invalid_argument("a PNG writer pool needs at least one worker and room for one pending frame");
    m_workers.reserve(workerCount);
    for (unsigned i = 0; i < workerCount; ++i)
        m_workers.emplace_back([this](std::stop_token stop) { work(stop); });
}

PngWriterPool::~PngWriterPool() {
    // Queued frames are dropped (the run failed); frames being written complete, then each jthread joins.
    for (std::jthread& worker : m_workers)
        worker.request_stop();
}

unsigned PngWriterPool::defaultWorkerCount() {
    const unsigned hardwareThreads = std::thread::hardware_concurrency();
    return hardwareThreads > 1 ? hardwareThreads - 1 : 1;
}

std::size_t PngWriterPool::defaultPendingLimit(unsigned workerCount, std::size_t frameBytes) {
    const std::size_t byBytes = frameBytes > 0 ? kPendingBytes / frameBytes : kPendingBytes;
    return std::max<std::size_t>(std::min<std::size_t>(2 * std::size_t{workerCount}, byBytes), 1);
}

void PngWriterPool::submit(std::filesystem::path file, ImageRgba8 image) {
    {
        std::unique_lock lock(m_mutex);
        if (m_inputEnded)
            throw std::logic_error("PngWriterPool::submit after finish");
        m_jobTaken.wait(lock, [this] { return m_firstError || m_queue.size() < m_pendingLimit; });
        if (m_firstError)
            std::rethrow_exception(m_firstError);
        m_queue.push_back({std::move(file), std::move(image)});
    }
    m_jobQueued.notify_one();
}

void PngWriterPool::finish() {
    {
        const std::lock_guard lock(m_mutex);
        if (m_inputEnded)
            throw std::logic_error("PngWriterPool::finish called twice");
        m_inputEnded = true;
    }
    m_jobQueued.notify_all();
    for (std::jthread& worker : m_workers)
        worker.join();
    if (m_firstError)
        std::rethrow_exception(m_firstError);
}

std::size_t PngWriterPool::filesWritten() const {
    const std::lock_guard lock(m_mutex);
    return m_filesWritten;
}

void PngWriterPool::work(std::stop_token stop) {
    for (;;) {
        Job job;
        {
            std::unique_lock lock(m_mutex);
            m_jobQueued.wait(lock, stop, [this] { return !m_queue.empty() || m_inputEnded; });
            if (stop.stop_requested() || m_queue.empty())
                return; // abandoned, or the input ended and everything is written
            job = std::move(m_queue.front());
            m_queue.pop_front();
        }
        m_jobTaken.notify_one();

        std::exception_ptr error;
        try {
            writePng(job.file, job.image);
        } catch (...) {
            error = std::current_exception();
        }
        {
            const std::lock_guard lock(m_mutex);
            if (!error) {
                ++m_filesWritten;
            } else if (!m_firstError) {
                m_firstError = error;
                m_queue.clear(); // stop the work queued behind the failure
            }
        }
        if (error)
            m_jobTaken.notify_all(); // a producer waiting for room learns of the error
    }
}

} // namespace gravlab
