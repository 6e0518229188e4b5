// Hierarchical (block) time steps on the CPU (see HierarchicalStepper.hpp for the scheme).
//
// Design note: durations are computed in double from the tick count and cast once, so a full base step's half-kick and
// drift are the very floats the fixed step uses (0.5f * dt and dt: halving is exact). The level criterion is
// TimeStepLevels.hpp's, shared with the CUDA stepper.
#include "core/HierarchicalStepper.hpp"

#include "core/IndexedLeapfrog.hpp"
#include "core/Leapfrog.hpp"
#include "core/Stopwatch.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gravlab {

void HierarchicalStepperCpu::assignLevels(const Bodies& bodies, const Vec3Arrays<float>& accelerations,
                                          const TimeStepCriterion& criterion) {
    m_maxLevel = criterion.maxLevel;
    const std::size_t count = accelerations.size();
    if (m_earlierInterval.size() != count)
        forgetHistory();
    m_levels.resize(count);
    for (std::size_t i = 0; i < count; ++i)
        m_levels[i] = std::uint8_t(wantedLevel(i, bodies, accelerations, criterion));
    sortByLevel();
}

void HierarchicalStepperCpu::resetCounters() {
    m_baseSteps = m_subSteps = m_forceEvaluations = 0;
}

void HierarchicalStepperCpu::forgetHistory() {
    m_earlierAcceleration = {};
    m_earlierInterval.clear();
}

std::uint32_t HierarchicalStepperCpu::wantedLevel(std::size_t i, const Bodies& bodies,
                                                  const Vec3Arrays<float>& accelerations,
                                                  const TimeStepCriterion& criterion) const {
    EarlierAcceleration earlier;
    if (i < m_earlierInterval.size())
        earlier = {m_earlierAcceleration.x[i], m_earlierAcceleration.y[i], m_earlierAcceleration.z[i],
                   m_earlierInterval[i]};
    return chosenTimeStepLevel(accelerations.x[i], accelerations.y[i], accelerations.z[i], earlier, bodies.vx[i],
                               bodies.vy[i], bodies.vz[i], criterion);
}

void HierarchicalStepperCpu::rememberAccelerations(std::span<const std::uint32_t> active,
                                                   const Vec3Arrays<float>& accelerations, double tickDuration) {
    if (m_earlierInterval.size() != m_levels.size()) {
        m_earlierAcceleration.resize(m_levels.size());
        m_earlierInterval.assign(m_levels.size(), 0.0f);
    }
    for (const std::uint32_t i : active) {
        m_earlierAcceleration.x[i] = accelerations.x[i];
        m_earlierAcceleration.y[i] = accelerations.y[i];
        m_earlierAcceleration.z[i] = accelerations.z[i];
        m_earlierInterval[i] = float(double(levelStepTicks(m_levels[i], m_maxLevel)) * tickDuration);
    }
}

void HierarchicalStepperCpu::sortByLevel() {
    m_levelBegin.assign(m_maxLevel + 2, 0);
    for (const std::uint8_t level : m_levels)
        ++m_levelBegin[level + 1];
    for (std::size_t level = 1; level < m_levelBegin.size(); ++level)
        m_levelBegin[level] += m_levelBegin[level - 1];
    std::vector<std::uint32_t> next(m_levelBegin.begin(), m_levelBegin.end() - 1);
    m_byLevel.resize(m_levels.size());
    for (std::size_t i = 0; i < m_levels.size(); ++i)
        m_byLevel[next[m_levels[i]]++] = std::uint32_t(i);
}

std::span<const std::uint32_t> HierarchicalStepperCpu::bodiesFromLevel(std::uint32_t first) const {
    return std::span<const std::uint32_t>(m_byLevel).subspan(m_levelBegin[first]);
}

std::uint32_t HierarchicalStepperCpu::deepestLevelInUse() const {
    std::uint32_t level = m_maxLevel;
    while (level > 0 && m_levelBegin[level] == m_levelBegin[level + 1])
        --level;
    return level;
}

