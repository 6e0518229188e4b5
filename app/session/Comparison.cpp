// The comparison run in lockstep with the main run, and its divergence samples (see Comparison.hpp).
#include "Comparison.hpp"

#include "SessionController.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace gravlab {

namespace {

Bodies bodiesOf(const Simulation& simulation) {
    Bodies bodies;
    simulation.backend().readBodies(bodies);
    return bodies;
}

/// The comparison run from main's current state; G is main's even when the snapshot's units imply another (--G).
std::unique_ptr<Simulation> comparisonRun(const Simulation& main, const ComparisonChoice& choice,
                                          const CompanionMemory& companion, const MemorySource& memory) {
    std::optional<SimParams> chosen;
    std::unique_ptr<Simulation> run;
    try {
        chosen = comparisonParams(main.params(), choice);
        run = std::make_unique<Simulation>(*chosen, main.snapshot(), companion, memory);
    } catch (const InvalidParameterError& error) { // the choice (--compare) was wrong, not the main run's values
        throw InvalidParameterError("compare", "the comparison run's " + error.field() + ": " + error.what());
    } catch (const InsufficientMemoryError& error) {
        throw InsufficientMemoryError(std::string("no room for the comparison run (a second copy of the bodies beside "
                                                  "the main run's): ") +
                                      error.what());
    }
    if (run->params().gravitationalConstant != chosen->gravitationalConstant) {
        SimParams gravity = run->params();
        gravity.gravitationalConstant = chosen->gravitationalConstant;
        run->setParams(gravity);
    }
    return run;
}

/// run's relative energy error now, and what measuring it costs: the diagnostics that recorded E0 when they describe
/// the current step (Simulation computed them already; their cost still says what the next measurement will take),
/// else an O(N^2) evaluation now, whose cost the caller times.
struct EnergyError {
    double relative = 0;
    double reusedSeconds = 0;
};

EnergyError energyErrorOf(const Simulation& run) {
    const std::optional<EnergyBaseline>& baseline = run.energyBaseline();
    if (baseline && baseline->stepCount == run.stepCount())
        return {run.relativeEnergyDrift(baseline->diagnostics), baseline->computeSeconds};
    return {run.relativeEnergyDrift(run.diagnostics()), 0.0};
}

} // namespace

SimParams comparisonParams(const SimParams& main, const ComparisonChoice& choice) {
    SimParams params = main;
    params.solver = std::string(findSolver(choice.solver).name);
    params.openingAngle = choice.openingAngle;
    checkInRange(kComparisonSubstepsRange, double(choice.substeps));
    params.timeStep = main.timeStep / double(choice.substeps);
    if (choice.orbDomainCount)
        params.orb.domainCount = *choice.orbDomainCount;
    validateSimParams(params);
    return params;
}

Comparison::Comparison(const Simulation& main, ComparisonChoice choice, ComparisonCadence cadence,
                       const CompanionMemory& companion, const MemorySource& memory)
    : m_choice(std::move(choice)), m_cadence(std::move(cadence)), m_companion(companion), m_memory(&memory),
      m_history(m_cadence.historyCapacity) {
    if (m_cadence.sampleEveryFrames < 1)
        throw std::invalid_argument("comparison: a sample every " + std::to_string(m_cadence.sampleEveryFrames) +
                                    " frames; allowed 1 or more");
    if (!m_cadence.wallSeconds)
        m_cadence.wallSeconds = steadyClockSeconds;
    start(main);
}

void Comparison::start(const Simulation& main) {
    std::unique_ptr<Simulation> run = comparisonRun(main, m_choice, m_companion, *m_memory);
    m_run = std::move(run);
    m_mainParamsAtStart = main.params();
    m_mainStepsAtStart = main.stepCount();
    m_mainStepsSeen = main.stepCount();
    m_mainDirectionSeen = main.timeDirection();
    m_halfMassRadius = gravlab::halfMassRadius(bodiesOf(main));
    m_history.clear();
    m_framesSinceSample = 0;
    m_lastEnergyAt.reset();
    m_failure.clear();
    takeSample(main);
}

void Comparison::restart(const Simulation& main) {
    start(main);
}

bool Comparison::mainWentBackOrChanged(const Simulation& main) const {
    return main.stepCount() < m_mainStepsSeen || main.params() != m_mainParamsAtStart ||
           main.bodyCount() != m_run->bodyCount();
}

bool Comparison::follow(const Simulation& main) {
    if (mainWentBackOrChanged(main)) {
        ++m_restarts;
        start(main);
        return true;
    }
    if (!m_failure.empty() || main.stepCount() == m_mainStepsSeen)
        return false;
    if (main.timeDirection() != m_mainDirectionSeen) {
        // The main run may have stepped before it turned (a reversal waits for the steps in flight): those steps
        // went the old way, so the comparison takes them before it turns too.
        if (!catchUpTo(std::max(main.stepCountAtReversal(), m_mainStepsSeen)))
            return false;
        m_run->reverseTime();
        m_mainDirectionSeen = main.timeDirection();
    }
    if (!catchUpTo(main.stepCount()))
        return false;
    m_mainStepsSeen = main.stepCount();
    if (++m_framesSinceSample >= m_cadence.sampleEveryFrames) {
        m_framesSinceSample = 0;
        takeSample(main);
    }
    return true;
}

bool Comparison::catchUpTo(std::uint64_t mainStep) {
    const std::uint64_t owed = (mainStep - m_mainStepsAtStart) * std::uint64_t(m_choice.substeps);
    try {
        m_run->step(static_cast<int>(owed - m_run->stepCount()));
    } catch (const NonFiniteStateError& error) {
        m_failure = std::string("the comparison run stopped: ") + error.what();
        return false;
    } catch (const CoincidentBodiesError& error) {
        m_failure = std::string("the comparison run stopped: ") + error.what();
        return false;
    }
    return true;
}

bool Comparison::energyDue() const {
    if (m_energyRequested)
        return true;
    const bool cheap = m_lastEnergyCost ? *m_lastEnergyCost < m_cadence.maxEnergySeconds
                                        : m_run->bodyCount() <= kEagerEnergyBaselineMaxBodies;
    const bool intervalPassed =
        !m_lastEnergyAt || m_cadence.wallSeconds() - *m_lastEnergyAt >= m_cadence.energyIntervalSeconds;
    return cheap && intervalPassed;
}

void Comparison::takeSample(const Simulation& mainRun) {
    const PositionDivergence divergence = m_pairing.measure(bodiesOf(mainRun), bodiesOf(*m_run));
    DivergenceSample sample{.simulationTime = m_run->time(),
                            .rmsPositionDifference = divergence.rms,
                            .rmsOverHalfMassRadius = m_halfMassRadius > 0 ? divergence.rms / m_halfMassRadius : 0.0,
                            .maxPositionDifference = divergence.max,
                            .energyErrorA = std::numeric_limits<double>::quiet_NaN(),
                            .energyErrorB = std::numeric_limits<double>::quiet_NaN()};
    if (energyDue()) {
        const double startedAt = m_cadence.wallSeconds();
        const EnergyError main = energyErrorOf(mainRun);
        const EnergyError comparison = energyErrorOf(*m_run);
        sample.energyErrorA = main.relative;
        sample.energyErrorB = comparison.relative;
        m_lastEnergyAt = m_cadence.wallSeconds();
        m_lastEnergyCost = *m_lastEnergyAt - startedAt + main.reusedSeconds + comparison.reusedSeconds;
        m_energyRequested = false;
    }
    m_history.push(sample);
}

} // namespace gravlab
