#pragma once
// The CUDA implementation of DeviceParticleLight: splats the vertices of a CUDA-registered vertex buffer into a light
// buffer shared with GL (CUDA builds only; see DeviceParticleLight.hpp's design note).
//
// Design note: the splat runs on a stream of its own, so a frame never queues behind a simulation step in flight on
// the backend's stream (the window's background stepping); two events order the feed's write before the splat's read
// and the splat's read before the next write, without the host waiting for either. Both buffers are mapped for the
// kernel and unmapped before GL reads the light, which orders the kernel before the tone mapper's read. The light
// buffer follows the frame size.
#include "CudaGlInterop.hpp"

#include <gravlab/render/DeviceParticleLight.hpp>
#include <gravlab/render/GlObjects.hpp>

#include <cstddef>
#include <optional>

namespace gravlab {

class ParticleSplatter final : public DeviceParticleLight {
public:
    /// vertices: the registration of the vertex buffer, owned by the caller and outliving this splatter;
    /// vertexCount() tells how many of its vertices are current.
    explicit ParticleSplatter(CudaGlBuffer& vertices);
    ~ParticleSplatter() override;
    ParticleSplatter(const ParticleSplatter&) = delete;
    ParticleSplatter& operator=(const ParticleSplatter&) = delete;

    /// Call before a writer queues a vertex write on its stream: the write waits until the last splat has read them.
    void beforeVertexWrite(StreamHandle writer);
    /// Call after the write of count vertices was queued on writer: the next splat waits for it and draws them.
    void afterVertexWrite(StreamHandle writer, std::size_t count);
    /// The vertex buffer's registration changed (the renderer grew its buffer).
    void setVertexBuffer(CudaGlBuffer& vertices) { m_vertices = &vertices; }

    GLuint splat(const ParticleView& view, const ParticleStyle& style, BodyPalette palette, int width,
                 int height) override;

private:
    void resize(int width, int height);
    void releaseCudaObjects() noexcept;

    CudaGlBuffer* m_vertices;
    std::size_t m_vertexCount = 0;
    StreamHandle m_stream;
    void* m_verticesWritten = nullptr; ///< cudaEvent_t recorded after the feed's write
    void* m_splatDone = nullptr;       ///< cudaEvent_t recorded after the last splat read the vertices
    GlBuffer m_light;
    std::optional<CudaGlBuffer> m_lightRegistration;
    int m_width = 0;
    int m_height = 0;
};

} // namespace gravlab