void HierarchicalStepperCpu::kickLevelsFrom(std::uint32_t first, Bodies& bodies, const Vec3Arrays<float>& accelerations,
                                            double tickDuration) {
    for (std::uint32_t level = first; level <= m_maxLevel; ++level) {
        const std::span<const std::uint32_t> all(m_byLevel);
        const std::span<const std::uint32_t> onLevel =
            all.subspan(m_levelBegin[level], m_levelBegin[level + 1] - m_levelBegin[level]);
        if (!onLevel.empty())
            kickListCpu(bodies, accelerations, onLevel,
                        float(0.5 * double(levelStepTicks(level, m_maxLevel)) * tickDuration));
    }
}

void HierarchicalStepperCpu::updateOrb(const Hooks& hooks) {
    m_evaluationsPerStep.resize(m_levels.size());
    for (std::size_t i = 0; i < m_levels.size(); ++i)
        m_evaluationsPerStep[i] = float(std::uint32_t{1} << m_levels[i]);
    if (!hooks.updateOrb(m_evaluationsPerStep, m_order))
        return;
    if (m_order.size() != m_levels.size())
        throw std::logic_error("hierarchical steps: ORB reported an order of " + std::to_string(m_order.size()) +
                               " bodies for " + std::to_string(m_levels.size()));
    std::vector<std::uint8_t> permuted(m_levels.size());
    for (std::size_t k = 0; k < m_order.size(); ++k)
        permuted[k] = m_levels[m_order[k]];
    m_levels = std::move(permuted);
    sortByLevel();
}

void HierarchicalStepperCpu::step(Bodies& bodies, Vec3Arrays<float>& accelerations, const TimeStepCriterion& criterion,
                                  const Hooks& hooks, std::vector<PhaseTiming>& times) {
    if (accelerations.size() != bodies.size())
        throw std::invalid_argument("hierarchical steps: " + std::to_string(accelerations.size()) +
                                    " accelerations for " + std::to_string(bodies.size()) + " bodies");
    Stopwatch integrate;
    if (!remembersAccelerations(criterion.choice))
        forgetHistory(); // not written under the start's choice: a later step of another must not read stale ones
    assignLevels(bodies, accelerations, criterion);
    const std::uint32_t ticks = levelStepTicks(0, m_maxLevel);
    const double tickDuration = criterion.baseStep / double(ticks);
    std::uint32_t tick = 0;
    while (tick < ticks) {
        kickLevelsFrom(shallowestLevelEndingAt(tick, m_maxLevel), bodies, accelerations, tickDuration);
        const std::uint32_t subStepTicks = levelStepTicks(deepestLevelInUse(), m_maxLevel);
        driftCpu(bodies, float(double(subStepTicks) * tickDuration));
        tick += subStepTicks;
        ++m_subSteps;
        addPhaseTime(times, "integrate", integrate.elapsedMilliseconds());

        if (tick == ticks && hooks.updateOrb)
            updateOrb(hooks);
        const std::uint32_t shallowestActive = shallowestLevelEndingAt(tick, m_maxLevel);
        const std::span<const std::uint32_t> active = bodiesFromLevel(shallowestActive);
        if (remembersAccelerations(criterion.choice))
            rememberAccelerations(active, accelerations, tickDuration);
        hooks.computeForces(active);
        m_forceEvaluations += active.size();

        integrate = Stopwatch();
        kickLevelsFrom(shallowestActive, bodies, accelerations, tickDuration);
        for (const std::uint32_t i : active)
            m_levels[i] = std::uint8_t(
                nextTimeStepLevel(m_levels[i], wantedLevel(i, bodies, accelerations, criterion), tick, m_maxLevel));
        sortByLevel();
    }
    ++m_baseSteps;
    addPhaseTime(times, "integrate", integrate.elapsedMilliseconds());
}

TimeStepStatistics HierarchicalStepperCpu::statistics() const {
    TimeStepStatistics statistics;
    if (!m_levelBegin.empty()) {
        const std::uint32_t deepest = deepestLevelInUse();
        for (std::uint32_t level = 0; level <= deepest; ++level)
            statistics.bodiesPerLevel.push_back(m_levelBegin[level + 1] - m_levelBegin[level]);
    }
    if (m_baseSteps > 0) {
        statistics.forceEvaluationsPerStep = double(m_forceEvaluations) / double(m_baseSteps);
        statistics.subStepsPerStep = double(m_subSteps) / double(m_baseSteps);
    }
    return statistics;
}

} // namespace gravlab
