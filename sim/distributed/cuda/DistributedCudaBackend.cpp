// The distributed CUDA backend: local KDK leapfrog on each rank's GPU, an NCCL all-gather of positions per force
// evaluation, re-partitions over MPI on the host, collective diagnostics, body reads and rollback
// (see DistributedCudaBackend.hpp).
#include "distributed/cuda/DistributedCudaBackend.hpp"

#include "core/CpuBackend.hpp"
#include "core/Stopwatch.hpp"
#include "device/cuda/DeviceDiagnostics.hpp"
#include "device/cuda/DeviceLeapfrog.hpp"
#include "distributed/DistributedSupport.hpp"
#include "distributed/RankDomainVisuals.hpp"
#include "solvers/SolverRegistration.hpp"

#include <algorithm>
#include <array>
#include <numeric>
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
    : m_communicator(communicator), m_why(std::move(why)), m_device(requireCudaDevice("the CUDA backend across ranks")), m_nccl(communicator) {}

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
           m_nonFiniteCounts.bytes() + m_savedPositions.bytes() + m_savedVelocities.bytes() +
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
    Bodies mine = loadedSliceOfRank(bodies, m_communicator.rank(), m_communicator.size());
    // Every rank holds all bodies; the check is local, and every rank has the same N and the same kind of GPU.
    requireDeviceMemoryForBodies(bodies.size(), kDeviceBytesPerBody, allocatedBytes());
    if (m_solver)
        m_solver->release();
    std::vector<float> work(mine.size(), 0.0f);
    m_accelerationsValid = m_accelerationsInBodyOrder = false;
    m_repartitions = 0;
    m_stepsSinceRepartition = m_stepsSinceLoad = 0;
    m_lastTimings.clear();
    placeBodies(std::move(mine), std::move(work), nullptr, OrbBalance::Count); // nothing to weigh yet
}

void DistributedCudaBackend::placeBodies(Bodies mine, std::vector<float> work,
                                         std::vector<float>* previousAccelerations, OrbBalance balance) {
    const Stopwatch cut;
    const CarriedFloats carried{previousAccelerations, previousAccelerations ? std::size_t{3} : std::size_t{0}};
    Placement placed;
    placed.domains = repartitionAcrossRanks(m_communicator, mine, work, balance, carried);
    ++m_repartitions;
    std::vector<std::size_t> counts;
    placed.ids = allGather(m_communicator, mine.id, &counts);
    placed.components = allGather(m_communicator, mine.component);
    placed.colorKeys = allGather(m_communicator, mine.colorKey);
    placed.slice = sliceOfRank(counts, m_communicator.rank());
    const std::size_t total = placed.ids.size();

    cudaStream_t stream = m_stream.get();
    if (m_all.size() != total) {
        m_all.resize(total);
        m_all.velocityColor.zero(stream); // the other ranks' velocity slots are never read, but stay finite
        m_scratch.resize(total);
        m_savedPositions.resize(total);
        m_savedVelocities.resize(total);
        m_isTarget.resize(total);
    }
    // This rank's bodies at their new place; the acceleration's fourth lane is the work weight ORB balanced.
    std::vector<float4> positions(mine.size()), velocities(mine.size()), accelerations(mine.size());
    for (std::size_t i = 0; i < mine.size(); ++i) {
        positions[i] = {mine.x[i], mine.y[i], mine.z[i], mine.mass[i]};
        velocities[i] = {mine.vx[i], mine.vy[i], mine.vz[i], mine.colorKey[i]};
        accelerations[i] = previousAccelerations != nullptr
                               ? float4{(*previousAccelerations)[3 * i], (*previousAccelerations)[3 * i + 1],
                                        (*previousAccelerations)[3 * i + 2], work[i]}
                               : float4{0.0f, 0.0f, 0.0f, work[i]};
    }
    m_placement = std::move(placed);
    const auto upload = [&](DeviceBuffer<float4>& buffer, const std::vector<float4>& values) {
        if (!values.empty())
            CUDA_CHECK(cudaMemcpyAsync(local(buffer), values.data(), values.size() * sizeof(float4),
                                       cudaMemcpyHostToDevice, stream));
    };
    upload(m_all.positionMass, positions);
    upload(m_all.velocityColor, velocities);
    upload(m_all.acceleration, accelerations);
    uploadTargets();
    m_accelerationsInBodyOrder = previousAccelerations != nullptr;
    exchange(m_accelerationsInBodyOrder);
    CUDA_CHECK(cudaStreamSynchronize(stream)); // the staging vectors die at return
    if (m_solver)
        m_solver->invalidate();
    m_lastRepartitionMilliseconds = cut.elapsedMilliseconds();
}

