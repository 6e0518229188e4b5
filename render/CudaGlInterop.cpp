// CUDA-GL interop: registration, mapping and unmapping of a GL buffer, with the runtime's errors turned into
// sentences.
#include "CudaGlInterop.hpp"

#include "CudaErrors.hpp"

#include <algorithm>
#include <cuda_gl_interop.h>
#include <stdexcept>
#include <utility>

namespace gravlab {

using namespace interop; // CudaErrors.hpp
namespace {

/// Why the current GL context cannot share buffers with the current CUDA device, or "" when it can.
std::string glContextMismatch() {
    unsigned int glDeviceCount = 0;
    int glDevices[8] = {};
    const cudaError_t error = cudaGLGetDevices(&glDeviceCount, glDevices, 8, cudaGLDeviceListAll);
    if (error != cudaSuccess) {
        cudaGetLastError(); // not sticky; clear it
        return "the OpenGL context is not on a CUDA device (cudaGLGetDevices: " + describeCudaError(error) + ")";
    }
    int cudaDevice = 0;
    throwOnCudaError(cudaGetDevice(&cudaDevice), "cudaGetDevice");
    const int* begin = glDevices;
    const int* end = glDevices + std::min(glDeviceCount, 8u);
    if (std::find(begin, end, cudaDevice) == end)
        return "the OpenGL context runs on a different GPU than CUDA device " + std::to_string(cudaDevice);
    return {};
}

} // namespace

std::optional<CudaGlBuffer> CudaGlBuffer::tryRegister(GLuint buffer, std::string& reason) {
    reason = glContextMismatch();
    if (!reason.empty())
        return std::nullopt;
    cudaGraphicsResource_t resource = nullptr;
    const cudaError_t error = cudaGraphicsGLRegisterBuffer(&resource, buffer, cudaGraphicsRegisterFlagsNone);
    if (error != cudaSuccess) {
        cudaGetLastError();
        reason = "cudaGraphicsGLRegisterBuffer failed: " + describeCudaError(error);
        return std::nullopt;
    }
    return CudaGlBuffer(buffer, resource);
}

CudaGlBuffer::~CudaGlBuffer() {
    release();
}

CudaGlBuffer::CudaGlBuffer(CudaGlBuffer&& other) noexcept
    : m_buffer(std::exchange(other.m_buffer, 0)), m_resource(std::exchange(other.m_resource, nullptr)) {}

CudaGlBuffer& CudaGlBuffer::operator=(CudaGlBuffer&& other) noexcept {
    if (this != &other) {
        release();
        m_buffer = std::exchange(other.m_buffer, 0);
        m_resource = std::exchange(other.m_resource, nullptr);
    }
    return *this;
}

void CudaGlBuffer::release() noexcept {
    if (m_resource != nullptr)
        logCudaFailure(cudaGraphicsUnregisterResource(m_resource), "cudaGraphicsUnregisterResource");
    m_resource = nullptr;
    m_buffer = 0;
}

ScopedCudaGlMap::ScopedCudaGlMap(CudaGlBuffer& buffer, StreamHandle stream)
    : m_resource(buffer.resource()), m_stream(stream) {
    throwOnCudaError(cudaGraphicsMapResources(1, &m_resource, cudaStreamOf(m_stream)), "cudaGraphicsMapResources");
    m_mapped = true;
    void* pointer = nullptr;
    std::size_t bytes = 0;
    const cudaError_t error = cudaGraphicsResourceGetMappedPointer(&pointer, &bytes, m_resource);
    if (error != cudaSuccess) {
        unmap();
        throwOnCudaError(error, "cudaGraphicsResourceGetMappedPointer");
    }
    m_vertices = static_cast<RenderVertex*>(pointer);
    m_capacity = bytes / sizeof(RenderVertex);
}

ScopedCudaGlMap::~ScopedCudaGlMap() {
    if (m_mapped)
        logCudaFailure(cudaGraphicsUnmapResources(1, &m_resource, cudaStreamOf(m_stream)),
                       "cudaGraphicsUnmapResources");
}

void ScopedCudaGlMap::unmap() {
    if (!m_mapped)
        return;
    m_mapped = false;
    m_vertices = nullptr;
    throwOnCudaError(cudaGraphicsUnmapResources(1, &m_resource, cudaStreamOf(m_stream)), "cudaGraphicsUnmapResources");
}

} // namespace gravlab
