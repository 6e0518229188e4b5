// The two paths from simulation state to the particle vertex buffer (see the header's design note).
#include "BodyVertexFeed.hpp"

#include <ostream>

#if defined(GRAVLAB_HAS_CUDA)
#include "CudaGlInterop.hpp"

#include <CudaBackend.hpp>
#include <optional>
#endif

namespace gravlab {

#if defined(GRAVLAB_HAS_CUDA)
struct BodyVertexFeed::Interop {
    std::optional<CudaGlBuffer> buffer;
    std::uint64_t registeredGeneration = 0;
    bool unavailable = false; ///< registration failed once: stay on the host copy
};
#else
struct BodyVertexFeed::Interop {};
#endif

BodyVertexFeed::BodyVertexFeed(std::ostream& log) : m_log(log), m_interop(std::make_unique<Interop>()) {}

BodyVertexFeed::~BodyVertexFeed() = default;

void BodyVertexFeed::update(const SimulationBackend& backend, std::size_t bodyCount, ParticleRenderer& renderer) {
    if (tryInterop(backend, bodyCount, renderer)) {
        m_stagingCurrent = false;
        return;
    }
    m_staging.resize(bodyCount);
    backend.writeRenderVertices(m_staging);
    renderer.upload(m_staging);
    m_stagingCurrent = true;
}

std::span<const RenderVertex> BodyVertexFeed::copyToHost(const SimulationBackend& backend, std::size_t bodyCount) {
    if (!m_stagingCurrent || m_staging.size() != bodyCount) {
        m_staging.resize(bodyCount);
        backend.writeRenderVertices(m_staging);
    }
    return m_staging;
}

std::optional<std::span<const RenderVertex>> BodyVertexFeed::hostVertices() const {
    if (!m_stagingCurrent)
        return std::nullopt;
    return std::span<const RenderVertex>(m_staging);
}

#if defined(GRAVLAB_HAS_CUDA)
bool BodyVertexFeed::tryInterop(const SimulationBackend& backend, std::size_t bodyCount, ParticleRenderer& renderer) {
    const auto* cuda = dynamic_cast<const CudaBackend*>(&backend);
    if (cuda == nullptr || m_interop->unavailable)
        return false;
    renderer.reserve(bodyCount);
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
    }
    ScopedCudaGlMap mapped(*m_interop->buffer, cuda->stream());
    cuda->writeRenderVerticesDevice(mapped.vertices(), mapped.capacity(), cuda->stream());
    mapped.unmap();
    renderer.setVertexCount(bodyCount);
    m_path = "CUDA-GL interop";
    return true;
}
#else
bool BodyVertexFeed::tryInterop(const SimulationBackend&, std::size_t, ParticleRenderer&) {
    return false;
}
#endif

} // namespace gravlab