std::uint64_t DistributedCudaBackend::repartition(OrbBalance balance) {
    const RankSlice slice = m_placement.slice;
    cudaStream_t stream = m_stream.get();
    const std::vector<float4> positions = downloadRange(local(m_all.positionMass), slice.count, stream);
    const std::vector<float4> velocities = downloadRange(local(m_all.velocityColor), slice.count, stream);
    const std::vector<float4> accelerations = downloadRange(local(m_all.acceleration), slice.count, stream);
    Bodies bodies;
    bodies.resize(slice.count);
    std::vector<float> work(slice.count), previous(3 * slice.count);
    for (std::size_t i = 0; i < slice.count; ++i) {
        bodies.x[i] = positions[i].x, bodies.y[i] = positions[i].y, bodies.z[i] = positions[i].z;
        bodies.mass[i] = positions[i].w;
        bodies.vx[i] = velocities[i].x, bodies.vy[i] = velocities[i].y, bodies.vz[i] = velocities[i].z;
        bodies.colorKey[i] = velocities[i].w;
        bodies.id[i] = m_placement.ids[slice.begin + i];
        bodies.component[i] = m_placement.components[slice.begin + i];
        previous[3 * i] = accelerations[i].x, previous[3 * i + 1] = accelerations[i].y;
        previous[3 * i + 2] = accelerations[i].z;
        work[i] = accelerations[i].w;
    }
    // A body the drift sent to infinity has no domain: counted on every rank first, so all give up together.
    std::uint64_t nonFinite = countNonFiniteBodies(bodies, true);
    m_communicator.allReduceSum(std::span<std::uint64_t>(&nonFinite, 1));
    if (nonFinite > 0)
        return nonFinite;
    const bool carry = m_accelerationsInBodyOrder;
    placeBodies(std::move(bodies), std::move(work), carry ? &previous : nullptr, balance);
    return 0;
}

void DistributedCudaBackend::uploadTargets() {
    const RankSlice slice = m_placement.slice;
    std::vector<std::uint32_t> targets(slice.count);
    std::iota(targets.begin(), targets.end(), std::uint32_t(slice.begin));
    m_targetIndex.resize(targets.size());
    m_targetIndex.upload(targets, m_stream.get());
    std::vector<std::uint8_t> isTarget(m_all.size(), 0);
    std::fill_n(isTarget.begin() + std::ptrdiff_t(slice.begin), slice.count, std::uint8_t{1});
    m_isTarget.upload(isTarget, m_stream.get());
    CUDA_CHECK(cudaStreamSynchronize(m_stream.get())); // the staging vectors die at return
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
        uploadTargets();
    }
    m_all.positionMass.copyFrom(m_savedPositions, stream);
    m_all.velocityColor.copyFrom(m_savedVelocities, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    m_accelerationsValid = m_accelerationsInBodyOrder = false;
    if (m_solver)
        m_solver->invalidate();
    throw NonFiniteStateError(m_stepsSinceLoad + std::uint64_t(stepIndex) + 1, std::size_t(affectedBodies),
                              m_all.size(), m_stepsSinceLoad);
}

