#include "CudaBackend.hpp"

#include "CudaBackendFactory.hpp"
#include "DeviceDiagnostics.hpp"
#include "DeviceForces.hpp"
#include "DeviceLeapfrog.hpp"
#include "DeviceRenderVertices.hpp"

#include <stdexcept>

namespace gravlab {
namespace {

enum Phase : std::size_t { kForcePhase, kIntegratePhase, kPhaseCount };

GravityParams gravityOf(const SimParams& params) {
    return {params.gravitationalConstant, params.softeningLength};
}

bool sameGravity(const GravityParams& a, const GravityParams& b) {
    return a.gravitationalConstant == b.gravitationalConstant && a.softeningLength == b.softeningLength;
}

DeviceSummary requireDevice() {
    std::string reason;
    if (!cudaDeviceAvailable(reason))
        throw std::runtime_error("the CUDA backend is unavailable: " + reason);
    return queryCurrentDevice();
}

} // namespace

CudaBackend::CudaBackend() : m_device(requireDevice()), m_timeline(kPhaseCount) {}

std::string CudaBackend::description() const {
    return "CUDA on " + m_device.name + " (compute " + std::to_string(m_device.computeCapabilityMajor) + "." +
           std::to_string(m_device.computeCapabilityMinor) + ", " + std::to_string(m_device.multiprocessorCount) +
           " SMs)";
}

void CudaBackend::load(const Bodies& bodies) {
    const std::size_t count = bodies.size();
    requireDeviceMemoryForBodies(count, kDeviceBytesPerBody, m_bodies.size() * kDeviceBytesPerBody);
    uploadBodies(bodies, m_bodies, m_stream.get());
    m_savedPositionMass.resize(count);
    m_savedVelocityColor.resize(count);
    m_hostPathVertices = {};
    m_accelerationsCurrent = false;
    m_stepsTaken = 0;
    m_lastTimings.clear();
}

void CudaBackend::refreshAccelerations(const SimParams& params) {
    const GravityParams gravity = gravityOf(params);
    launchForces(params.solver, m_bodies.positionMass.data(), m_bodies.acceleration.data(), m_bodies.size(), gravity,
                 m_stream.get());
    m_accelerationGravity = gravity;
}

void CudaBackend::step(const SimParams& params, int stepCount) {
    if (stepCount < 0)
        throw std::invalid_argument("CudaBackend::step: negative step count " + std::to_string(stepCount));
    requireCudaSolver(params.solver);
    m_lastTimings = {{"force", 0.0}, {"integrate", 0.0}};
    const std::size_t count = m_bodies.size();
    if (stepCount == 0 || count == 0)
        return;

    cudaStream_t stream = m_stream.get();
    saveState();
    if (m_nonFiniteCounts.size() < std::size_t(stepCount))
        m_nonFiniteCounts.resize(std::size_t(stepCount));
    m_nonFiniteCounts.zero(stream);

    const float timeStep = static_cast<float>(params.timeStep);
    const float halfStep = 0.5f * timeStep;
    m_timeline.begin(stream);
    if (!m_accelerationsCurrent || !sameGravity(m_accelerationGravity, gravityOf(params))) {
        refreshAccelerations(params);
        m_timeline.mark(kForcePhase, stream);
    }
    for (int s = 0; s < stepCount; ++s) {
        launchKickDrift(m_bodies.positionMass.data(), m_bodies.velocityColor.data(), m_bodies.acceleration.data(),
                        count, halfStep, timeStep, stream);
        m_timeline.mark(kIntegratePhase, stream);
        refreshAccelerations(params);
        m_timeline.mark(kForcePhase, stream);
        launchKickAndCountNonFinite(m_bodies.positionMass.data(), m_bodies.velocityColor.data(),
                                    m_bodies.acceleration.data(), count, halfStep, m_nonFiniteCounts.data() + s,
                                    stream);
        m_timeline.mark(kIntegratePhase, stream);
    }
    m_accelerationsCurrent = true;

    std::vector<unsigned> nonFiniteCounts(m_nonFiniteCounts.size());
    m_nonFiniteCounts.download(nonFiniteCounts, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::vector<double> totals = m_timeline.totalsMilliseconds();
    m_lastTimings = {{"force", totals[kForcePhase]}, {"integrate", totals[kIntegratePhase]}};
    nonFiniteCounts.resize(std::size_t(stepCount));
    throwIfNonFinite(nonFiniteCounts);
    m_stepsTaken += std::uint64_t(stepCount);
}

void CudaBackend::saveState() {
    m_savedPositionMass.copyFrom(m_bodies.positionMass, m_stream.get());
    m_savedVelocityColor.copyFrom(m_bodies.velocityColor, m_stream.get());
}

void CudaBackend::restoreState() {
    m_bodies.positionMass.copyFrom(m_savedPositionMass, m_stream.get());
    m_bodies.velocityColor.copyFrom(m_savedVelocityColor, m_stream.get());
    m_accelerationsCurrent = false;
    m_stream.synchronize();
}

void CudaBackend::throwIfNonFinite(const std::vector<unsigned>& nonFiniteCounts) {
    for (std::size_t s = 0; s < nonFiniteCounts.size(); ++s) {
        if (nonFiniteCounts[s] == 0)
            continue;
        restoreState();
        throw NonFiniteStateError(m_stepsTaken + s + 1, nonFiniteCounts[s], m_bodies.size(), m_stepsTaken);
    }
}

void CudaBackend::readBodies(Bodies& out) const {
    downloadBodies(m_bodies, out, m_stream.get());
}

Diagnostics CudaBackend::diagnostics(const SimParams& params) const {
    return computeDiagnosticsDevice(m_bodies.positionMass.data(), m_bodies.velocityColor.data(), m_bodies.size(),
                                    gravityOf(params), m_stream.get());
}

void CudaBackend::writeRenderVertices(std::span<RenderVertex> out) const {
    if (out.size() < m_bodies.size())
        throw std::invalid_argument("writeRenderVertices: room for " + std::to_string(out.size()) +
                                    " vertices, the simulation has " + std::to_string(m_bodies.size()) + " bodies");
    m_hostPathVertices.resize(m_bodies.size());
    launchWriteRenderVertices(m_bodies.positionMass.data(), m_bodies.velocityColor.data(), m_hostPathVertices.data(),
                              m_bodies.size(), m_stream.get());
    m_hostPathVertices.download(out.first(m_bodies.size()), m_stream.get());
    m_stream.synchronize();
}

void CudaBackend::writeRenderVerticesDevice(RenderVertex* vertices, std::size_t capacity, cudaStream_t stream) const {
    if (capacity < m_bodies.size())
        throw std::invalid_argument("writeRenderVerticesDevice: the vertex buffer holds " + std::to_string(capacity) +
                                    " vertices, the simulation has " + std::to_string(m_bodies.size()) + " bodies");
    // The write runs on the caller's stream, where the GL buffer was mapped (mapping orders only that stream after
    // GL), after the last step; the next step waits for the write before it moves the bodies.
    if (stream != m_stream.get()) {
        m_stateReady.record(m_stream.get());
        CUDA_CHECK(cudaStreamWaitEvent(stream, m_stateReady.get(), 0));
    }
    launchWriteRenderVertices(m_bodies.positionMass.data(), m_bodies.velocityColor.data(), vertices, m_bodies.size(),
                              stream);
    if (stream != m_stream.get()) {
        m_verticesWritten.record(stream);
        CUDA_CHECK(cudaStreamWaitEvent(m_stream.get(), m_verticesWritten.get(), 0));
    }
}

std::unique_ptr<SimulationBackend> createCudaBackend(const SimParams&) {
    return std::make_unique<CudaBackend>();
}

} // namespace gravlab
