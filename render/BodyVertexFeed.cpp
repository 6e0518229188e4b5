// The two paths from simulation state to the particle vertex buffer (see the header's design note).
#include <gravlab/render/BodyVertexFeed.hpp>

#include <ostream>

#if defined(GRAVLAB_HAS_CUDA)
#include "CudaGlInterop.hpp"
#include "ParticleSplatter.hpp"

#include <optional>
#endif

namespace gravlab {

#if defined(GRAVLAB_HAS_CUDA)
struct BodyVertexFeed::Interop {
    std::optional<CudaGlBuffer> buffer;
    std::uint64_t registeredGeneration = 0;
    bool unavailable = false; ///< registration failed once: stay on the host copy
    /// Draws the vertices that arrived through interop; declared after the buffer it reads, so destroyed first.
    std::optional<ParticleSplatter> splatter;
};
#else
struct BodyVertexFeed::Interop {};
#endif

BodyVertexFeed::BodyVertexFeed(std::ostream& log) : m_log(log), m_interop(std::make_unique<Interop>()) {}

BodyVertexFeed::~BodyVertexFeed() = default;

void BodyVertexFeed::update(const VisualSource& source, ParticleRenderer& renderer) {
    m_writtenByGl = false;
    if (source.canWriteVerticesToGlBuffer()) {
        // The GL backend's state lives in this context: one dispatch writes the renderer's buffer, nothing to map.
        const std::size_t vertexCount = source.vertexCount();
        renderer.reserve(vertexCount);
        source.writeVerticesToGlBuffer({renderer.vertexBuffer()}, vertexCount);
        renderer.setVertexCount(vertexCount);
        m_stagingCurrent = false;
        m_writtenByGl = true;
        m_path = "GL compute, written into the vertex buffer";
        return;
    }
    if (tryInterop(source, renderer)) {
        m_stagingCurrent = false;
        return;
    }
    m_staging.resize(source.vertexCount());
    source.writeVertices(m_staging);
    renderer.upload(m_staging);
    m_stagingCurrent = true;
}

std::span<const RenderVertex> BodyVertexFeed::copyToHost(const VisualSource& source) {
    if (!m_stagingCurrent || m_staging.size() != source.vertexCount()) {
        m_staging.resize(source.vertexCount());
        source.writeVertices(m_staging);
    }
    return m_staging;
}

std::optional<std::span<const RenderVertex>> BodyVertexFeed::hostVertices() const {
    if (!m_stagingCurrent)
        return std::nullopt;
    return std::span<const RenderVertex>(m_staging);
}

#if defined(GRAVLAB_HAS_CUDA)
bool BodyVertexFeed::tryInterop(const VisualSource& source, ParticleRenderer& renderer) {
    if (!source.canWriteVerticesOnDevice() || m_interop->unavailable)
        return false;
    const std::size_t vertexCount = source.vertexCount();
    renderer.reserve(vertexCount);
    if (!m_interop->buffer || m_interop->registeredGeneration != renderer.storageGeneration()) {
        m_interop->buffer.reset();
        std::string reason;
        m_interop->buffer = CudaGlBuffer::tryRegister(renderer.vertexBuffer(), reason);
        if (!m_interop->buffer) {
            m_interop->unavailable = true;
            m_path = "host copy (CUDA-GL interop unavailable: " + reason + ")";
            m_log << "gravlab: CUDA-GL interop unavailable, copying positions through the host instead: " << reason
                  << '\n';
            return false;
        }
        m_interop->registeredGeneration = renderer.storageGeneration();
        if (m_interop->splatter)
            m_interop->splatter->setVertexBuffer(*m_interop->buffer);
        else
            m_interop->splatter.emplace(*m_interop->buffer);
    }
    ParticleSplatter& splatter = *m_interop->splatter;
    splatter.beforeVertexWrite(source.deviceStream());
    ScopedCudaGlMap mapped(*m_interop->buffer, source.deviceStream());
    source.writeVerticesOnDevice(mapped.vertices(), mapped.capacity(), source.deviceStream());
    mapped.unmap();
    splatter.afterVertexWrite(source.deviceStream(), vertexCount);
    renderer.setVertexCount(vertexCount);
    m_path = "CUDA-GL interop, drawn by CUDA splatting";
    return true;
}

DeviceParticleLight* BodyVertexFeed::deviceLight() {
    if (m_stagingCurrent || m_writtenByGl || !m_interop->splatter)
        return nullptr;
    return &*m_interop->splatter;
}
#else
bool BodyVertexFeed::tryInterop(const VisualSource&, ParticleRenderer&) {
    return false;
}

DeviceParticleLight* BodyVertexFeed::deviceLight() {
    return nullptr;
}
#endif

} // namespace gravlab