SolverForceSettings DistributedCudaBackend::prepareForces(const SimParams& params) {
    requireSupported(params);
    const SolverForceSettings settings =
        SolverForceSettings::of(params, "the CUDA backend across ranks", Device::Cuda);
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
        launchKickDrift(local(m_all.positionMass), local(m_all.velocityColor), local(m_all.acceleration), slice.count,
                        0.5f * timeStep, timeStep, stream);
        m_timeline.mark(m_integratePhase, stream);
        if (++m_stepsSinceRepartition >= params.orb.rebuildInterval) {
            // A body gone non-finite has no domain: the kicks so far are checked on every rank first.
            const std::vector<std::uint64_t> nonFinite = nonFiniteCountsOnAllRanks(s);
            for (int failed = 0; failed < s; ++failed)
                if (nonFinite[std::size_t(failed)] > 0)
                    restoreAndThrow(failed, nonFinite[std::size_t(failed)]);
            if (!m_placementAtCallStart)
                m_placementAtCallStart = m_placement;
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
    cudaStream_t stream = m_stream.get();
    const std::vector<float4> positions = downloadRange(m_all.positionMass.data(), m_all.size(), stream);
    const std::vector<float4> velocities =
        downloadRange(local(m_all.velocityColor), m_placement.slice.count, stream);
    const std::vector<float4> allVelocities = allGather(m_communicator, std::span<const float4>(velocities));
    Bodies all;
    all.resize(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        all.x[i] = positions[i].x, all.y[i] = positions[i].y, all.z[i] = positions[i].z;
        all.mass[i] = positions[i].w;
        all.vx[i] = allVelocities[i].x, all.vy[i] = allVelocities[i].y, all.vz[i] = allVelocities[i].z;
    }
    all.id = m_placement.ids;
    all.component = m_placement.components;
    all.colorKey = m_placement.colorKeys;
    out = std::move(all);
}

BodyIdentity DistributedCudaBackend::bodyIdentity(std::size_t index) const {
    if (index >= m_placement.ids.size())
        throw std::out_of_range("bodyIdentity: body " + std::to_string(index) + " of " +
                                std::to_string(m_placement.ids.size()));
    return {m_placement.ids[index], m_placement.components[index]};
}

std::vector<std::optional<BodyPosition>>
DistributedCudaBackend::bodyPositions(std::span<const std::uint64_t> ids) const {
    // Every asked body's copy is queued, then one wait for all of them.
    std::vector<float4> positions(ids.size());
    std::vector<bool> held(ids.size(), false);
    for (std::size_t k = 0; k < ids.size(); ++k) {
        const auto at = std::find(m_placement.ids.begin(), m_placement.ids.end(), ids[k]);
        if (at == m_placement.ids.end())
            continue;
        held[k] = true;
        CUDA_CHECK(cudaMemcpyAsync(&positions[k], m_all.positionMass.data() + (at - m_placement.ids.begin()),
                                   sizeof(float4), cudaMemcpyDeviceToHost, m_stream.get()));
    }
    m_stream.synchronize();
    std::vector<std::optional<BodyPosition>> found(ids.size());
    for (std::size_t k = 0; k < ids.size(); ++k)
        if (held[k])
            found[k] = BodyPosition{{positions[k].x, positions[k].y, positions[k].z}};
    return found;
}

Diagnostics DistributedCudaBackend::diagnostics(const SimParams& params) const {
    cudaStream_t stream = m_stream.get();
    const Diagnostics local =
        computeBodySumsDevice(this->local(m_all.positionMass), this->local(m_all.velocityColor),
                              m_placement.slice.count, stream);
    std::array<double, 7> sums{local.kineticEnergy,      local.linearMomentum[0],  local.linearMomentum[1],
                               local.linearMomentum[2],  local.angularMomentum[0], local.angularMomentum[1],
                               local.angularMomentum[2]};
    m_communicator.allReduceSum(sums);
    Diagnostics total = computeDiagnosticsDevice(m_all.positionMass.data(), m_all.velocityColor.data(), m_all.size(),
                                                 {params.gravitationalConstant, params.softeningLength}, stream);
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
    const std::vector<float4> positions =
        downloadRange(m_backend.m_all.positionMass.data(), count, m_backend.m_stream.get());
    const std::vector<float>& keys = m_backend.m_placement.colorKeys;
    for (std::size_t i = 0; i < count; ++i)
        out[i] = {positions[i].x, positions[i].y, positions[i].z, keys[i]};
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
