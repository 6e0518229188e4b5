// The distributed CPU backend: local KDK leapfrog, an all-gather of positions per force evaluation, and collective
// diagnostics, body reads and rollback (see DistributedCpuBackend.hpp).
#include "distributed/DistributedCpuBackend.hpp"

#include "core/CpuBackend.hpp"
#include "core/Leapfrog.hpp"
#include "core/Parallel.hpp"
#include "core/Stopwatch.hpp"
#include "distributed/DistributedSupport.hpp"
#include "distributed/RankDomainVisuals.hpp"
#include "solvers/SolverRegistration.hpp"
#include "tree/TreeListsSimd.hpp"

#include <gravlab/sim/Precision.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <omp.h>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

/// What one body contributes to an exchange: what the solvers read of the other ranks' bodies.
struct ExchangedBody {
    float x, y, z, mass;
    float ax, ay, az; ///< the previous evaluation's acceleration: the relative opening criterion reads it
};

/// Each local body's fp64 softened potential energy share 1/2 m_i phi_i against every body of all, summed; the body
/// itself (all's index first + i) is skipped. The direct sum of Diagnostics.cpp, per target row.
double localPotentialEnergyFp64(const Bodies& local, const Bodies& all, std::size_t first,
                                const GravityParams& gravity) {
    const double softening2 = double(gravity.softeningLength) * double(gravity.softeningLength);
    const auto targets = std::int64_t(local.size());
    const auto count = std::int64_t(all.size());
    double sum = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : sum) if (parallel : targets * count >= kMinPairsForParallel)
    for (std::int64_t i = 0; i < targets; ++i) {
        const double xi = local.x[std::size_t(i)], yi = local.y[std::size_t(i)], zi = local.z[std::size_t(i)];
        const std::int64_t self = std::int64_t(first) + i;
        double row = 0;
        for (std::int64_t j = 0; j < count; ++j) {
            if (j == self)
                continue;
            const double dx = double(all.x[std::size_t(j)]) - xi;
            const double dy = double(all.y[std::size_t(j)]) - yi;
            const double dz = double(all.z[std::size_t(j)]) - zi;
            row += double(all.mass[std::size_t(j)]) / std::sqrt(dx * dx + dy * dy + dz * dz + softening2);
        }
        sum += double(local.mass[std::size_t(i)]) * row;
    }
    return -0.5 * gravity.gravitationalConstant * sum;
}

} // namespace

DistributedCpuBackend::DistributedCpuBackend(Communicator& communicator, std::string why)
    : m_communicator(communicator), m_why(std::move(why)) {}

std::string DistributedCpuBackend::description() const {
    const std::string base = "CPU over " + m_communicator.description() + " (each rank OpenMP, " +
                             std::to_string(omp_get_max_threads()) + " threads, SIMD " + treeListsSimdTarget() + ")";
    return m_why.empty() ? base : base + "; " + m_why;
}

void DistributedCpuBackend::load(const Bodies& bodies) {
    m_local = loadedSliceOfRank(bodies, m_communicator.rank(), m_communicator.size());
    m_localWork.assign(m_local.size(), 0.0f);
    m_accelerations = {};
    dropCachedForces();
    m_repartitions = m_migratedLastStep = 0;
    placeBodies(true, OrbBalance::Count); // nothing to weigh before the first evaluation
    m_stepsSinceLoad = 0;
    m_lastTimings.clear();
    std::vector<PhaseTiming> ignored;
    exchangePositions(ignored); // the vertices show the loaded positions
}

void DistributedCpuBackend::placeBodies(bool repartition, OrbBalance balance) {
    // The previous accelerations travel with their bodies, three floats each, when there are any.
    const bool carry = m_accelerationsInBodyOrder && m_accelerations.size() == m_local.size();
    std::vector<float> previous;
    if (carry) {
        previous.resize(3 * m_local.size());
        for (std::size_t i = 0; i < m_local.size(); ++i) {
            previous[3 * i] = m_accelerations.x[i];
            previous[3 * i + 1] = m_accelerations.y[i];
            previous[3 * i + 2] = m_accelerations.z[i];
        }
    }
    const CarriedFloats carried{carry ? &previous : nullptr, carry ? std::size_t{3} : std::size_t{0}};
    std::uint64_t moved = m_local.size(); // a re-partition may reorder every rank
    if (repartition) {
        const Stopwatch cut;
        m_domains = repartitionAcrossRanks(m_communicator, m_local, m_localWork, balance, carried);
        m_lastRepartitionMilliseconds = cut.elapsedMilliseconds();
        ++m_repartitions;
    } else {
        moved = migrateAcrossRanks(m_communicator, m_domains, m_local, m_localWork, carried).bodiesMoved;
        m_migratedLastStep = moved;
    }
    if (carry) {
        m_accelerations.resize(m_local.size());
        for (std::size_t i = 0; i < m_local.size(); ++i) {
            m_accelerations.x[i] = previous[3 * i];
            m_accelerations.y[i] = previous[3 * i + 1];
            m_accelerations.z[i] = previous[3 * i + 2];
        }
    }
    if (repartition || moved > 0) // the same on every rank: moved is summed over ranks
        exchangeIdentities();
}

