#pragma once
// CUDA-GL interop for a vertex buffer: CUDA writes RenderVertex straight into a GL buffer, no host round trip.
//
// Design note: a CudaGlBuffer registers one GL buffer name with CUDA once (for reading and writing: the vertex
// buffer is written by the feed and read by the particle splatter, DeviceParticleLight.hpp); it must be re-registered when the GL buffer is
// replaced (ParticleRenderer::storageGeneration() changes). Each frame a ScopedCudaGlMap maps the buffer, hands out
// the device pointer for the kernel that fills it, and unmaps - explicitly with unmap() before the GL draw that reads
// the buffer, or at the latest when the scope ends. Unmapping on the stream that wrote orders the write before GL's
// use. Registration fails on some systems (WSL2 and hybrid-graphics laptops report cudaErrorOperatingSystem; Mesa's
// software GL is on no CUDA device): tryRegister() then returns nothing and a one-line reason, and the caller falls
// back to a device-to-host copy. Only compiled when GRAVLAB_HAS_CUDA is defined. GL objects must outlive their
// registration: destroy the CudaGlBuffer first, while the context is current. The stream comes as the VisualSource's
// opaque StreamHandle and the resource is only forward-declared, so this header pulls in no CUDA header: the CUDA
// runtime is seen by CudaGlInterop.cpp alone.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/VisualSource.hpp>

#include <cstddef>
#include <glad/gl.h>
#include <optional>
#include <string>

struct cudaGraphicsResource; // the CUDA runtime's type behind cudaGraphicsResource_t

namespace gravlab {

class CudaGlBuffer {
public:
    /// Registers the GL buffer (the GL context must be current); on failure returns nullopt and sets reason to one
    /// line saying why, e.g. "cudaGraphicsGLRegisterBuffer failed: cudaErrorOperatingSystem (...)".
    static std::optional<CudaGlBuffer> tryRegister(GLuint buffer, std::string& reason);

    ~CudaGlBuffer();
    CudaGlBuffer(const CudaGlBuffer&) = delete;
    CudaGlBuffer& operator=(const CudaGlBuffer&) = delete;
    CudaGlBuffer(CudaGlBuffer&& other) noexcept;
    CudaGlBuffer& operator=(CudaGlBuffer&& other) noexcept;

    GLuint glBuffer() const { return m_buffer; }
    cudaGraphicsResource* resource() const { return m_resource; }

private:
    CudaGlBuffer(GLuint buffer, cudaGraphicsResource* resource) : m_buffer(buffer), m_resource(resource) {}
    void release() noexcept;

    GLuint m_buffer = 0;
    cudaGraphicsResource* m_resource = nullptr;
};

/// The buffer mapped for CUDA for the lifetime of this object (or until unmap()).
class ScopedCudaGlMap {
public:
    /// Maps on stream (a cudaStream_t as a StreamHandle); throws std::runtime_error naming the CUDA error on failure.
    ScopedCudaGlMap(CudaGlBuffer& buffer, StreamHandle stream);
    ~ScopedCudaGlMap();
    ScopedCudaGlMap(const ScopedCudaGlMap&) = delete;
    ScopedCudaGlMap& operator=(const ScopedCudaGlMap&) = delete;

    /// Device pointer to the buffer's vertices; valid until unmap().
    RenderVertex* vertices() const { return m_vertices; }
    /// The same pointer for buffers that hold something else (the splatter's light); valid until unmap().
    void* data() const { return m_vertices; }
    std::size_t bytes() const { return m_capacity * sizeof(RenderVertex); }
    /// How many RenderVertex fit in the buffer.
    std::size_t capacity() const { return m_capacity; }
    /// Unmaps now (before GL draws from the buffer); throws on failure. Idempotent.
    void unmap();

private:
    cudaGraphicsResource* m_resource;
    StreamHandle m_stream;
    RenderVertex* m_vertices = nullptr;
    std::size_t m_capacity = 0;
    bool m_mapped = false;
};

} // namespace gravlab
