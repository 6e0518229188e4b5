// CPU backend: KDK leapfrog over the float OpenMP direct sum or the CPU octree, with a non-finite check and rollback
// per step() call.
//
// Design note: see CpuBackend.hpp. The finiteness check is one O(N) pass after each step; a NaN or infinity anywhere
// spreads to every body through the next force evaluation, so checking every step pins the first bad step.
#include "CpuBackend.hpp"

#include "Leapfrog.hpp"
#include "Parallel.hpp"
#include "TreeForcesCpu.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <omp.h>
#include <stdexcept>
#include <string>
#include <utility>

namespace gravlab {
namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::size_t countNonFiniteBodies(const Bodies& bodies, bool positionsOnly) {
    const auto count = std::int64_t(bodies.size());
    std::int64_t nonFinite = 0;
#pragma omp parallel for schedule(static) reduction(+ : nonFinite) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        const bool finitePosition =
            std::isfinite(bodies.x[i]) && std::isfinite(bodies.y[i]) && std::isfinite(bodies.z[i]);
        const bool finiteVelocity = positionsOnly || (std::isfinite(bodies.vx[i]) && std::isfinite(bodies.vy[i]) &&
                                                      std::isfinite(bodies.vz[i]));
        nonFinite += finitePosition && finiteVelocity ? 0 : 1;
    }
    return std::size_t(nonFinite);
}

void checkConsistentSizes(const Bodies& bodies) {
    const std::size_t count = bodies.size();
    for (const std::vector<float>* component :
         {&bodies.y, &bodies.z, &bodies.vx, &bodies.vy, &bodies.vz, &bodies.mass, &bodies.colorKey})
        if (component->size() != count)
            throw std::invalid_argument("load: body arrays differ in length (" + std::to_string(component->size()) +
                                        " and " + std::to_string(count) + ")");
}

} // namespace

std::string CpuBackend::description() const {
    const std::string base = "CPU (OpenMP, " + std::to_string(omp_get_max_threads()) + " threads)";
    return m_why.empty() ? base : base + "; " + m_why;
}

void CpuBackend::load(const Bodies& bodies) {
    checkConsistentSizes(bodies);
    Bodies copy = bodies; // copy first, so running out of memory leaves the current state whole
    m_bodies = std::move(copy);
    m_work.clear();
    m_orb.invalidate();
    m_orbStatus = {};
    dropCachedForces();
    m_stepsSinceLoad = 0;
    m_lastTimings.clear();
}

bool CpuBackend::ForceSettings::sameForces(const ForceSettings& other) const {
    const bool tree = solver == SolverKind::Tree, otherTree = other.solver == SolverKind::Tree;
    return tree == otherTree && gravitationalConstant == other.gravitationalConstant &&
           softeningLength == other.softeningLength && (!tree || openingAngle == other.openingAngle);
}

CpuBackend::ForceTimes& CpuBackend::ForceTimes::operator+=(const ForceTimes& other) {
    build += other.build;
    summary += other.summary;
    force += other.force;
    return *this;
}

CpuBackend::ForceSettings CpuBackend::forceSettingsOf(const SimParams& params) {
    return {params.solver, params.gravitationalConstant, params.softeningLength, params.openingAngle};
}

void CpuBackend::dropCachedForces() {
    m_accelerationsValid = false;
    m_treeValid = false;
}

CpuBackend::ForceTimes CpuBackend::ensureAccelerations(const ForceSettings& settings) {
    if (m_accelerationsValid && m_accelerationsSettings.sameForces(settings))
        return {};
    return computeAccelerations(settings);
}

CpuBackend::ForceTimes CpuBackend::computeAccelerations(const ForceSettings& settings) {
    m_accelerationsValid = false; // until they are complete: a throwing solver must not leave stale ones "valid"
    ForceTimes times;
    if (settings.solver == SolverKind::Tree) {
        times = computeTreeAccelerations(settings);
    } else {
        m_treeValid = false;
        const auto start = Clock::now();
        computeAccelerationsCpu(m_bodies, {settings.gravitationalConstant, settings.softeningLength}, m_accelerations);
        m_work.assign(m_bodies.size(), float(m_bodies.size())); // every body meets every body
        times.force = millisecondsSince(start);
    }
    m_accelerationsSettings = settings;
    m_accelerationsValid = true;
    return times;
}

CpuBackend::ForceTimes CpuBackend::computeTreeAccelerations(const ForceSettings& settings) {
    m_treeValid = false;
    if (countNonFiniteBodies(m_bodies, true) > 0) {
        // The octree cannot place such bodies; NaN forces make the step's check report and roll back the step.
        m_accelerations.resize(m_bodies.size());
        for (std::vector<float>* component : {&m_accelerations.x, &m_accelerations.y, &m_accelerations.z})
            std::fill(component->begin(), component->end(), std::numeric_limits<float>::quiet_NaN());
        return {};
    }
    ForceTimes times;
    auto start = Clock::now();
    m_tree.build(m_bodies);
    times.build = millisecondsSince(start);
    start = Clock::now();
    m_tree.summarize(float(settings.openingAngle));
    times.summary = millisecondsSince(start);
    start = Clock::now();
    computeTreeAccelerationsCpu(m_tree, {settings.gravitationalConstant, settings.softeningLength}, m_accelerations,
                                &m_work);
    times.force = millisecondsSince(start);
    m_treeValid = true;
    return times;
}