void DistributedCpuBackend::updateDomains(const SimParams& params, std::vector<PhaseTiming>& times) {
    // A body gone non-finite has no domain: the step's check reports it and rolls back on every rank.
    if (countNonFiniteOnAllRanks(times) > 0)
        return;
    const Stopwatch orb;
    bool repartition = ++m_stepsSinceRepartition >= params.orb.rebuildInterval;
    if (!repartition) {
        placeBodies(false, params.orb.balance);
        const std::vector<double>& load = m_domains.workPerRank;
        const double mean = std::accumulate(load.begin(), load.end(), 0.0) / double(load.size());
        repartition = mean > 0 && *std::max_element(load.begin(), load.end()) > params.orb.imbalanceLimit * mean;
    }
    if (repartition) {
        placeBodies(true, params.orb.balance);
        m_stepsSinceRepartition = 0;
    }
    addPhaseTime(times, "orb", orb.elapsedMilliseconds());
}

void DistributedCpuBackend::exchangeIdentities() {
    std::vector<std::size_t> counts;
    m_all.id = allGather(m_communicator, m_local.id, &counts);
    m_all.colorKey = allGather(m_communicator, m_local.colorKey);
    m_all.component = allGather(m_communicator, m_local.component);
    for (std::vector<float>* array : {&m_all.x, &m_all.y, &m_all.z, &m_all.vx, &m_all.vy, &m_all.vz, &m_all.mass})
        array->resize(m_all.id.size());
    m_slice = sliceOfRank(counts, m_communicator.rank());
    m_targets.resize(m_slice.count);
    std::iota(m_targets.begin(), m_targets.end(), std::uint32_t(m_slice.begin));
}

void DistributedCpuBackend::setPrecision(Precision precision) {
    requireDistributedPrecision(precision);
}

DistributedCpuBackend::ForceSettings DistributedCpuBackend::forceSettingsOf(const SimParams& params) {
    return SolverForceSettings::of(params, "the distributed CPU backend");
}

void DistributedCpuBackend::dropCachedForces() {
    m_accelerationsValid = false;
    m_accelerationsInBodyOrder = false;
    if (m_solver)
        m_solver->invalidate();
}

void DistributedCpuBackend::exchangePositions(std::vector<PhaseTiming>& times) {
    const Stopwatch exchange;
    const std::size_t count = m_local.size();
    const bool previous = m_accelerationsInBodyOrder && m_accelerations.size() == count;
    std::vector<ExchangedBody> mine(count);
    for (std::size_t i = 0; i < count; ++i)
        mine[i] = {m_local.x[i],
                   m_local.y[i],
                   m_local.z[i],
                   m_local.mass[i],
                   previous ? m_accelerations.x[i] : 0.0f,
                   previous ? m_accelerations.y[i] : 0.0f,
                   previous ? m_accelerations.z[i] : 0.0f};
    const std::vector<ExchangedBody> all = allGather(m_communicator, std::span<const ExchangedBody>(mine));
    if (all.size() != m_all.size())
        throw std::logic_error("exchange: " + std::to_string(all.size()) + " bodies arrived for " +
                               std::to_string(m_all.size()) + " loaded");
    m_allAccelerations.resize(all.size());
    for (std::size_t j = 0; j < all.size(); ++j) {
        m_all.x[j] = all[j].x;
        m_all.y[j] = all[j].y;
        m_all.z[j] = all[j].z;
        m_all.mass[j] = all[j].mass;
        m_allAccelerations.x[j] = all[j].ax;
        m_allAccelerations.y[j] = all[j].ay;
        m_allAccelerations.z[j] = all[j].az;
    }
    addPhaseTime(times, "exchange", exchange.elapsedMilliseconds());
}

