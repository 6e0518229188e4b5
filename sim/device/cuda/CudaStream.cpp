#include "device/cuda/CudaStream.hpp"

namespace gravlab {

CudaStream::CudaStream() {
    CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
}

CudaStream::~CudaStream() {
    if (m_stream != nullptr)
        logCudaFailure(cudaStreamDestroy(m_stream), "cudaStreamDestroy");
}

CudaStream& CudaStream::operator=(CudaStream&& other) noexcept {
    if (this != &other) {
        if (m_stream != nullptr)
            logCudaFailure(cudaStreamDestroy(m_stream), "cudaStreamDestroy");
        m_stream = std::exchange(other.m_stream, nullptr);
    }
    return *this;
}

void CudaStream::synchronize() const {
    CUDA_CHECK(cudaStreamSynchronize(m_stream));
}

CudaEvent::CudaEvent() {
    CUDA_CHECK(cudaEventCreate(&m_event));
}

CudaEvent::~CudaEvent() {
    if (m_event != nullptr)
        logCudaFailure(cudaEventDestroy(m_event), "cudaEventDestroy");
}

CudaEvent& CudaEvent::operator=(CudaEvent&& other) noexcept {
    if (this != &other) {
        if (m_event != nullptr)
            logCudaFailure(cudaEventDestroy(m_event), "cudaEventDestroy");
        m_event = std::exchange(other.m_event, nullptr);
    }
    return *this;
}

void CudaEvent::record(cudaStream_t stream) {
    CUDA_CHECK(cudaEventRecord(m_event, stream));
}

void CudaEvent::synchronize() const {
    CUDA_CHECK(cudaEventSynchronize(m_event));
}

float elapsedMilliseconds(const CudaEvent& start, const CudaEvent& end) {
    end.synchronize();
    float milliseconds = 0;
    CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start.get(), end.get()));
    return milliseconds;
}

} // namespace gravlab
