// The distributed CUDA backend: local KDK leapfrog on each rank's GPU, an NCCL all-gather of positions per force
// evaluation, re-partitions over MPI on the host, collective diagnostics, body reads and rollback
// (see DistributedCudaBackend.hpp).
#include "distributed/cuda/DistributedCudaBackend.hpp"

#include "core/Stopwatch.hpp"
#include "device/cuda/DeviceDiagnostics.hpp"
#include "device/cuda/DeviceLeapfrog.hpp"
#include "device/cuda/DeviceRenderVertices.hpp"
#include "distributed/DistributedSupport.hpp"
#include "distributed/RankDomainVisuals.hpp"
#include "solvers/SolverRegistration.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace gravlab {
namespace {

/// count float4 from device to a host vector; waits for stream.
std::vector<float4> downloadRange(const float4* device, std::size_t count, cudaStream_t stream) {
    std::vector<float4> host(count);
    if (count > 0) {
        CUDA_CHECK(cudaMemcpyAsync(host.data(), device, count * sizeof(float4), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    return host;
}

} // namespace

DistributedCudaBackend::DistributedCudaBackend(Communicator& communicator, std::string why)
    : m_communicator(communicator), m_why(std::move(why)), m_device(requireCudaDevice("the CUDA backend across ranks")),
      m_nccl(communicator) {}

void DistributedCudaBackend::requireSupported(const SimParams& params) {
    requireDistributedSupport(params);
    if (params.softeningLength == 0)
        throw InvalidParameterError("softening", "softening 0 across GPU ranks is not supported yet (a coincident pair "
                                                 "would be met on one rank only): give --softening a length > 0, or "
                                                 "run without mpirun");
}

std::string DistributedCudaBackend::description() const {
    const std::string base = "CUDA over " + m_communicator.description() + " and " + NcclCommunicator::version() +
                             " (this rank on " + m_device.name + ")";
    return m_why.empty() ? base : base + "; " + m_why;
}

std::uint64_t DistributedCudaBackend::allocatedBytes() const {
    return m_all.positionMass.bytes() + m_all.velocityColor.bytes() + m_all.acceleration.bytes() +
           m_all.loadOrder.bytes() + m_scratch.bytes() + m_targetIndex.bytes() + m_isTarget.bytes() +
           m_nonFiniteCounts.bytes() + m_savedPositions.bytes() + m_savedVelocities.bytes() + m_savedLoadOrder.bytes() +
           (m_solver ? m_solver->allocatedBytes() : 0);
}

void DistributedCudaBackend::useSolver(const SolverInfo& solver) {
    if (m_solverInfo == &solver)
        return;
    m_solver.reset(); // its buffers go before the next one allocates
    m_solver = findSolverRegistration(solver.name).makeCuda();
    m_solverInfo = &solver;
    m_accelerationsValid = false;
    m_phaseNames.assign(solver.cudaPhases.begin(), solver.cudaPhases.end());
    m_exchangePhase = m_phaseNames.size();
    m_phaseNames.push_back("exchange");
    m_integratePhase = m_phaseNames.size();
    m_phaseNames.push_back("integrate");
    m_orbPhase = m_phaseNames.size();
    m_phaseNames.push_back("orb");
    m_timeline = PhaseTimeline(m_phaseNames.size());
}

void DistributedCudaBackend::load(const Bodies& bodies) {
    requireLoadableAcrossRanks(bodies, m_communicator.size());
    const Bodies all = singlePrecisionSliceOf(bodies, {0, bodies.size()});
    // Every rank holds all bodies; the check is local, and every rank has the same N and the same kind of GPU.
    requireDeviceMemoryForBodies(all.size(), kDeviceBytesPerBody, allocatedBytes());
    if (m_solver)
        m_solver->release();
    m_accelerationsValid = m_accelerationsInBodyOrder = false;
    m_repartitions = 0;
    m_stepsSinceRepartition = m_stepsSinceLoad = 0;
    m_lastTimings.clear();
    cudaStream_t stream = m_stream.get();
    uploadBodies(all, m_all, stream);
    m_all.acceleration.zero(stream); // no work weighed yet: the first cut balances the count
    m_scratch.resize(all.size());
    m_savedPositions.resize(all.size());
    m_savedVelocities.resize(all.size());
    m_isTarget.resize(all.size());
    m_targetIndex.resize(all.size()); // a slice may hold every body
    m_savedLoadOrder.resize(all.size());
    m_lookup.reset();
    cutDomains(OrbBalance::Count);
}

void DistributedCudaBackend::cutDomains(OrbBalance balance) {
    const Stopwatch cut;
    cudaStream_t stream = m_stream.get();
    const auto ranks = std::uint32_t(m_communicator.size());
    // Throws the same on every rank (same bodies), with the bodies left as they were. The load order rides along, so
    // the identity tables need no change.
    m_orb.build(m_all, ranks, balance, stream);
    OrbGpu::DomainLoads loads = m_orb.domainLoads(stream);
    Placement placed;
    placed.domains.cells = std::move(loads.cells);
    placed.domains.bodiesPerRank.assign(loads.bodies.begin(), loads.bodies.end());
    placed.domains.workPerRank = std::move(loads.weights);
    // Work balance falls back to the count when no body has a weight yet (OrbGpu.hpp).
    placed.domains.balance = loads.weighted ? OrbBalance::Work : OrbBalance::Count;
    const std::vector<std::size_t> counts(placed.domains.bodiesPerRank.begin(), placed.domains.bodiesPerRank.end());
    placed.slice = sliceOfRank(counts, m_communicator.rank());
    m_placement = std::move(placed);
    ++m_repartitions;
    placeTargets();
    if (m_solver)
        m_solver->invalidate();
    m_arraysAlike = true;
    m_lastRepartitionMilliseconds = cut.elapsedMilliseconds();
}

std::uint64_t DistributedCudaBackend::repartition(OrbBalance balance) {
    // Every rank's slice of the whole state (positions, velocities with colour keys, previous accelerations with the
    // work weights) into every rank's array, so that every rank cuts the same domains from the same bodies.
    cudaStream_t stream = m_stream.get();
    const std::vector<std::uint64_t>& perRank = m_placement.domains.bodiesPerRank;
    m_nccl.allGatherSlices(m_all.positionMass.data(), perRank, stream);
    m_nccl.allGatherSlices(m_all.velocityColor.data(), perRank, stream);
    m_nccl.allGatherSlices(m_all.acceleration.data(), perRank, stream);
    // A body the drift sent to infinity has no domain; every rank counts the same gathered positions.
    m_lostBodies.resize(1);
    m_lostBodies.zero(stream);
    launchCountNonFinitePositions(m_all.positionMass.data(), m_all.size(), m_lostBodies.data(), stream);
    std::vector<unsigned> lost(1);
    m_lostBodies.download(lost, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    if (lost[0] > 0)
        return lost[0];
    cutDomains(balance);
    return 0;
}

void DistributedCudaBackend::placeTargets() {
    launchSliceTargets(m_targetIndex.data(), m_isTarget.data(), m_all.size(), m_placement.slice.begin,
                       m_placement.slice.count, m_stream.get());
}

void DistributedCudaBackend::exchange(bool withAccelerations) {
    cudaStream_t stream = m_stream.get();
    m_nccl.allGatherSlices(m_all.positionMass.data(), m_placement.domains.bodiesPerRank, stream);
    if (withAccelerations)
        m_nccl.allGatherSlices(m_all.acceleration.data(), m_placement.domains.bodiesPerRank, stream);
}

void DistributedCudaBackend::setPrecision(Precision precision) {
    requireDistributedPrecision(precision);
}

unsigned DistributedCudaBackend::refreshAccelerations(const SolverForceSettings& settings) {
    m_accelerationsValid = false;
    ForceParams forces = settings.forces;
    forces.previousAccelerations = m_accelerationsInBodyOrder;
    cudaStream_t stream = m_stream.get();
    if (!m_arraysAlike) // right after a cut every rank already holds every position and acceleration
        exchange(forces.relativeOpening());
    m_timeline.mark(m_exchangePhase, stream);
    m_accelerationsInBodyOrder = false; // until the evaluation completes
    const DeviceTargets targets{m_targetIndex.data(), m_placement.slice.count, m_isTarget.data(), nullptr};
    if (const unsigned nonFinite =
            m_solver->computeAccelerationsOf(m_all, m_scratch, forces, targets, stream, m_timeline);
        nonFinite != 0)
        return nonFinite;
    m_accelerationsInBodyOrder = true;
    m_accelerationsSettings = settings;
    m_accelerationsValid = true;
    return 0;
}

std::vector<std::uint64_t> DistributedCudaBackend::nonFiniteCountsOnAllRanks(int steps) {
    if (steps == 0)
        return {};
    std::vector<unsigned> counts(m_nonFiniteCounts.size());
    m_nonFiniteCounts.download(counts, m_stream.get());
    CUDA_CHECK(cudaStreamSynchronize(m_stream.get()));
    std::vector<std::uint64_t> sums(counts.begin(), counts.begin() + steps);
    m_communicator.allReduceSum(sums);
    return sums;
}

void DistributedCudaBackend::restoreAndThrow(int stepIndex, std::uint64_t affectedBodies) {
    cudaStream_t stream = m_stream.get();
    CUDA_CHECK(cudaStreamSynchronize(stream)); // no queued work may write over the restored state
    if (m_placementAtCallStart) {
        m_placement = std::move(*m_placementAtCallStart);
        m_placementAtCallStart.reset();
        m_all.loadOrder.copyFrom(m_savedLoadOrder, stream);
        placeTargets();
    }
    m_all.positionMass.copyFrom(m_savedPositions, stream);
    m_all.velocityColor.copyFrom(m_savedVelocities, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    m_accelerationsValid = m_accelerationsInBodyOrder = m_arraysAlike = false;
    if (m_solver)
        m_solver->invalidate();
    throw NonFiniteStateError(m_stepsSinceLoad + std::uint64_t(stepIndex) + 1, std::size_t(affectedBodies),
                              m_all.size(), m_stepsSinceLoad);
}

SolverForceSettings DistributedCudaBackend::prepareForces(const SimParams& params) {
    requireSupported(params);
    const SolverForceSettings settings = SolverForceSettings::of(params, "the CUDA backend across ranks", Device::Cuda);
    useSolver(*settings.solver);
    return settings;
}

void DistributedCudaBackend::step(const SimParams& params, int stepCount) {
    if (stepCount < 0)
        throw std::invalid_argument("DistributedCudaBackend::step: negative step count " + std::to_string(stepCount));
    const SolverForceSettings settings = prepareForces(params);
    if (stepCount == 0 || m_all.size() == 0)
        return;
    cudaStream_t stream = m_stream.get();
    m_savedPositions.copyFrom(m_all.positionMass, stream);
    m_savedVelocities.copyFrom(m_all.velocityColor, stream);
    m_placementAtCallStart.reset();
    if (m_nonFiniteCounts.size() < std::size_t(stepCount))
        m_nonFiniteCounts.resize(std::size_t(stepCount));
    m_nonFiniteCounts.zero(stream);
    const auto timeStep = float(params.timeStep);
    const RankSlice& slice = m_placement.slice; // a re-partition below changes it in place
    m_timeline.begin(stream);
    if (!m_accelerationsValid || !m_accelerationsSettings.sameForces(settings))
        if (const unsigned nonFinite = refreshAccelerations(settings); nonFinite != 0)
            restoreAndThrow(0, nonFinite);
    for (int s = 0; s < stepCount; ++s) {
        m_arraysAlike = false;
        launchKickDrift(local(m_all.positionMass), local(m_all.velocityColor), local(m_all.acceleration), slice.count,
                        0.5f * timeStep, timeStep, stream);
        m_timeline.mark(m_integratePhase, stream);
        if (++m_stepsSinceRepartition >= params.orb.rebuildInterval) {
            // A body gone non-finite has no domain: the kicks so far are checked on every rank first.
            const std::vector<std::uint64_t> nonFinite = nonFiniteCountsOnAllRanks(s);
            for (int failed = 0; failed < s; ++failed)
                if (nonFinite[std::size_t(failed)] > 0)
                    restoreAndThrow(failed, nonFinite[std::size_t(failed)]);
            if (!m_placementAtCallStart) {
                m_placementAtCallStart = m_placement;
                m_savedLoadOrder.copyFrom(m_all.loadOrder, stream); // the re-cut permutes it with the bodies
            }
            if (const std::uint64_t lost = repartition(params.orb.balance); lost > 0)
                restoreAndThrow(s, lost);
            // The host's work since the last mark, while the device waited, is the gap this mark closes.
            m_timeline.mark(m_orbPhase, stream);
            m_stepsSinceRepartition = 0;
        }
        if (const unsigned nonFinite = refreshAccelerations(settings); nonFinite != 0)
            restoreAndThrow(s, nonFinite); // the gathered set is the same on every rank: all fail here together
        launchKickAndCountNonFinite(local(m_all.positionMass), local(m_all.velocityColor), local(m_all.acceleration),
                                    slice.count, 0.5f * timeStep, m_nonFiniteCounts.data() + s, stream);
        m_timeline.mark(m_integratePhase, stream);
    }
    const std::vector<std::uint64_t> nonFinite = nonFiniteCountsOnAllRanks(stepCount);
    const std::vector<double> totals = m_timeline.totalsMilliseconds();
    for (int s = 0; s < stepCount; ++s)
        if (nonFinite[std::size_t(s)] > 0)
            restoreAndThrow(s, nonFinite[std::size_t(s)]);
    m_stepsSinceLoad += std::uint64_t(stepCount);
    m_placementAtCallStart.reset();
    m_lastTimings.clear();
    for (std::size_t phase = 0; phase < m_phaseNames.size(); ++phase)
        m_lastTimings.push_back({std::string(m_phaseNames[phase]), totals[phase]});
}

void DistributedCudaBackend::reverseVelocities() {
    launchNegateVelocities(local(m_all.velocityColor), m_placement.slice.count, m_stream.get());
    CUDA_CHECK(cudaStreamSynchronize(m_stream.get()));
}

void DistributedCudaBackend::readBodies(Bodies& out) const {
    // Positions and masses are current in every rank's array, velocities (with the colour keys) only in each rank's
    // own slice: those come from the ranks, not from this array. Who each body is follows from the load order.
    cudaStream_t stream = m_stream.get();
    std::vector<std::uint32_t> loadOrder(m_all.size());
    m_all.loadOrder.download(loadOrder, stream); // complete once the positions' download has waited
    const std::vector<float4> positions = downloadRange(m_all.positionMass.data(), m_all.size(), stream);
    const std::vector<float4> velocities = downloadRange(local(m_all.velocityColor), m_placement.slice.count, stream);
    const std::vector<float4> allVelocities = allGather(m_communicator, std::span<const float4>(velocities));
    unpackBodies(m_all, positions, allVelocities, loadOrder, out);
}

BodyIdentity DistributedCudaBackend::bodyIdentity(std::size_t index) const {
    return m_lookup.identityAt(m_all, index, m_stream.get());
}

std::vector<std::optional<BodyPosition>>
DistributedCudaBackend::bodyPositions(std::span<const std::uint64_t> ids) const {
    return m_lookup.positions(m_all, ids, m_stream.get());
}

Diagnostics DistributedCudaBackend::diagnostics(const SimParams& params) const {
    cudaStream_t stream = m_stream.get();
    const Diagnostics local = computeBodySumsDevice(this->local(m_all.positionMass), this->local(m_all.velocityColor),
                                                    m_placement.slice.count, stream);
    std::array<double, 7> sums{local.kineticEnergy,     local.linearMomentum[0],  local.linearMomentum[1],
                               local.linearMomentum[2], local.angularMomentum[0], local.angularMomentum[1],
                               local.angularMomentum[2]};
    m_communicator.allReduceSum(sums);
    Diagnostics total = computeDiagnosticsDevice(m_all.positionMass.data(), m_all.velocityColor.data(), m_all.size(),
                                                 params.gravity(), stream);
    total.kineticEnergy = sums[0];
    total.linearMomentum = {sums[1], sums[2], sums[3]};
    total.angularMomentum = {sums[4], sums[5], sums[6]};
    return total;
}

void DistributedCudaBackend::readAccelerations(const SimParams& params, Vec3Arrays<float>& out) {
    const SolverForceSettings settings = prepareForces(params);
    if (!m_accelerationsValid || !m_accelerationsSettings.sameForces(settings)) {
        m_timeline.begin(m_stream.get());
        if (const unsigned nonFinite = refreshAccelerations(settings); nonFinite != 0)
            throw std::runtime_error("readAccelerations: " + std::to_string(nonFinite) +
                                     " bodies have a non-finite position");
    }
    const std::vector<float4> mine = downloadRange(local(m_all.acceleration), m_placement.slice.count, m_stream.get());
    const std::vector<float4> all = allGather(m_communicator, std::span<const float4>(mine));
    out.resize(all.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        out.x[i] = all[i].x, out.y[i] = all[i].y, out.z[i] = all[i].z;
}

std::vector<SolverStatistic> DistributedCudaBackend::solverStatistics() const {
    return m_solver ? m_solver->statistics(m_stream.get()) : std::vector<SolverStatistic>{};
}

void DistributedCudaBackend::Visuals::writeVertices(std::span<RenderVertex> out) const {
    const std::size_t count = m_backend.m_all.size();
    if (out.size() != count)
        throw std::invalid_argument("render vertices: buffer holds " + std::to_string(out.size()) + " vertices for " +
                                    std::to_string(count) + " bodies");
    // Every rank's array holds every position and colour key (velocityColor.w, gathered with the velocities).
    if (count > 0) {
        cudaStream_t stream = m_backend.m_stream.get();
        auto* staging = reinterpret_cast<RenderVertex*>(m_backend.m_scratch.data());
        launchWriteRenderVertices(m_backend.m_all.positionMass.data(), m_backend.m_all.velocityColor.data(), staging,
                                  count, stream);
        CUDA_CHECK(cudaMemcpyAsync(out.data(), staging, count * sizeof(RenderVertex), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    const std::vector<std::uint64_t>& perRank = m_backend.m_placement.domains.bodiesPerRank;
    if (m_coloring.mode() == ColorMode::OrbDomain && !perRank.empty()) {
        colorVerticesByRank(out, perRank);
        m_coloring.showDomains();
    } else {
        m_coloring.showComponents(m_coloring.mode() == ColorMode::Component ? "" : kRankColorModesNote);
    }
}

OrbStatus DistributedCudaBackend::Visuals::orbStatus() const {
    return rankDomainStatus(m_backend.m_placement.domains, 0, m_backend.m_repartitions,
                            m_backend.m_lastRepartitionMilliseconds);
}

} // namespace gravlab
