// The CPU backend's hierarchical time steps: HierarchicalStepperCpu wired to the backend's solver, accelerations and
// ORB domains, and the time-step statistics.
//
// Design note: the stepper owns only the levels, so the backend hands it two hooks. Forces: the solver computes the
// listed bodies' accelerations against all bodies (CpuForceSolver::computeAccelerationsOf), or all of them through
// the ordinary evaluation when every body is listed (the last sub-step). ORB: its update permutes every body array but
// reports no permutation, so updateOrbReportingOrder (OrbDomainsCpu.hpp) learns it, and the levels follow it (O(N),
// once per base step). Under work balance each body weighs its interactions times its evaluations per base step
// (2^level).
#include "core/CpuBackend.hpp"
#include "core/Stopwatch.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace gravlab {
void CpuBackend::stepHierarchical(const ForceSettings& settings, const SimParams& params,
                                  std::vector<PhaseTiming>& times) {
    ensureAccelerations(settings, times);
    if (m_work.size() != m_bodies.size())
        m_work.assign(m_bodies.size(), 0.0f);
    HierarchicalStepperCpu::Hooks hooks;
    hooks.computeForces = [&](std::span<const std::uint32_t> active) {
        computeAccelerationsOf(settings, active, times);
    };
    hooks.updateOrb = [&](std::span<const float> evaluationsPerStep, std::vector<std::uint32_t>& order) {
        if (countNonFiniteBodies(m_bodies, true) > 0) // reported by the check after the step
            return false;
        const Stopwatch orb;
        std::vector<float> weights = m_work;
        for (std::size_t i = 0; i < weights.size(); ++i)
            weights[i] *= evaluationsPerStep[i];
        const bool permuted = updateOrbReportingOrder(m_orb, m_bodies, weights, params.orb, order);
        if (permuted && m_accelerationsInBodyOrder)
            permuteAccelerations(m_accelerations, order); // the relative criterion's previous accelerations
        if (params.orb.domainCount > 0)
            addPhaseTime(times, "orb", orb.elapsedMilliseconds());
        return permuted;
    };
    const TimeStepCriterion criterion{params.timeStep, params.softeningLength, params.timeSteps.accuracy,
                                      params.timeSteps.maxLevel, params.timeSteps.levelChoice};
    m_hierarchical.step(m_bodies, m_accelerations, criterion, hooks, times);
    m_levelsStateVersion = m_stateVersion;
}

void CpuBackend::computeAccelerationsOf(const ForceSettings& settings, std::span<const std::uint32_t> targets,
                                        std::vector<PhaseTiming>& times) {
    if (targets.size() == m_bodies.size() || !m_solver || m_solverInfo != settings.solver) {
        computeAccelerations(settings, times);
        return;
    }
    m_accelerationsValid = false; // until they are complete, as in computeAccelerations
    ++m_stateVersion;
    if (countNonFiniteBodies(m_bodies, true) > 0) {
        m_solver->invalidate();
        for (const std::uint32_t i : targets)
            m_accelerations.x[i] = m_accelerations.y[i] = m_accelerations.z[i] =
                std::numeric_limits<float>::quiet_NaN();
        return; // NaN on purpose, as computeAccelerations leaves them: the step's check reports and rolls back
    }
    ForceParams forces = settings.forces;
    forces.previousAccelerations = m_accelerationsInBodyOrder; // the relative criterion reads the targets' own
    m_solver->computeAccelerationsOf(m_bodies, forces, targets, m_accelerations, m_work, times);
    m_accelerationsValid = true;
}

bool CpuBackend::levelsCurrent() const {
    return m_lastTimeStepMode == TimeStepMode::Hierarchical && m_levelsStateVersion == m_stateVersion &&
           m_hierarchical.levels().size() == m_bodies.size();
}

std::vector<float> CpuBackend::orbWorkWeights() const {
    std::vector<float> weights = m_work;
    if (levelsCurrent() && weights.size() == m_bodies.size()) {
        const std::span<const std::uint8_t> levels = m_hierarchical.levels();
        for (std::size_t i = 0; i < weights.size(); ++i)
            weights[i] *= float(std::uint32_t{1} << levels[i]);
    }
    return weights;
}

bool CpuBackend::writeTimeStepLevelColors(std::span<RenderVertex> out) const {
    if (!levelsCurrent() || out.size() != m_bodies.size())
        return false;
    const std::span<const std::uint8_t> levels = m_hierarchical.levels();
    const float scale = 1.0f / float(std::max<std::uint32_t>(m_hierarchical.maxLevel(), 1));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].colorScalar = float(levels[i]) * scale;
    return true;
}

TimeStepStatistics CpuBackend::timeStepStatistics() const {
    if (m_lastTimeStepMode == TimeStepMode::Hierarchical)
        return levelsCurrent() ? m_hierarchical.statistics() : TimeStepStatistics{};
    if (m_stepsSinceLoad == 0 || m_bodies.size() == 0)
        return {};
    const auto count = double(m_bodies.size());
    return {{std::uint64_t(m_bodies.size())}, count, 0.0, 1.0};
}

} // namespace gravlab
