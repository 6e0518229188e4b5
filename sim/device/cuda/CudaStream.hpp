#pragma once
// RAII owners of CUDA streams and events.
//
// Design note: the backend runs all its work on one non-blocking stream of its own, so it never synchronises with
// unrelated work on the legacy default stream (the renderer's interop maps, for instance); hand-offs between streams
// go through events. Both types are move-only and log instead of throwing when destruction fails.
#include "device/cuda/CudaCheck.hpp"

#include <utility>

namespace gravlab {

class CudaStream {
public:
    /// A new non-blocking stream.
    CudaStream();
    ~CudaStream();
    CudaStream(const CudaStream&) = delete;
    CudaStream& operator=(const CudaStream&) = delete;
    CudaStream(CudaStream&& other) noexcept : m_stream(std::exchange(other.m_stream, nullptr)) {}
    CudaStream& operator=(CudaStream&& other) noexcept;

    cudaStream_t get() const { return m_stream; }
    /// Waits until all work queued so far has finished; throws on an execution error.
    void synchronize() const;

private:
    cudaStream_t m_stream = nullptr;
};

class CudaEvent {
public:
    /// A new event that records timestamps.
    CudaEvent();
    ~CudaEvent();
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;
    CudaEvent(CudaEvent&& other) noexcept : m_event(std::exchange(other.m_event, nullptr)) {}
    CudaEvent& operator=(CudaEvent&& other) noexcept;

    cudaEvent_t get() const { return m_event; }
    void record(cudaStream_t stream);
    void synchronize() const;

private:
    cudaEvent_t m_event = nullptr;
};

/// Device time between two recorded events in milliseconds; waits for end to complete.
float elapsedMilliseconds(const CudaEvent& start, const CudaEvent& end);

} // namespace gravlab
