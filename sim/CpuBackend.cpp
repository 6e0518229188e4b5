// CPU backend: KDK leapfrog over the float OpenMP direct sum, with a non-finite check and rollback per step() call.
//
// Design note: see CpuBackend.hpp. The finiteness check is one O(N) pass after each step; a NaN or infinity anywhere
// spreads to every body through the next force evaluation, so checking every step pins the first bad step.
#include "CpuBackend.hpp"

#include "Leapfrog.hpp"
#include "Parallel.hpp"

#include <chrono>
#include <cmath>
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

std::size_t countNonFiniteBodies(const Bodies& bodies) {
    const auto count = std::int64_t(bodies.size());
    std::int64_t nonFinite = 0;
#pragma omp parallel for schedule(static) reduction(+ : nonFinite) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        const bool finite = std::isfinite(bodies.x[i]) && std::isfinite(bodies.y[i]) && std::isfinite(bodies.z[i]) &&
                            std::isfinite(bodies.vx[i]) && std::isfinite(bodies.vy[i]) && std::isfinite(bodies.vz[i]);
        nonFinite += finite ? 0 : 1;
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
    m_accelerationsValid = false;
    m_stepsSinceLoad = 0;
    m_lastTimings.clear();
}

double CpuBackend::ensureAccelerations(const GravityParams& gravity) {
    const bool sameGravity = m_accelerationsGravity.gravitationalConstant == gravity.gravitationalConstant &&
                             m_accelerationsGravity.softeningLength == gravity.softeningLength;
    if (m_accelerationsValid && sameGravity)
        return 0.0;
    const auto start = Clock::now();
    computeAccelerationsCpu(m_bodies, gravity, m_accelerations);
    m_accelerationsGravity = gravity;
    m_accelerationsValid = true;
    return millisecondsSince(start);
}

std::pair<double, double> CpuBackend::stepOnce(const GravityParams& gravity, float timeStep) {
    double forceMs = ensureAccelerations(gravity);
    auto start = Clock::now();
    kickCpu(m_bodies, m_accelerations, 0.5f * timeStep);
    driftCpu(m_bodies, timeStep);
    double integrateMs = millisecondsSince(start);

    start = Clock::now();
    computeAccelerationsCpu(m_bodies, gravity, m_accelerations);
    forceMs += millisecondsSince(start);

    start = Clock::now();
    kickCpu(m_bodies, m_accelerations, 0.5f * timeStep);
    integrateMs += millisecondsSince(start);
    return {forceMs, integrateMs};
}

void CpuBackend::step(const SimParams& params, int stepCount) {
    if (stepCount <= 0)
        return;
    const GravityParams gravity{params.gravitationalConstant, params.softeningLength};
    const auto timeStep = float(params.timeStep);
    const Bodies before = m_bodies;
    const std::uint64_t stepsBefore = m_stepsSinceLoad;
    double forceMs = 0, integrateMs = 0;
    for (int s = 0; s < stepCount; ++s) {
        const auto [stepForceMs, stepIntegrateMs] = stepOnce(gravity, timeStep);
        forceMs += stepForceMs;
        integrateMs += stepIntegrateMs;
        ++m_stepsSinceLoad;
        const auto checkStart = Clock::now();
        const std::size_t nonFinite = countNonFiniteBodies(m_bodies);
        integrateMs += millisecondsSince(checkStart);
        if (nonFinite > 0) {
            const std::uint64_t failedStep = m_stepsSinceLoad;
            m_bodies = before;
            m_stepsSinceLoad = stepsBefore;
            m_accelerationsValid = false;
            throw NonFiniteStateError(failedStep, nonFinite, m_bodies.size(), stepsBefore);
        }
    }
    m_lastTimings = {{"force", forceMs}, {"integrate", integrateMs}};
}

void CpuBackend::readBodies(Bodies& out) const {
    out = m_bodies;
}

Diagnostics CpuBackend::diagnostics(const SimParams& params) const {
    return computeDiagnosticsCpu(m_bodies, {params.gravitationalConstant, params.softeningLength});
}

void CpuBackend::writeRenderVertices(std::span<RenderVertex> out) const {
    if (out.size() != m_bodies.size())
        throw std::invalid_argument("render vertices: buffer holds " + std::to_string(out.size()) + " vertices for " +
                                    std::to_string(m_bodies.size()) + " bodies");
    const auto count = std::int64_t(m_bodies.size());
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        out[i] = {m_bodies.x[i], m_bodies.y[i], m_bodies.z[i], m_bodies.colorKey[i]};
    }
}

std::vector<PhaseTiming> CpuBackend::lastStepTimings() const {
    return m_lastTimings;
}

} // namespace gravlab
