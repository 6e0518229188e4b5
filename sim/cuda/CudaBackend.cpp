#include "CudaBackend.hpp"

#include "CudaBackendFactory.hpp"
#include "DeviceDiagnostics.hpp"
#include "DeviceForces.hpp"
#include "DeviceLeapfrog.hpp"
#include "DeviceRenderVertices.hpp"

#include <stdexcept>

namespace gravlab {
namespace {

enum Phase : std::size_t {
    kBoxPhase,
    kBuildPhase,
    kSummaryPhase,
    kSortPhase,
    kForcePhase,
    kIntegratePhase,
    kOrbPhase,
    kPhaseCount
};
const char* const kPhaseNames[kPhaseCount] = {"box", "build", "summary", "sort", "force", "integrate", "orb"};
constexpr DeviceTree::PhaseMarks kTreePhases{kBoxPhase, kBuildPhase, kSortPhase, kSummaryPhase, kForcePhase};

GravityParams gravityOf(const SimParams& params) {
    return {params.gravitationalConstant, params.softeningLength};
}

/// The phases a solver reports, in kPhaseNames order, with their times; "orb" only while ORB is on.
std::vector<PhaseTiming> timingsOf(const SimParams& params, const std::vector<double>& totals) {
    std::vector<PhaseTiming> timings;
    for (std::size_t phase = 0; phase < kPhaseCount; ++phase) {
        const bool solverPhase = params.solver == SolverKind::Tree || phase == kForcePhase || phase == kIntegratePhase;
        if (phase == kOrbPhase ? params.orb.domainCount > 0 : solverPhase)
            timings.push_back({kPhaseNames[phase], totals.empty() ? 0.0 : totals[phase]});
    }
    return timings;
}

DeviceSummary requireDevice() {
    std::string reason;
    if (!cudaDeviceAvailable(reason))
        throw std::runtime_error("the CUDA backend is unavailable: " + reason);
    return queryCurrentDevice();
}

} // namespace

bool CudaBackend::ForceSettings::operator==(const ForceSettings& other) const {
    return solver == other.solver && gravity.gravitationalConstant == other.gravity.gravitationalConstant &&
           gravity.softeningLength == other.gravity.softeningLength && openingAngle == other.openingAngle;
}

CudaBackend::ForceSettings CudaBackend::forceSettingsOf(const SimParams& params) {
    // theta only matters to the tree; leaving it out for the direct solvers keeps a slider move from forcing a
    // needless re-evaluation.
    return {params.solver, gravityOf(params), params.solver == SolverKind::Tree ? params.openingAngle : 0.0};
}

CudaBackend::CudaBackend() : m_device(requireDevice()), m_timeline(kPhaseCount) {}

std::string CudaBackend::description() const {
    return "CUDA on " + m_device.name + " (compute " + std::to_string(m_device.computeCapabilityMajor) + "." +
           std::to_string(m_device.computeCapabilityMinor) + ", " + std::to_string(m_device.multiprocessorCount) +
           " SMs)";
}

std::uint64_t CudaBackend::allocatedBytes() const {
    return m_bodies.positionMass.bytes() + m_bodies.velocityColor.bytes() + m_bodies.acceleration.bytes() +
           m_savedPositionMass.bytes() + m_savedVelocityColor.bytes() + m_bodyScratch.bytes() +
           m_nonFiniteCounts.bytes() + m_tree.allocatedBytes();
}

void CudaBackend::load(const Bodies& bodies) {
    const std::size_t count = bodies.size();
    requireDeviceMemoryForBodies(count, kDeviceBytesPerBody, allocatedBytes());
    m_tree.release(); // scratch only: the next tree evaluation sizes it for the new bodies
    uploadBodies(bodies, m_bodies, m_stream.get());
    m_savedPositionMass.resize(count);
    m_savedVelocityColor.resize(count);
    m_bodyScratch.resize(count);
    m_accelerationsCurrent = false;
    m_orbDomains.invalidate();
    m_stepsTaken = 0;
    m_lastTimings.clear();
}

bool CudaBackend::accelerationsCurrentFor(const SimParams& params) const {
    return m_accelerationsCurrent && m_accelerationSettings == forceSettingsOf(params);
}

unsigned CudaBackend::refreshAccelerations(const SimParams& params) {
    m_accelerationsCurrent = false;
    m_tree.invalidate();
    if (params.solver == SolverKind::Tree) {
        const unsigned nonFinite =
            m_tree.computeAccelerations(m_bodies, m_bodyScratch, gravityOf(params), float(params.openingAngle),
                                        m_stream.get(), m_timeline, kTreePhases);
        if (nonFinite != 0)
            return nonFinite;
    } else {
        launchForces(params.solver, m_bodies.positionMass.data(), m_bodies.acceleration.data(), m_bodies.size(),
                     gravityOf(params), m_stream.get());
        m_timeline.mark(kForcePhase, m_stream.get());
    }
    m_accelerationSettings = forceSettingsOf(params);
    m_accelerationsCurrent = true;
    return 0;
}

void CudaBackend::step(const SimParams& params, int stepCount) {
    if (stepCount < 0)
        throw std::invalid_argument("CudaBackend::step: negative step count " + std::to_string(stepCount));
    requireCudaSolver(params.solver);
    m_lastTimings = timingsOf(params, {});
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
    if (!accelerationsCurrentFor(params)) {
        if (const unsigned nonFinite = refreshAccelerations(params); nonFinite != 0)
            failBeforeBuild(0, nonFinite);
    }
    for (int s = 0; s < stepCount; ++s) {
        launchKickDrift(m_bodies.positionMass.data(), m_bodies.velocityColor.data(), m_bodies.acceleration.data(),
                        count, halfStep, timeStep, stream);
        m_timeline.mark(kIntegratePhase, stream);
        if (params.orb.domainCount > 0 || m_orbDomains.active()) {
            updateOrbAfterDrift(params);
            m_timeline.mark(kOrbPhase, stream);
        }
        if (const unsigned nonFinite = refreshAccelerations(params); nonFinite != 0)
            failBeforeBuild(s, nonFinite);
        launchKickAndCountNonFinite(m_bodies.positionMass.data(), m_bodies.velocityColor.data(),
                                    m_bodies.acceleration.data(), count, halfStep, m_nonFiniteCounts.data() + s,
                                    stream);
        m_timeline.mark(kIntegratePhase, stream);
    }

    std::vector<unsigned> nonFiniteCounts(m_nonFiniteCounts.size());
    m_nonFiniteCounts.download(nonFiniteCounts, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    m_lastTimings = timingsOf(params, m_timeline.totalsMilliseconds());
    nonFiniteCounts.resize(std::size_t(stepCount));
    throwIfNonFinite(nonFiniteCounts);
    m_stepsTaken += std::uint64_t(stepCount);
}

void CudaBackend::updateOrbAfterDrift(const SimParams& params) {
    try {
        m_orbDomains.update(m_bodies, m_bodyScratch, params.orb, m_stream.get());
    } catch (const std::invalid_argument&) {
        // Non-finite positions after the drift: OrbGpu refuses them before moving a body. The force evaluation's or
        // the kick's check reports them and rolls the step back; the domains are rebuilt afterwards.
        m_orbDomains.invalidate();
    }
}

void CudaBackend::updateOrbDomains(const SimParams& params) {
    try {
        if (m_orbDomains.refresh(m_bodies, m_bodyScratch, params.orb, m_stream.get())) {
            m_accelerationsCurrent = false; // cached per-body results belong to the old order
            m_tree.invalidate();
        }
    } catch (const std::invalid_argument&) {
        m_orbDomains.invalidate(); // non-finite positions: no domains until a finite state is loaded
    }
}

void CudaBackend::failBeforeBuild(int stepIndex, unsigned nonFiniteBodies) {
    std::vector<unsigned> nonFiniteCounts(m_nonFiniteCounts.size());
    m_nonFiniteCounts.download(nonFiniteCounts, m_stream.get());
    m_stream.synchronize();
    nonFiniteCounts.resize(std::size_t(stepIndex)); // the kicks of the steps before this one
    throwIfNonFinite(nonFiniteCounts);
    restoreState();
    throw NonFiniteStateError(m_stepsTaken + std::uint64_t(stepIndex) + 1, nonFiniteBodies, m_bodies.size(),
                              m_stepsTaken);
}

void CudaBackend::saveState() {
    m_savedPositionMass.copyFrom(m_bodies.positionMass, m_stream.get());
    m_savedVelocityColor.copyFrom(m_bodies.velocityColor, m_stream.get());
}

void CudaBackend::restoreState() {
    m_bodies.positionMass.copyFrom(m_savedPositionMass, m_stream.get());
    m_bodies.velocityColor.copyFrom(m_savedVelocityColor, m_stream.get());
    m_accelerationsCurrent = false;
    m_tree.invalidate();
    m_orbDomains.invalidate(); // migration may have reordered the bodies since the saved copy
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

void CudaBackend::readAccelerations(const SimParams& params, Vec3Arrays<float>& out) {
    requireCudaSolver(params.solver);
    if (!accelerationsCurrentFor(params) && m_bodies.size() != 0) {
        m_timeline.begin(m_stream.get());
        if (const unsigned nonFinite = refreshAccelerations(params); nonFinite != 0)
            throw NonFiniteStateError(m_stepsTaken, nonFinite, m_bodies.size(), m_stepsTaken);
    }
    downloadAccelerations(m_bodies, out, m_stream.get());
}

Diagnostics CudaBackend::diagnostics(const SimParams& params) const {
    return computeDiagnosticsDevice(m_bodies.positionMass.data(), m_bodies.velocityColor.data(), m_bodies.size(),
                                    gravityOf(params), m_stream.get());
}

void CudaBackend::Visuals::writeOnStream(RenderVertex* vertices, cudaStream_t stream) const {
    const DeviceBodies& bodies = m_backend.m_bodies;
    if (m_colorMode == ColorMode::OrbDomain && m_backend.m_orbDomains.active())
        m_backend.m_orbDomains.writeDomainVertices(bodies, vertices, stream);
    else if (m_colorMode == ColorMode::LeafDepth && m_backend.m_tree.built())
        m_backend.m_tree.writeLeafDepthVertices(bodies.positionMass.data(), vertices, bodies.size(), stream);
    else
        launchWriteRenderVertices(bodies.positionMass.data(), bodies.velocityColor.data(), vertices, bodies.size(),
                                  stream);
}

void CudaBackend::Visuals::writeVertices(std::span<RenderVertex> out) const {
    static_assert(sizeof(RenderVertex) == sizeof(float4));
    const std::size_t count = m_backend.m_bodies.size();
    if (out.size() < count)
        throw std::invalid_argument("writeVertices: room for " + std::to_string(out.size()) +
                                    " vertices, the simulation has " + std::to_string(count) + " bodies");
    if (count == 0)
        return;
    const cudaStream_t stream = m_backend.m_stream.get();
    DeviceBuffer<float4>& staging = m_backend.m_bodyScratch;
    writeOnStream(reinterpret_cast<RenderVertex*>(staging.data()), stream);
    CUDA_CHECK(
        cudaMemcpyAsync(out.data(), staging.data(), count * sizeof(RenderVertex), cudaMemcpyDeviceToHost, stream));
    m_backend.m_stream.synchronize();
}

void CudaBackend::Visuals::writeVerticesOnDevice(RenderVertex* vertices, std::size_t capacity,
                                                 StreamHandle streamHandle) const {
    const std::size_t count = m_backend.m_bodies.size();
    if (capacity < count)
        throw std::invalid_argument("writeVerticesOnDevice: the vertex buffer holds " + std::to_string(capacity) +
                                    " vertices, the simulation has " + std::to_string(count) + " bodies");
    // The write runs on the caller's stream, where the GL buffer was mapped (mapping orders only that stream after
    // GL), after the last step; the next step waits for the write before it moves the bodies.
    const auto stream = static_cast<cudaStream_t>(streamHandle.value);
    const cudaStream_t own = m_backend.m_stream.get();
    if (stream != own) {
        m_backend.m_stateReady.record(own);
        CUDA_CHECK(cudaStreamWaitEvent(stream, m_backend.m_stateReady.get(), 0));
    }
    writeOnStream(vertices, stream);
    if (stream != own) {
        m_backend.m_verticesWritten.record(stream);
        CUDA_CHECK(cudaStreamWaitEvent(own, m_backend.m_verticesWritten.get(), 0));
    }
}

void CudaBackend::Visuals::collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const {
    m_backend.m_tree.collectCells(query, out, m_backend.m_stream.get());
}

void CudaBackend::Visuals::collectOrbCells(std::vector<OrbCell>& out) const {
    out = m_backend.m_orbDomains.cells(m_backend.m_stream.get());
}

void CudaBackend::downloadTree(OctreeSnapshot& out) const {
    m_tree.download(out, m_stream.get());
}

std::unique_ptr<SimulationBackend> createCudaBackend(const SimParams&) {
    return std::make_unique<CudaBackend>();
}

} // namespace gravlab
