#pragma once
// Moves the simulation's current positions into the particle vertex buffer, once per drawn frame.
//
// Design note: this is the single place where body data crosses from sim to GL, by one of three paths, all offered by
// the simulation's VisualSource (the feed never learns which backend it talks to).
//   GL compute (a source whose state lives in GL buffers of this context, the GL backend): one compute dispatch
//              writes the vertices into the renderer's buffer; no mapping, no host copy; drawn by the GL point draw.
//   interop    (a source that can write on the device, i.e. the CUDA backend, and the GL buffer could be registered
//              with CUDA): the buffer is mapped on the source's stream, the source writes RenderVertex into it on the
//              device, and it is unmapped before any draw reads it. No host round trip. The registration is redone
//              whenever the renderer replaced its buffer (storageGeneration()).
//   host copy  (CPU backend, or registration failed: WSL2 and hybrid-graphics laptops report
//              cudaErrorOperatingSystem, Mesa's software GL is on no CUDA device): the source writes into a reused
//              host staging array, uploaded with one glNamedBufferSubData.
// A failed registration is logged once (one line on the log stream) and reported by path(), which the panel shows;
// the feed then stays on the host copy and keeps running. Camera framing needs positions on the host; with interop
// they are copied only when asked for (copyToHost), not every frame. Vertices that came through interop are drawn by
// CUDA splatting (deviceLight(); see DeviceParticleLight.hpp for why), and the GL point draw serves the host copy.
#include <gravlab/render/DeviceParticleLight.hpp>
#include <gravlab/render/ParticleRenderer.hpp>
#include <gravlab/sim/VisualSource.hpp>

#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gravlab {

class BodyVertexFeed {
public:
    /// Host bytes per body of the staging array: every frame on the host-copy path, and once for the camera fit
    /// (copyToHost) on the interop path, so it is always there.
    static constexpr std::size_t kHostStagingBytesPerBody = sizeof(RenderVertex);

    /// log receives the one line that says interop is unavailable, if it is.
    explicit BodyVertexFeed(std::ostream& log);
    ~BodyVertexFeed();
    BodyVertexFeed(const BodyVertexFeed&) = delete;
    BodyVertexFeed& operator=(const BodyVertexFeed&) = delete;

    /// Puts the source's vertexCount() vertices into renderer, through interop when possible.
    void update(const VisualSource& source, ParticleRenderer& renderer);
    /// The vertices on the host: the last host-copy upload, or a fresh copy from source on the interop path.
    std::span<const RenderVertex> copyToHost(const VisualSource& source);
    /// The vertices of the last update when it took the host-copy path (already on the host, so free to read);
    /// nullopt on the interop path, where reading them would cost a full device-to-host copy.
    std::optional<std::span<const RenderVertex>> hostVertices() const;
    /// Which path the last update took, for the panel: "CUDA-GL interop, ..." or "host copy" with the reason.
    const std::string& path() const { return m_path; }
    /// After an interop update: the CUDA splatter that draws these vertices (DeviceParticleLight.hpp), in place of
    /// the GL point draw; nullptr on the host-copy path and in builds without CUDA.
    DeviceParticleLight* deviceLight();

private:
    struct Interop;
    bool tryInterop(const VisualSource& source, ParticleRenderer& renderer);

    std::ostream& m_log;
    std::vector<RenderVertex> m_staging;
    bool m_stagingCurrent = false;
    bool m_writtenByGl = false; ///< the last update took the GL compute path
    std::unique_ptr<Interop> m_interop;
    std::string m_path = "host copy";
};

} // namespace gravlab
