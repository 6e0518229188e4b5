// The particle splat: buffers, stream and the per-frame map, clear, kernel and unmap.
#include "ParticleSplatter.hpp"

#include "CudaErrors.hpp"
#include "ParticleSplatKernel.hpp"

#include <cmath>
#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace gravlab {

using namespace interop; // CudaErrors.hpp
namespace {

SplatParameters splatParametersFor(const ParticleView& view, const ParticleStyle& style, BodyPalette palette, int width,
                                   int height) {
    SplatParameters parameters{};
    const glm::mat4 viewProjection = view.projection * view.view;
    for (int column = 0; column < 4; ++column)
        for (int row = 0; row < 4; ++row) {
            parameters.viewProjection[column * 4 + row] = viewProjection[column][row];
            if (row == 2)
                parameters.viewDepthRow[column] = view.view[column][row];
        }
    parameters.pixelsPerUnitAtUnitDepth = pixelsPerUnitAtUnitDepth(view);
    parameters.spriteWorldSize = style.spriteWorldSize;
    parameters.brightness = style.brightness;
    parameters.minPixelSize = style.minPixelSize;
    parameters.maxPixelSize = style.maxPixelSize;
    parameters.palette = static_cast<int>(palette);
    parameters.width = width;
    parameters.height = height;
    return parameters;
}

} // namespace

ParticleSplatter::ParticleSplatter(CudaGlBuffer& vertices) : m_vertices(&vertices) {
    // The highest priority: while a long step fills the GPU, the splat's blocks are scheduled as soon as any of the
    // step's blocks retire instead of after all of them, so the view keeps its frame rate.
    int leastPriority = 0, greatestPriority = 0;
    throwOnCudaError(cudaDeviceGetStreamPriorityRange(&leastPriority, &greatestPriority), "asking stream priorities");
    cudaStream_t stream = nullptr;
    throwOnCudaError(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatestPriority),
                     "creating the splat stream");
    m_stream.value = stream;
    for (void** event : {&m_verticesWritten, &m_splatDone}) {
        cudaEvent_t created = nullptr;
        const cudaError_t error = cudaEventCreateWithFlags(&created, cudaEventDisableTiming);
        if (error != cudaSuccess) {
            releaseCudaObjects();
            throwOnCudaError(error, "creating the splat's events");
        }
        *event = created;
    }
}

ParticleSplatter::~ParticleSplatter() {
    m_lightRegistration.reset(); // unregister while the GL buffer still exists
    releaseCudaObjects();
}

void ParticleSplatter::releaseCudaObjects() noexcept {
    for (void* event : {m_verticesWritten, m_splatDone})
        if (event != nullptr)
            logCudaFailure(cudaEventDestroy(static_cast<cudaEvent_t>(event)), "destroying a splat event");
    m_verticesWritten = m_splatDone = nullptr;
    logCudaFailure(cudaStreamDestroy(cudaStreamOf(m_stream)), "destroying the splat stream");
}

void ParticleSplatter::beforeVertexWrite(StreamHandle writer) {
    throwOnCudaError(cudaStreamWaitEvent(cudaStreamOf(writer), static_cast<cudaEvent_t>(m_splatDone), 0),
                     "ordering the vertex write after the last splat");
}

void ParticleSplatter::afterVertexWrite(StreamHandle writer, std::size_t count) {
    throwOnCudaError(cudaEventRecord(static_cast<cudaEvent_t>(m_verticesWritten), cudaStreamOf(writer)),
                     "recording the vertex write");
    throwOnCudaError(cudaStreamWaitEvent(cudaStreamOf(m_stream), static_cast<cudaEvent_t>(m_verticesWritten), 0),
                     "ordering the splat after the vertex write");
    m_vertexCount = count;
}

void ParticleSplatter::resize(int width, int height) {
    if (width == m_width && height == m_height && m_lightRegistration)
        return;
    m_lightRegistration.reset();
    m_light = createBuffer();
    const auto bytes = static_cast<GLsizeiptr>(std::size_t(width) * std::size_t(height) * 4 * sizeof(float));
    glNamedBufferStorage(m_light.id(), bytes, nullptr, 0);
    throwOnGlError("allocating the particle light buffer");
    std::string reason;
    m_lightRegistration = CudaGlBuffer::tryRegister(m_light.id(), reason);
    if (!m_lightRegistration)
        throw std::runtime_error("registering the particle light buffer with CUDA failed: " + reason);
    m_width = width;
    m_height = height;
}

GLuint ParticleSplatter::splat(const ParticleView& view, const ParticleStyle& style, BodyPalette palette, int width,
                               int height) {
    resize(width, height);
    ScopedCudaGlMap light(*m_lightRegistration, m_stream);
    throwOnCudaError(cudaMemsetAsync(light.data(), 0, light.bytes(), cudaStreamOf(m_stream)),
                     "clearing the particle light buffer");
    if (m_vertexCount > 0) {
        ScopedCudaGlMap vertices(*m_vertices, m_stream);
        if (m_vertexCount > vertices.capacity())
            throw std::logic_error("the splat was asked for " + std::to_string(m_vertexCount) +
                                   " vertices of a buffer holding " + std::to_string(vertices.capacity()));
        launchParticleSplat(vertices.vertices(), m_vertexCount, splatParametersFor(view, style, palette, width, height),
                            static_cast<float*>(light.data()), m_stream);
        vertices.unmap();
    }
    throwOnCudaError(cudaEventRecord(static_cast<cudaEvent_t>(m_splatDone), cudaStreamOf(m_stream)),
                     "recording the splat");
    light.unmap();
    return m_light.id();
}

} // namespace gravlab
