#pragma once
// RAII owner of a captured CUDA graph and its executable instance (the GPU ORB replays its launch sequence with it).
//
// Design note: capture() records what a callable enqueues on a capture stream (thread-local capture mode, so other
// threads' allocations are not disturbed) and instantiates it; launch() replays the instance on any stream, the
// legacy default stream included. Nothing enqueued inside may synchronise or copy from pageable host memory. When
// the callable or the capture throws, the capture is ended and dropped, so the stream is usable again and no graph
// is held. Move-only; the destructor logs instead of throwing.
#include "device/cuda/CudaCheck.hpp"

#include <cuda_runtime_api.h>
#include <utility>

namespace gravlab {

class CudaGraph {
public:
    CudaGraph() = default;
    ~CudaGraph() { reset(); }
    CudaGraph(const CudaGraph&) = delete;
    CudaGraph& operator=(const CudaGraph&) = delete;
    CudaGraph(CudaGraph&& other) noexcept
        : m_graph(std::exchange(other.m_graph, nullptr)), m_instance(std::exchange(other.m_instance, nullptr)) {}
    CudaGraph& operator=(CudaGraph&& other) noexcept {
        if (this != &other) {
            reset();
            m_graph = std::exchange(other.m_graph, nullptr);
            m_instance = std::exchange(other.m_instance, nullptr);
        }
        return *this;
    }

    /// Replaces the held graph by what enqueue(stream) enqueues on stream (a non-default stream that nothing else
    /// uses meanwhile), instantiated.
    template <typename Enqueue> void capture(cudaStream_t stream, Enqueue&& enqueue) {
        reset();
        CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
        try {
            enqueue(stream);
        } catch (...) {
            abandonCapture(stream);
            throw;
        }
        CUDA_CHECK(cudaStreamEndCapture(stream, &m_graph));
        CUDA_CHECK(cudaGraphInstantiate(&m_instance, m_graph, 0));
    }
    /// Enqueues one replay of the captured work on stream.
    void launch(cudaStream_t stream) const { CUDA_CHECK(cudaGraphLaunch(m_instance, stream)); }
    bool empty() const { return m_instance == nullptr; }
    void reset() noexcept {
        if (m_instance != nullptr)
            logCudaFailure(cudaGraphExecDestroy(m_instance), "cudaGraphExecDestroy");
        if (m_graph != nullptr)
            logCudaFailure(cudaGraphDestroy(m_graph), "cudaGraphDestroy");
        m_instance = nullptr;
        m_graph = nullptr;
    }

private:
    static void abandonCapture(cudaStream_t stream) noexcept {
        cudaGraph_t partial = nullptr;
        if (cudaStreamEndCapture(stream, &partial) == cudaSuccess && partial != nullptr)
            logCudaFailure(cudaGraphDestroy(partial), "cudaGraphDestroy");
        (void)cudaGetLastError(); // clears the non-sticky error an invalidated capture leaves; the caller rethrows
    }

    cudaGraph_t m_graph = nullptr;
    cudaGraphExec_t m_instance = nullptr;
};

} // namespace gravlab