CpuBackend::ForceTimes CpuBackend::stepOnce(const ForceSettings& settings, const SimParams& params, double& integrateMs,
                                            double& orbMs) {
    const auto timeStep = float(params.timeStep);
    ForceTimes times = ensureAccelerations(settings);
    auto start = Clock::now();
    kickCpu(m_bodies, m_accelerations, 0.5f * timeStep);
    driftCpu(m_bodies, timeStep);
    integrateMs += millisecondsSince(start);

    start = Clock::now();
    if (countNonFiniteBodies(m_bodies, true) == 0) // a blown-up drift is reported by the check after the step
        m_orb.update(m_bodies, m_work, params.orb);
    orbMs += millisecondsSince(start);

    times += computeAccelerations(settings);

    start = Clock::now();
    kickCpu(m_bodies, m_accelerations, 0.5f * timeStep);
    integrateMs += millisecondsSince(start);
    return times;
}

void CpuBackend::step(const SimParams& params, int stepCount) {
    if (stepCount <= 0)
        return;
    const ForceSettings settings = forceSettingsOf(params);
    const Bodies before = m_bodies;
    const std::uint64_t stepsBefore = m_stepsSinceLoad;
    const auto restoreState = [&] {
        m_bodies = before;
        m_stepsSinceLoad = stepsBefore;
        m_orb.invalidate(); // migration may have reordered the bodies since `before`
        m_orbStatus = {};
        dropCachedForces();
    };
    ForceTimes times;
    double integrateMs = 0, orbMs = 0;
    for (int s = 0; s < stepCount; ++s) {
        try {
            times += stepOnce(settings, params, integrateMs, orbMs);
        } catch (...) {
            restoreState(); // e.g. the octree ran out of memory: nothing of this call stays
            throw;
        }
        ++m_stepsSinceLoad;
        const auto checkStart = Clock::now();
        const std::size_t nonFinite = countNonFiniteBodies(m_bodies, false);
        integrateMs += millisecondsSince(checkStart);
        if (nonFinite > 0) {
            const std::uint64_t failedStep = m_stepsSinceLoad;
            restoreState();
            throw NonFiniteStateError(failedStep, nonFinite, m_bodies.size(), stepsBefore);
        }
    }
    if (settings.solver == SolverKind::Tree)
        m_lastTimings = {
            {"build", times.build}, {"summary", times.summary}, {"force", times.force}, {"integrate", integrateMs}};
    else
        m_lastTimings = {{"force", times.force}, {"integrate", integrateMs}};
    if (params.orb.domainCount > 0)
        m_lastTimings.push_back({"orb", orbMs});
    m_orbStatus = m_orb.status(m_work);
}

void CpuBackend::updateOrbDomains(const SimParams& params) {
    if (countNonFiniteBodies(m_bodies, true) == 0 && m_orb.refresh(m_bodies, m_work, params.orb)) {
        // The bodies were permuted: accelerations, the tree's body order and (under count balance) the work weights no
        // longer match; the next step evaluates all three again.
        dropCachedForces();
        m_work.clear();
    }
    m_orbStatus = m_orb.status(m_work);
}

void CpuBackend::readBodies(Bodies& out) const {
    out = m_bodies;
}

Diagnostics CpuBackend::diagnostics(const SimParams& params) const {
    return computeDiagnosticsCpu(m_bodies, {params.gravitationalConstant, params.softeningLength});
}

void CpuBackend::readAccelerations(const SimParams& params, Vec3Arrays<float>& out) {
    ensureAccelerations(forceSettingsOf(params));
    out = m_accelerations;
}

void CpuBackend::Visuals::writeVertices(std::span<RenderVertex> out) const {
    const Bodies& bodies = m_backend.m_bodies;
    if (out.size() != bodies.size())
        throw std::invalid_argument("render vertices: buffer holds " + std::to_string(out.size()) + " vertices for " +
                                    std::to_string(bodies.size()) + " bodies");
    const auto count = std::int64_t(bodies.size());
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        out[i] = {bodies.x[i], bodies.y[i], bodies.z[i], bodies.colorKey[i]};
    }
    if (m_colorMode == ColorMode::LeafDepth && m_backend.m_treeValid) {
        std::vector<std::uint8_t> leafDepth;
        m_backend.m_tree.leafDepthOfBodies(leafDepth);
        for (std::size_t i = 0; i < leafDepth.size(); ++i)
            out[i].colorScalar = std::min(float(leafDepth[i]) / float(kMaxTreeDepthForColor), 1.0f);
    } else if (m_colorMode == ColorMode::OrbDomain && m_backend.m_orb.active()) {
        m_backend.m_orb.writeDomainColors(out);
    }
}

void CpuBackend::Visuals::collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const {
    if (m_backend.m_treeValid)
        m_backend.m_tree.collectCells(query, out);
    else
        out.clear();
}

std::vector<PhaseTiming> CpuBackend::lastStepTimings() const {
    return m_lastTimings;
}

} // namespace gravlab
