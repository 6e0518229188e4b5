#include "device/cuda/CudaBackend.hpp"

#include "device/cuda/CudaBackendFactory.hpp"
#include "device/cuda/DeviceDiagnostics.hpp"
#include "device/cuda/DeviceHierarchicalLeapfrog.hpp"
#include "device/cuda/DeviceLeapfrog.hpp"
#include "device/cuda/DeviceLeapfrogPairs.hpp"
#include "device/cuda/DeviceRenderVertices.hpp"
#include "direct/cuda/DeviceForces.hpp"
#include "solvers/SolverRegistration.hpp"

#include <algorithm>
#include <stdexcept>

namespace gravlab {

bool CudaBackend::ForceSettings::operator==(const ForceSettings& other) const {
    return solver == other.solver && gravity.gravitationalConstant == other.gravity.gravitationalConstant &&
           gravity.softeningLength == other.gravity.softeningLength && openingAngle == other.openingAngle &&
           openingCriterion == other.openingCriterion && forceAccuracy == other.forceAccuracy;
}

CudaBackend::ForceSettings CudaBackend::forceSettingsOf(const SimParams& params) {
    const SolverInfo& solver = findSolver(params.solver);
    requireSolverRunsOn(solver, Device::Cuda, "the CUDA backend");
    // The opening criterion only matters to solvers that read it; leaving it out for the others keeps a slider move
    // from forcing a needless re-evaluation.
    if (!solver.usesOpeningAngle)
        return {&solver, params.gravity(), 0.0, OpeningCriterion::Geometric, 0.0};
    return {&solver, params.gravity(), params.openingAngle, params.openingCriterion, params.forceAccuracy};
}

CudaBackend::CudaBackend() : m_device(requireCudaDevice("the CUDA backend")) {}

void CudaBackend::useSolver(const SolverInfo& solver) {
    if (m_solverInfo == &solver)
        return;
    m_solver.reset(); // its buffers go before the next one allocates
    m_solver = findSolverRegistration(solver.name).makeCuda();
    m_solverInfo = &solver;
    m_accelerationsCurrent = false;
    // The solver's phases first, then the integrator's and ORB's (lastStepTimings lists them in this order).
    m_phaseNames.assign(solver.cudaPhases.begin(), solver.cudaPhases.end());
    m_integratePhase = m_phaseNames.size();
    m_phaseNames.push_back("integrate");
    m_orbPhase = m_phaseNames.size();
    m_phaseNames.push_back("orb");
    m_timeline = PhaseTimeline(m_phaseNames.size());
}

std::vector<PhaseTiming> CudaBackend::timingsOf(const SimParams& params, const std::vector<double>& totals) const {
    std::vector<PhaseTiming> timings;
    for (std::size_t phase = 0; phase < m_phaseNames.size(); ++phase)
        if (phase != m_orbPhase || params.orb.domainCount > 0)
            timings.push_back({std::string(m_phaseNames[phase]), totals.empty() ? 0.0 : totals[phase]});
    return timings;
}

std::string CudaBackend::description() const {
    return "CUDA on " + m_device.name + " (compute " + std::to_string(m_device.computeCapabilityMajor) + "." +
           std::to_string(m_device.computeCapabilityMinor) + ", " + std::to_string(m_device.multiprocessorCount) +
           " SMs)";
}

std::uint64_t CudaBackend::allocatedBytes() const {
    return m_bodies.positionMass.bytes() + m_bodies.velocityColor.bytes() + m_bodies.acceleration.bytes() +
           m_bodies.loadOrder.bytes() + m_rollback.allocatedBytes() + m_bodies.positionLow.bytes() +
           m_bodies.velocityLow.bytes() + m_bodies.accelerationLow.bytes() + m_bodyScratch.bytes() +
           m_nonFiniteCounts.bytes() + (m_solver ? m_solver->allocatedBytes() : 0) + m_visuals.allocatedBytes();
}

void CudaBackend::load(const Bodies& bodies) {
    const std::size_t count = bodies.size();
    requireDeviceMemoryForBodies(count, kDeviceBytesPerBody, allocatedBytes());
    if (m_solver)
        m_solver->release(); // scratch only: the next evaluation sizes it for the new bodies
    m_potentialTree.reset();
    m_potential = DeviceBuffer<float>();
    uploadBodies(bodies, m_bodies, m_stream.get());
    m_rollback.reserveInPlace(count);
    m_bodyScratch.resize(count);
    m_accelerationsCurrent = false;
    m_accelerationsInBodyOrder = false;
    m_earlierAccelerationsCurrent = false;
    ++m_stateVersion;
    m_orbDomains.invalidate();
    m_stepsTaken = 0;
    m_lastTimings.clear();
    m_lookup.reset();
}

void CudaBackend::setPrecision(Precision precision) {
    if (m_bodies.precision() == precision)
        return;
    m_bodies.setPrecision(precision, m_stream.get());
    m_accelerationsCurrent = false; // an fp64 solver's accelerations gain or lose their low parts
    ++m_stateVersion;
}

bool CudaBackend::accelerationsCurrentFor(const ForceSettings& settings) const {
    return m_accelerationsCurrent && m_accelerationSettings == settings;
}

unsigned CudaBackend::refreshAccelerations(const ForceSettings& settings) {
    m_accelerationsCurrent = false;
    ++m_stateVersion;
    const ForceParams forces{settings.gravity, float(settings.openingAngle), settings.openingCriterion,
                             float(settings.forceAccuracy), m_accelerationsInBodyOrder};
    m_accelerationsInBodyOrder = false; // until the evaluation completes
    if (const unsigned nonFinite =
            m_solver->computeAccelerations(m_bodies, m_bodyScratch, forces, m_stream.get(), m_timeline);
        nonFinite != 0)
        return nonFinite;
    m_accelerationsInBodyOrder = true;
    m_accelerationSettings = settings;
    m_accelerationsCurrent = true;
    return 0;
}

void CudaBackend::step(const SimParams& params, int stepCount) {
    if (stepCount < 0)
        throw std::invalid_argument("CudaBackend::step: negative step count " + std::to_string(stepCount));
    const ForceSettings settings = forceSettingsOf(params); // once per call: the parameters hold for all its steps
    useSolver(*settings.solver);
    setPrecision(params.precision);
    m_lastTimings = timingsOf(params, {});
    const std::size_t count = m_bodies.size();
    if (stepCount == 0 || count == 0)
        return;

    cudaStream_t stream = m_stream.get();
    (void)takeCoincidentPair(); // one left by a call that failed otherwise belongs to none of this call's steps
    // The state at the start of this call; only ORB can reorder the bodies within it.
    m_rollback.save(m_bodies, params.orb.domainCount > 0 || m_orbDomains.active(), stream);
    if (m_nonFiniteCounts.size() < std::size_t(stepCount))
        m_nonFiniteCounts.resize(std::size_t(stepCount));
    m_nonFiniteCounts.zero(stream);

    const float timeStep = static_cast<float>(params.timeStep);
    const float halfStep = 0.5f * timeStep;
    m_timeline.begin(stream);
    if (!accelerationsCurrentFor(settings)) {
        m_earlierAccelerationsCurrent = false; // they may come from other forces (G, softening, solver)
        if (const unsigned nonFinite = refreshAccelerations(settings); nonFinite != 0)
            failBeforeBuild(0, nonFinite);
    }
    const bool hierarchical = params.timeSteps.mode == TimeStepMode::Hierarchical;
    m_earlierAccelerationsCurrent &= hierarchical && remembersAccelerations(params.timeSteps.levelChoice);
    m_lastTimeStepMode = params.timeSteps.mode;
    m_baseStepsInCall = m_subStepsInCall = m_forceEvaluationsInCall = m_surplusInCall = 0;
    for (int s = 0; s < stepCount; ++s) {
        if (hierarchical) {
            stepHierarchical(settings, params, s);
            continue;
        }
        kickDrift(halfStep, timeStep, params.timeStep);
        m_timeline.mark(m_integratePhase, stream);
        if (params.orb.domainCount > 0 || m_orbDomains.active()) {
            updateOrbAfterDrift(params);
            m_timeline.mark(m_orbPhase, stream);
        }
        if (const unsigned nonFinite = refreshAccelerations(settings); nonFinite != 0)
            failBeforeBuild(s, nonFinite);
        kickAndCount(halfStep, params.timeStep, m_nonFiniteCounts.data() + s);
        m_timeline.mark(m_integratePhase, stream);
    }

    std::vector<unsigned> nonFiniteCounts(m_nonFiniteCounts.size());
    m_nonFiniteCounts.download(nonFiniteCounts, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    m_lastTimings = timingsOf(params, m_timeline.totalsMilliseconds());
    throwIfCoincident(); // first: the pair's terms were left out, so it may have caused the non-finite state too
    nonFiniteCounts.resize(std::size_t(stepCount));
    throwIfNonFinite(nonFiniteCounts);
    m_stepsTaken += std::uint64_t(stepCount);
}

void CudaBackend::kickDrift(float halfStep, float timeStep, double timeStepFp64) {
    DeviceBodies& b = m_bodies;
    if (!b.hasLowParts()) {
        launchKickDrift(b.positionMass.data(), b.velocityColor.data(), b.acceleration.data(), b.size(), halfStep,
                        timeStep, m_stream.get());
        return;
    }
    const bool fp64Accelerations = m_solver->writesAccelerationLowParts();
    launchKickDriftPairs({b.positionMass.data(), b.positionLow.data(), b.velocityColor.data(), b.velocityLow.data(),
                          b.acceleration.data(), fp64Accelerations ? b.accelerationLow.data() : nullptr, b.size()},
                         0.5 * timeStepFp64, timeStepFp64, m_stream.get());
}

void CudaBackend::kickAndCount(float halfStep, double timeStepFp64, unsigned* nonFiniteCount) {
    DeviceBodies& b = m_bodies;
    if (!b.hasLowParts()) {
        launchKickAndCountNonFinite(b.positionMass.data(), b.velocityColor.data(), b.acceleration.data(), b.size(),
                                    halfStep, nonFiniteCount, m_stream.get());
        return;
    }
    const bool fp64Accelerations = m_solver->writesAccelerationLowParts();
    launchKickPairsAndCountNonFinite({b.positionMass.data(), b.positionLow.data(), b.velocityColor.data(),
                                      b.velocityLow.data(), b.acceleration.data(),
                                      fp64Accelerations ? b.accelerationLow.data() : nullptr, b.size()},
                                     0.5 * timeStepFp64, nonFiniteCount, m_stream.get());
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

void CudaBackend::reverseVelocities() {
    m_earlierAccelerationsCurrent = false; // the remembered slopes point the other way now
    launchNegateVelocities(m_bodies.velocityColor.data(), m_bodies.size(), m_stream.get());
    if (m_bodies.hasLowParts())
        launchNegateVelocities(m_bodies.velocityLow.data(), m_bodies.size(), m_stream.get());
}

void CudaBackend::updateOrbDomains(const SimParams& params) {
    try {
        if (m_orbDomains.refresh(m_bodies, m_bodyScratch, params.orb, m_stream.get())) {
            m_accelerationsCurrent = false; // cached per-body results belong to the old order
            ++m_stateVersion;
            if (m_solver)
                m_solver->invalidate();
        }
    } catch (const std::invalid_argument&) {
        m_orbDomains.invalidate(); // non-finite positions: no domains until a finite state is loaded
    }
}

void CudaBackend::failBeforeBuild(int stepIndex, unsigned nonFiniteBodies) {
    std::vector<unsigned> nonFiniteCounts(m_nonFiniteCounts.size());
    m_nonFiniteCounts.download(nonFiniteCounts, m_stream.get());
    m_stream.synchronize();
    throwIfCoincident();
    nonFiniteCounts.resize(std::size_t(stepIndex)); // the kicks of the steps before this one
    throwIfNonFinite(nonFiniteCounts);
    restoreState();
    throw NonFiniteStateError(m_stepsTaken + std::uint64_t(stepIndex) + 1, nonFiniteBodies, m_bodies.size(),
                              m_stepsTaken);
}

void CudaBackend::restoreState() {
    m_rollback.restore(m_bodies, m_stream.get());
    m_accelerationsCurrent = false;
    m_accelerationsInBodyOrder = false; // the failed step's accelerations belong to the bodies it moved
    m_earlierAccelerationsCurrent = false;
    ++m_stateVersion;
    if (m_solver)
        m_solver->invalidate();
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

std::optional<CoincidentPair> CudaBackend::takeCoincidentPair() {
    const std::optional<CoincidenceRecord> record =
        m_solver ? m_solver->takeCoincidentPair(m_stream.get()) : std::nullopt;
    if (!record)
        return std::nullopt;
    return CoincidentPair{m_bodies.idInLoadOrder.at(record->firstLoadIndex),
                          m_bodies.idInLoadOrder.at(record->secondLoadIndex),
                          {record->x, record->y, record->z}};
}

void CudaBackend::throwIfCoincident() {
    if (const std::optional<CoincidentPair> pair = takeCoincidentPair()) {
        restoreState();
        throw CoincidentBodiesError(*pair, m_stepsTaken);
    }
}

BodyIdentity CudaBackend::bodyIdentity(std::size_t index) const {
    return m_lookup.identityAt(m_bodies, index, m_stream.get());
}

void CudaBackend::readBodies(Bodies& out) const {
    downloadBodies(m_bodies, out, m_stream.get());
}

void CudaBackend::readAccelerations(const SimParams& params, Vec3Arrays<float>& out) {
    const ForceSettings settings = forceSettingsOf(params);
    useSolver(*settings.solver);
    if (!accelerationsCurrentFor(settings) && m_bodies.size() != 0) {
        m_earlierAccelerationsCurrent = false; // as in step(): they may come from other forces (G, softening, solver)
        m_timeline.begin(m_stream.get());
        if (const unsigned nonFinite = refreshAccelerations(settings); nonFinite != 0)
            throw NonFiniteStateError(m_stepsTaken, nonFinite, m_bodies.size(), m_stepsTaken);
        if (const std::optional<CoincidentPair> pair = takeCoincidentPair()) {
            m_accelerationsCurrent = false; // the pair's terms are missing from them
            throw CoincidentBodiesError(*pair, m_stepsTaken);
        }
    }
    downloadAccelerations(m_bodies, out, m_stream.get());
}

std::optional<BodyInspection> CudaBackend::inspectBody(const SimParams& params, std::uint64_t id) const {
    const std::optional<std::uint32_t> loadIndex = m_lookup.loadIndexOf(m_bodies, id);
    if (!loadIndex)
        return std::nullopt;
    cudaStream_t stream = m_stream.get();
    const std::optional<std::size_t> index =
        findBodiesByLoadOrder(m_bodies.loadOrder.data(), m_bodies.size(), {&*loadIndex, 1}, m_lookup.scratch(), stream)
            .front();
    if (!index)
        throw std::logic_error("inspectBody: load index " + std::to_string(*loadIndex) + " of id " +
                               std::to_string(id) + " is missing from the device's load order");
    float4 state[3];
    const DeviceBuffer<float4>* arrays[3] = {&m_bodies.positionMass, &m_bodies.velocityColor, &m_bodies.acceleration};
    for (int k = 0; k < 3; ++k)
        CUDA_CHECK(
            cudaMemcpyAsync(&state[k], arrays[k]->data() + *index, sizeof(float4), cudaMemcpyDeviceToHost, stream));
    BodyInspection inspection;
    inspection.potential = potentialAtBodyDevice(m_bodies.positionMass.data(), m_bodies.size(), *index,
                                                 params.gravity(), m_lookup.scratch(), stream);
    inspection.identity = {id, m_bodies.componentInLoadOrder[*loadIndex]};
    inspection.index = *index;
    inspection.position = {state[0].x, state[0].y, state[0].z};
    inspection.mass = state[0].w;
    inspection.velocity = {state[1].x, state[1].y, state[1].z};
    if (accelerationsCurrentFor(forceSettingsOf(params)))
        inspection.acceleration = std::array{state[2].x, state[2].y, state[2].z};
    if (m_orbDomains.active())
        inspection.orbDomain = orbDomainOfIndex(m_orbDomains.cells(stream), *index);
    return inspection;
}

std::vector<std::optional<BodyPosition>> CudaBackend::bodyPositions(std::span<const std::uint64_t> ids) const {
    return m_lookup.positions(m_bodies, ids, m_stream.get());
}

Diagnostics CudaBackend::diagnostics(const SimParams& params) const {
    return computeDiagnosticsDevice(m_bodies.positionMass.data(), m_bodies.velocityColor.data(), m_bodies.size(),
                                    params.gravity(), m_stream.get(),
                                    {m_bodies.positionLow.data(), m_bodies.velocityLow.data()});
}

bool CudaBackend::Visuals::writeTreeOrDomainColors(RenderVertex* vertices, cudaStream_t stream) const {
    const DeviceBodies& bodies = m_backend.m_bodies;
    const ColorMode mode = colorMode();
    ScalarColoring& coloring = m_scalars.coloring();
    if (mode == ColorMode::OrbDomain && m_backend.m_orbDomains.active()) {
        m_backend.m_orbDomains.writeDomainVertices(bodies, vertices, stream);
        coloring.showDomains();
        return true;
    }
    if (mode == ColorMode::TimeStepLevel && m_backend.levelsCurrent()) {
        launchWriteRenderVertices(bodies.positionMass.data(), bodies.velocityColor.data(), vertices, bodies.size(),
                                  stream); // positions; the colour scalars are then replaced by the levels
        launchWriteLevelColors(vertices, bodies.loadOrder.data(), m_backend.m_levelOfLoad.data(), bodies.size(),
                               m_backend.m_levelsMaxLevel, stream);
        coloring.showTimeStepLevels(m_backend.m_levelsMaxLevel);
        return true;
    }
    if (mode == ColorMode::LeafDepth && m_backend.m_solver &&
        m_backend.m_solver->writeLeafDepthVertices(bodies.positionMass.data(), vertices, bodies.size(), stream)) {
        coloring.showLeafDepth();
        return true;
    }
    coloring.showComponents(mode == ColorMode::LeafDepth       ? "the solver builds no tree, or none is built yet"
                            : mode == ColorMode::OrbDomain     ? "ORB is off"
                            : mode == ColorMode::TimeStepLevel ? "no hierarchical step since the state changed"
                                                               : "");
    return false;
}

void CudaBackend::Visuals::writeOnStream(RenderVertex* vertices, cudaStream_t stream) const {
    const CudaBackend& b = m_backend;
    if (isScalarColorMode(colorMode())) {
        const auto potentials = [&b] {
            SimParams params; // the forces of the last evaluation: the tree walk reuses its octree when it can
            params.solver = std::string(b.m_accelerationSettings.solver->name);
            params.gravitationalConstant = b.m_accelerationSettings.gravity.gravitationalConstant;
            params.softeningLength = b.m_accelerationSettings.gravity.softeningLength;
            params.openingAngle = b.m_accelerationSettings.openingAngle;
            return b.computePotentialsOnDevice(params);
        };
        if (m_scalars.write({b.m_bodies, b.m_accelerationsCurrent, b.m_accelerationSettings.gravity,
                             b.m_accelerationSettings.solver, b.m_stateVersion, potentials},
                            vertices, stream))
            return;
    } else if (writeTreeOrDomainColors(vertices, stream)) {
        return;
    }
    launchWriteRenderVertices(b.m_bodies.positionMass.data(), b.m_bodies.velocityColor.data(), vertices,
                              b.m_bodies.size(), stream);
}

void CudaBackend::Visuals::readColorValues(std::vector<float>& out) const {
    if (m_scalars.coloring().showsValues())
        m_scalars.readValues(out, m_backend.m_stream.get());
    else
        out.clear();
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
    if (m_backend.m_solver)
        m_backend.m_solver->collectTreeCells(query, out, m_backend.m_stream.get());
    else
        out.clear();
}

void CudaBackend::Visuals::collectOrbCells(std::vector<OrbCell>& out) const {
    out = m_backend.m_orbDomains.cells(m_backend.m_stream.get());
}

std::vector<SolverStatistic> CudaBackend::solverStatistics() const {
    return m_solver ? m_solver->statistics(m_stream.get()) : std::vector<SolverStatistic>{};
}

std::unique_ptr<SimulationBackend> createCudaBackend(const SimParams&) {
    return std::make_unique<CudaBackend>();
}

std::uint64_t cudaDeviceBytesPerBody(const SimParams& params) {
    // Double precision: the low parts and their rollback copy.
    const std::uint64_t lowPartBytes =
        params.precision == Precision::Double ? DeviceBodies::kLowPartBytesPerBody + 2 * sizeof(float4) : 0;
    return CudaBackend::kDeviceBytesPerBody + lowPartBytes +
           (params.orb.domainCount > 0 ? OrbDomainsGpu::kBytesPerBody : 0) +
           (params.timeSteps.mode == TimeStepMode::Hierarchical ? CudaBackend::kHierarchicalBytesPerBody : 0);
}

} // namespace gravlab
