// The CUDA backend's hierarchical time steps: the sub-step loop on the host around DeviceHierarchicalLeapfrog's
// kernels, partial force evaluations through CudaForceSolver::computeAccelerationsOf, and the time-step statistics.
//
// Design note: the sequence is the CPU stepper's (HierarchicalStepper.hpp). The host keeps only the histogram of
// levels, read after every sub-step (one 68-byte copy and a synchronisation; into pinned memory it measured no faster):
// it gives the next sub-step's length (the deepest level in use) and the active count, which sizes the partial
// evaluation. The last sub-step of a base step has every body active: ORB runs before its forces (work weights scaled
// by 2^level first), the evaluation is the ordinary full one, and its closing kick counts non-finite bodies as the
// fixed step's does, so rollback works unchanged. Each sub-step's opening pass also lists the bodies its evaluation
// takes (from the histogram the host already holds) and, under the symmetric and tidal level choices, leaves their
// acceleration and step in m_earlierAccelerations, which the next level choices read.
#include "device/cuda/CudaBackend.hpp"
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/DeviceHierarchicalLeapfrog.hpp"

#include <numeric>

namespace gravlab {
namespace {

std::uint32_t deepestLevelIn(const std::vector<unsigned>& histogram) {
    std::uint32_t level = std::uint32_t(histogram.size()) - 1;
    while (level > 0 && histogram[level] == 0)
        --level;
    return level;
}

} // namespace

void CudaBackend::readLevelHistogram() {
    m_levelHistogram.resize(kDeviceTimeStepLevels);
    CUDA_CHECK(cudaMemcpyAsync(m_levelHistogram.data(), m_levelCounters.data(),
                               kDeviceTimeStepLevels * sizeof(unsigned), cudaMemcpyDeviceToHost, m_stream.get()));
    m_stream.synchronize();
}

unsigned CudaBackend::evaluateActive(const ForceSettings& settings, std::size_t activeCount) {
    if (activeCount == m_bodies.size())
        return refreshAccelerations(settings);
    m_accelerationsCurrent = false; // a mix of sub-steps until the base step's last, full evaluation
    ++m_stateVersion;
    // The relative criterion reads every target's previous acceleration, still in place from its last evaluation.
    const ForceParams forces{settings.gravity, float(settings.openingAngle), settings.openingCriterion,
                             float(settings.forceAccuracy), m_accelerationsInBodyOrder};
    const DeviceTargets targets{m_activeList.data(), activeCount, m_isTarget.data(), m_surplusBodies.data()};
    return m_solver->computeAccelerationsOf(m_bodies, m_bodyScratch, forces, targets, m_stream.get(), m_timeline);
}

void CudaBackend::stepHierarchical(const ForceSettings& settings, const SimParams& params, int stepIndex) {
    cudaStream_t stream = m_stream.get();
    const std::size_t count = m_bodies.size();
    m_levelOfLoad.resize(count);
    m_isTarget.resize(count);
    m_activeList.resize(count);
    m_levelCounters.resize(kDeviceTimeStepLevels + 1);
    m_surplusBodies.resize(1);
    m_surplusBodies.zero(stream);
    const TimeStepCriterion criterion{params.timeStep, params.softeningLength, params.timeSteps.accuracy,
                                      params.timeSteps.maxLevel, params.timeSteps.levelChoice};
    float4* earlier = remembersAccelerations(criterion.choice) ? prepareEarlierAccelerations() : nullptr;
    unsigned* activeCounter = m_levelCounters.data() + kDeviceTimeStepLevels;
    const std::uint32_t maxLevel = criterion.maxLevel;
    const std::uint32_t ticks = levelStepTicks(0, maxLevel);
    const double tickDuration = params.timeStep / double(ticks);
    LevelHalfSteps halfSteps{};
    for (std::uint32_t level = 0; level <= maxLevel; ++level)
        halfSteps.value[level] = float(0.5 * double(levelStepTicks(level, maxLevel)) * tickDuration);

    m_levelCounters.zero(stream);
    launchAssignTimeStepLevels(m_bodies.acceleration.data(), m_bodies.velocityColor.data(), m_bodies.loadOrder.data(),
                               m_levelOfLoad.data(), count, criterion, earlier, m_levelCounters.data(), stream);
    readLevelHistogram();
    for (std::uint32_t tick = 0; tick < ticks;) {
        const std::uint32_t subStepTicks = levelStepTicks(deepestLevelIn(m_levelHistogram), maxLevel);
        const std::uint32_t end = tick + subStepTicks;
        const std::uint32_t shallowestActive = shallowestLevelEndingAt(end, maxLevel);
        const std::size_t activeCount = std::accumulate(m_levelHistogram.begin() + shallowestActive,
                                                        m_levelHistogram.begin() + maxLevel + 1, std::size_t{0});
        // A full evaluation needs no list (and at the last sub-step ORB reorders the bodies after this pass).
        const bool listed = activeCount != count;
        const SubStepTargets targets{shallowestActive,
                                     listed ? m_isTarget.data() : nullptr,
                                     listed ? m_activeList.data() : nullptr,
                                     listed ? activeCounter : nullptr,
                                     earlier,
                                     m_levelCounters.data()};
        launchOpeningKicksAndDrift(m_bodies.positionMass.data(), m_bodies.velocityColor.data(),
                                   m_bodies.acceleration.data(), m_bodies.loadOrder.data(), m_levelOfLoad.data(), count,
                                   tick, maxLevel, halfSteps, float(double(subStepTicks) * tickDuration), targets,
                                   stream);
        m_timeline.mark(m_integratePhase, stream);
        tick = end;
        ++m_subStepsInCall;
        const bool last = tick == ticks;
        if (last && (params.orb.domainCount > 0 || m_orbDomains.active())) {
            launchWeighWorkByLevel(m_bodies.acceleration.data(), m_bodies.loadOrder.data(), m_levelOfLoad.data(), count,
                                   stream);
            updateOrbAfterDrift(params);
            m_timeline.mark(m_orbPhase, stream);
        }
        if (const unsigned nonFinite = evaluateActive(settings, activeCount); nonFinite != 0)
            failBeforeBuild(stepIndex, nonFinite);
        m_forceEvaluationsInCall += activeCount;
        launchClosingKicksAndLevels(m_bodies.positionMass.data(), m_bodies.velocityColor.data(),
                                    m_bodies.acceleration.data(), m_bodies.loadOrder.data(), m_levelOfLoad.data(),
                                    count, tick, shallowestActive, halfSteps, criterion, earlier,
                                    m_levelCounters.data(), last ? m_nonFiniteCounts.data() + stepIndex : nullptr,
                                    activeCounter, stream);
        m_timeline.mark(m_integratePhase, stream);
        readLevelHistogram();
    }
    unsigned long long surplus = 0;
    CUDA_CHECK(cudaMemcpyAsync(&surplus, m_surplusBodies.data(), sizeof surplus, cudaMemcpyDeviceToHost, stream));
    m_stream.synchronize();
    m_surplusInCall += surplus;
    ++m_baseStepsInCall;
    m_levelsMaxLevel = maxLevel;
    m_levelsStateVersion = m_stateVersion;
}

float4* CudaBackend::prepareEarlierAccelerations() {
    if (!m_earlierAccelerationsCurrent || m_earlierAccelerations.size() != m_bodies.size()) {
        m_earlierAccelerations.resize(m_bodies.size());
        m_earlierAccelerations.zero(m_stream.get()); // interval 0: no slope until a body's next evaluation
        m_earlierAccelerationsCurrent = true;
    }
    return m_earlierAccelerations.data();
}

bool CudaBackend::levelsCurrent() const {
    return m_lastTimeStepMode == TimeStepMode::Hierarchical && m_levelsStateVersion == m_stateVersion &&
           m_levelOfLoad.size() == m_bodies.size() && m_levelHistogram.size() == kDeviceTimeStepLevels;
}

TimeStepStatistics CudaBackend::timeStepStatistics() const {
    if (m_lastTimeStepMode == TimeStepMode::Fixed) {
        if (m_stepsTaken == 0 || m_bodies.size() == 0)
            return {};
        const auto count = double(m_bodies.size());
        return {{std::uint64_t(m_bodies.size())}, count, 0.0, 1.0};
    }
    if (!levelsCurrent() || m_baseStepsInCall == 0)
        return {};
    TimeStepStatistics statistics;
    const std::uint32_t deepest = deepestLevelIn(m_levelHistogram);
    statistics.bodiesPerLevel.assign(m_levelHistogram.begin(), m_levelHistogram.begin() + deepest + 1);
    const auto baseSteps = double(m_baseStepsInCall);
    statistics.forceEvaluationsPerStep = double(m_forceEvaluationsInCall) / baseSteps;
    statistics.wastedForceEvaluationsPerStep = double(m_surplusInCall) / baseSteps;
    statistics.subStepsPerStep = double(m_subStepsInCall) / baseSteps;
    return statistics;
}

} // namespace gravlab