void DistributedCpuBackend::computeAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times) {
    m_accelerationsValid = false; // until they are complete
    if (m_solverInfo != settings.solver) {
        m_solver = findSolverRegistration(settings.solver->name).makeCpu();
        m_solverInfo = settings.solver;
    }
    exchangePositions(times);
    m_accelerations.resize(m_local.size());
    // Every rank sees the same gathered set, so every rank takes the same branch.
    if (countNonFiniteBodies(m_all, true) > 0) {
        // A solver cannot place such bodies; NaN forces make the step's check report and roll back on every rank.
        m_solver->invalidate();
        for (std::vector<float>* component : {&m_accelerations.x, &m_accelerations.y, &m_accelerations.z})
            std::fill(component->begin(), component->end(), std::numeric_limits<float>::quiet_NaN());
        m_accelerationsInBodyOrder = false;
        return;
    }
    ForceParams forces = settings.forces;
    forces.previousAccelerations = m_accelerationsInBodyOrder;
    m_accelerationsInBodyOrder = false; // until the evaluation completes
    m_allWork.resize(m_all.size());
    m_solver->computeAccelerationsOf(m_all, forces, m_targets, m_allAccelerations, m_allWork, times);
    const auto first = std::ptrdiff_t(m_slice.begin);
    const auto last = std::ptrdiff_t(m_slice.begin + m_slice.count);
    m_accelerations.x.assign(m_allAccelerations.x.begin() + first, m_allAccelerations.x.begin() + last);
    m_accelerations.y.assign(m_allAccelerations.y.begin() + first, m_allAccelerations.y.begin() + last);
    m_accelerations.z.assign(m_allAccelerations.z.begin() + first, m_allAccelerations.z.begin() + last);
    m_localWork.assign(m_allWork.begin() + first, m_allWork.begin() + last);
    m_accelerationsInBodyOrder = true;
    m_accelerationsSettings = settings;
    m_accelerationsValid = true;
}

void DistributedCpuBackend::ensureAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times) {
    if (!m_accelerationsValid || !m_accelerationsSettings.sameForces(settings))
        computeAccelerations(settings, times);
}

void DistributedCpuBackend::stepOnce(const ForceSettings& settings, const SimParams& params,
                                     std::vector<PhaseTiming>& times) {
    const auto timeStep = float(params.timeStep);
    ensureAccelerations(settings, times);
    const Stopwatch drift;
    kickCpu(m_local, m_accelerations, 0.5f * timeStep);
    driftCpu(m_local, timeStep);
    addPhaseTime(times, "integrate", drift.elapsedMilliseconds());
    updateDomains(params, times);
    computeAccelerations(settings, times);
    const Stopwatch lastKick;
    kickCpu(m_local, m_accelerations, 0.5f * timeStep);
    addPhaseTime(times, "integrate", lastKick.elapsedMilliseconds());
}

std::uint64_t DistributedCpuBackend::countNonFiniteOnAllRanks(std::vector<PhaseTiming>& times) const {
    const Stopwatch check;
    std::uint64_t count = countNonFiniteBodies(m_local, false);
    addPhaseTime(times, "integrate", check.elapsedMilliseconds());
    // The reduction also waits for the slowest rank: that wait is the exchange's, not the integrator's.
    const Stopwatch reduction;
    m_communicator.allReduceSum(std::span<std::uint64_t>(&count, 1));
    addPhaseTime(times, "exchange", reduction.elapsedMilliseconds());
    return count;
}

void DistributedCpuBackend::step(const SimParams& params, int stepCount) {
    if (stepCount <= 0)
        return;
    requireDistributedSupport(params);
    const ForceSettings settings = forceSettingsOf(params);
    // Only this rank's share is saved: the gathered set, the same on every rank, is rebuilt by the exchanges when
    // every rank rolls back together, rather than copied whole at every call.
    const Bodies before = m_local;
    const std::vector<float> workBefore = m_localWork;
    const RankDomains domainsBefore = m_domains;
    const RankSlice sliceBefore = m_slice;
    const std::uint64_t stepsBefore = m_stepsSinceLoad, repartitionBefore = m_stepsSinceRepartition;
    const auto restoreLocalState = [&] {
        m_local = before;
        m_localWork = workBefore;
        m_domains = domainsBefore;
        m_slice = sliceBefore;
        m_targets.resize(m_slice.count);
        std::iota(m_targets.begin(), m_targets.end(), std::uint32_t(m_slice.begin));
        m_stepsSinceLoad = stepsBefore;
        m_stepsSinceRepartition = repartitionBefore;
        dropCachedForces();
    };
    std::vector<PhaseTiming> times;
    for (const std::string_view phase : settings.solver->cpuPhases)
        addPhaseTime(times, phase, 0.0);
    addPhaseTime(times, "exchange", 0.0);
    addPhaseTime(times, "orb", 0.0);
    addPhaseTime(times, "integrate", 0.0);
    for (int s = 0; s < stepCount; ++s) {
        try {
            stepOnce(settings, params, times);
        } catch (...) {
            // Local only (the solver ran out of memory on this rank): the others wait in the next collective, so
            // mpirun's abort on this rank's error is what ends the run; an exchange here would meet theirs out of
            // order, so the gathered set keeps the failed step's positions.
            restoreLocalState();
            throw;
        }
        ++m_stepsSinceLoad;
        const std::uint64_t nonFinite = countNonFiniteOnAllRanks(times);
        if (nonFinite > 0) {
            const std::uint64_t failedStep = m_stepsSinceLoad;
            restoreLocalState(); // on every rank (the count is global), so the exchanges below run together
            exchangeIdentities();
            std::vector<PhaseTiming> ignored;
            exchangePositions(ignored); // the vertices and readBodies show the restored positions
            throw NonFiniteStateError(failedStep, std::size_t(nonFinite), m_all.size(), stepsBefore);
        }
    }
    m_lastTimings = std::move(times);
}

