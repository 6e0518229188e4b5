#pragma once
// DeviceBuffer<T>: the one owner of a device allocation.
//
// Design note: move-only (a copy would silently double the memory or alias it); a deep copy is spelled clone(). The
// size is counted in elements of T, never bytes, so kernels get typed pointers. Allocation failures throw through
// CUDA_CHECK with the byte count in the message; the destructor logs instead of throwing. Transfers are stream-ordered
// (cudaMemcpyAsync) and the caller synchronises when it needs the host side.
#include "device/cuda/CudaCheck.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <utility>

namespace gravlab {

template <typename T> class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) { allocate(count); }
    ~DeviceBuffer() { release(); }

    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : m_data(std::exchange(other.m_data, nullptr)), m_count(std::exchange(other.m_count, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            release();
            m_data = std::exchange(other.m_data, nullptr);
            m_count = std::exchange(other.m_count, 0);
        }
        return *this;
    }

    T* data() { return m_data; }
    const T* data() const { return m_data; }
    std::size_t size() const { return m_count; }
    std::size_t bytes() const { return m_count * sizeof(T); }
    bool empty() const { return m_count == 0; }

    /// Reallocates to exactly count elements (contents are lost) unless the size already matches.
    void resize(std::size_t count) {
        if (count == m_count)
            return;
        release();
        allocate(count);
    }

    /// A new buffer with the same contents, copied on stream.
    DeviceBuffer clone(cudaStream_t stream) const {
        DeviceBuffer copy(m_count);
        copy.copyFrom(*this, stream);
        return copy;
    }

    void upload(std::span<const T> host, cudaStream_t stream) {
        requireSize(host.size(), "upload");
        if (!empty())
            CUDA_CHECK(cudaMemcpyAsync(m_data, host.data(), host.size_bytes(), cudaMemcpyHostToDevice, stream));
    }
    void download(std::span<T> host, cudaStream_t stream) const {
        requireSize(host.size(), "download");
        if (!empty())
            CUDA_CHECK(cudaMemcpyAsync(host.data(), m_data, host.size_bytes(), cudaMemcpyDeviceToHost, stream));
    }
    /// Device-to-device copy of a buffer of the same size.
    void copyFrom(const DeviceBuffer& source, cudaStream_t stream) {
        requireSize(source.size(), "device copy");
        if (!empty())
            CUDA_CHECK(cudaMemcpyAsync(m_data, source.data(), bytes(), cudaMemcpyDeviceToDevice, stream));
    }
    /// Sets every byte to zero (all-zero bits is 0 for the integer and floating-point types used here).
    void zero(cudaStream_t stream) {
        if (!empty())
            CUDA_CHECK(cudaMemsetAsync(m_data, 0, bytes(), stream));
    }

private:
    void allocate(std::size_t count) {
        if (count == 0)
            return;
        void* memory = nullptr;
        const std::string what = "cudaMalloc of " + std::to_string(count * sizeof(T)) + " bytes";
        throwOnCudaError(cudaMalloc(&memory, count * sizeof(T)), what.c_str(), __FILE__, __LINE__);
        m_data = static_cast<T*>(memory);
        m_count = count;
    }
    void release() noexcept {
        if (m_data != nullptr)
            logCudaFailure(cudaFree(m_data), "cudaFree");
        m_data = nullptr;
        m_count = 0;
    }
    void requireSize(std::size_t count, const char* operation) const {
        if (count != m_count)
            throw std::invalid_argument(std::string("DeviceBuffer ") + operation + ": " + std::to_string(count) +
                                        " elements given, the buffer holds " + std::to_string(m_count));
    }

    T* m_data = nullptr;
    std::size_t m_count = 0;
};

} // namespace gravlab