void DistributedCpuBackend::reverseVelocities() {
    // Positions stay, so the cached accelerations and the gathered positions still describe this state.
    for (std::vector<float>* velocity : {&m_local.vx, &m_local.vy, &m_local.vz})
        for (float& component : *velocity)
            component = -component;
}

void DistributedCpuBackend::readBodies(Bodies& out) const {
    // The gathered set already holds every body's position, mass and identity as they are now (see the design note),
    // in rank order: only the velocities, which are never exchanged, are gathered here.
    Bodies all = m_all;
    all.vx = allGather(m_communicator, m_local.vx);
    all.vy = allGather(m_communicator, m_local.vy);
    all.vz = allGather(m_communicator, m_local.vz);
    out = std::move(all);
}

BodyIdentity DistributedCpuBackend::bodyIdentity(std::size_t index) const {
    if (index >= m_all.size())
        throw std::out_of_range("bodyIdentity: body " + std::to_string(index) + " of " + std::to_string(m_all.size()));
    return {m_all.id[index], m_all.component[index]};
}

std::vector<std::optional<BodyPosition>>
DistributedCpuBackend::bodyPositions(std::span<const std::uint64_t> ids) const {
    return bodyPositionsOnHost(m_all, ids);
}

Diagnostics DistributedCpuBackend::diagnostics(const SimParams& params) const {
    // The gathered positions are the current ones (see the design note), so only sums cross ranks.
    Diagnostics local = computeBodySumsCpu(m_local);
    local.potentialEnergy = localPotentialEnergyFp64(m_local, m_all, m_slice.begin, params.gravity());
    std::array<double, 8> sums{local.kineticEnergy,      local.potentialEnergy,   local.linearMomentum[0],
                               local.linearMomentum[1],  local.linearMomentum[2], local.angularMomentum[0],
                               local.angularMomentum[1], local.angularMomentum[2]};
    m_communicator.allReduceSum(sums);
    Diagnostics total;
    total.kineticEnergy = sums[0];
    total.potentialEnergy = sums[1];
    total.linearMomentum = {sums[2], sums[3], sums[4]};
    total.angularMomentum = {sums[5], sums[6], sums[7]};
    return total;
}

void DistributedCpuBackend::readAccelerations(const SimParams& params, Vec3Arrays<float>& out) {
    std::vector<PhaseTiming> ignored;
    ensureAccelerations(forceSettingsOf(params), ignored);
    out.x = allGather(m_communicator, m_accelerations.x);
    out.y = allGather(m_communicator, m_accelerations.y);
    out.z = allGather(m_communicator, m_accelerations.z);
}

void DistributedCpuBackend::Visuals::writeVertices(std::span<RenderVertex> out) const {
    const Bodies& all = m_backend.m_all;
    if (out.size() != all.size())
        throw std::invalid_argument("render vertices: buffer holds " + std::to_string(out.size()) + " vertices for " +
                                    std::to_string(all.size()) + " bodies");
    for (std::size_t i = 0; i < all.size(); ++i)
        out[i] = {all.x[i], all.y[i], all.z[i], all.colorKey[i]};
    if (m_coloring.mode() == ColorMode::OrbDomain && !m_backend.m_domains.bodiesPerRank.empty()) {
        colorVerticesByRank(out, m_backend.m_domains.bodiesPerRank);
        m_coloring.showDomains();
    } else {
        m_coloring.showComponents(m_coloring.mode() == ColorMode::Component ? "" : kRankColorModesNote);
    }
}

OrbStatus DistributedCpuBackend::Visuals::orbStatus() const {
    return rankDomainStatus(m_backend.m_domains, m_backend.m_migratedLastStep, m_backend.m_repartitions,
                            m_backend.m_lastRepartitionMilliseconds);
}

} // namespace gravlab
