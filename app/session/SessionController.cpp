// The session controller: edits through Simulation's ParamsChange, stepping, energy scheduling (see the header).
#include "SessionController.hpp"

#include "OrbDefaults.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <utility>

namespace gravlab {

double steadyClockSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

SessionController::SessionController(Simulation& simulation, FrameSink& sink, const SessionSettings& settings,
                                     SessionEnvironment environment)
    : m_simulation(simulation), m_sink(sink), m_environment(std::move(environment)),
      m_stepsPerFrame(settings.stepsPerFrame), m_colorMode(settings.colorMode), m_colorScale(settings.colorScale),
      m_autoRefreshEnergy(settings.autoRefreshEnergy), m_saver(settings.saving),
      m_energy(settings.energyHistoryCapacity), m_plots(settings.plots, m_environment.wallSeconds) {
    m_onCudaBackend = m_environment.probeCudaBackend(m_simulation.params());
    m_simulation.visuals().setColorMode(m_colorMode);
    m_simulation.visuals().setColorScaleChoice(m_colorScale);
    pushVerticesIfStale();
    restartEnergyHistory();
    restartPlots();
}

FrameAdvance SessionController::advanceFrame() {
    const FrameAdvance advance = stepSimulation(m_paused ? 0 : m_stepsPerFrame);
    followSteps(advance);
    refreshEnergyIfDue();
    pushVerticesIfStale();
    return advance;
}

FrameAdvance SessionController::stepSimulation(int stepCount, bool measureEnergy) {
    FrameAdvance advance;
    saveSnapshotIfDue(advance); // the initial state, and the step reached before a pause
    try {
        for (std::uint64_t remaining = std::uint64_t(stepCount); remaining > 0 && !advance.saveFailure;) {
            const std::uint64_t untilSave = m_saver.stepsUntilDue(m_simulation.stepCount());
            const std::uint64_t chunk = std::min(remaining, std::max<std::uint64_t>(untilSave, 1));
            m_simulation.step(int(chunk));
            advance.stepped = true;
            remaining -= chunk;
            saveSnapshotIfDue(advance);
        }
    } catch (const NonFiniteStateError& error) {
        advance.nonFiniteState = error.what(); // the simulation rolled back to its last finite state
    } catch (const CoincidentBodiesError& error) {
        advance.coincidentBodies = error.what(); // rolled back likewise
    }
    if (advance.stepped && !advance.rolledBack() && !advance.saveFailure)
        advance.plotSample = m_plots.measureIfDue(m_simulation, m_onCudaBackend);
    if (measureEnergy && !advance.rolledBack() && !advance.saveFailure) {
        const double start = m_environment.wallSeconds();
        const Diagnostics diagnostics = m_simulation.diagnostics();
        advance.energy = MeasuredEnergy{diagnostics, m_environment.wallSeconds() - start};
    }
    return advance;
}

void SessionController::followSteps(const FrameAdvance& advance) {
    if (advance.saveFailure) {
        m_paused = true;
        m_lastError = "snapshot not saved: " + *advance.saveFailure;
    }
    if (advance.nonFiniteState) { // pause so the user can lower dt and go on
        m_paused = true;
        m_lastError = *advance.nonFiniteState + " Paused: lower dt, then press Space.";
    }
    if (advance.coincidentBodies) { // the message says what to change
        m_paused = true;
        m_lastError = *advance.coincidentBodies + " Paused.";
    }
    if (advance.stepped)
        afterStep();
    if (advance.energy)
        record(advance.energy->diagnostics, advance.energy->computeSeconds);
    if (advance.plotSample)
        m_plots.record(*advance.plotSample);
}

void SessionController::completeFrame(const FrameAdvance& advance) {
    followSteps(advance);
    pushVerticesIfStale();
}

void SessionController::pauseWithError(const std::string& message) {
    m_paused = true;
    m_lastError = message;
}

void SessionController::saveSnapshotIfDue(FrameAdvance& advance) {
    try {
        if (auto file = m_saver.saveIfDue(m_simulation))
            advance.savedSnapshot = std::move(file);
    } catch (const std::exception& error) {
        advance.saveFailure = error.what();
    }
}

void SessionController::stepOnce() {
    m_paused = true;
    try {
        m_simulation.step(1);
        afterStep();
    } catch (const NonFiniteStateError& error) {
        m_lastError = std::string(error.what()) + " Lower dt, then step again.";
    } catch (const CoincidentBodiesError& error) {
        m_lastError = error.what();
    }
}

void SessionController::reset() {
    m_simulation.reset();
    m_saver.restart();
    m_lastError.clear();
    m_verticesStale = true;
    m_sink.invalidateTreeOverlay();
    m_sink.invalidateOrbOverlay();
    restartEnergyHistory();
    restartPlots();
}

void SessionController::afterStep() {
    m_verticesStale = true;
    m_sink.invalidateTreeOverlay(); // the step ended with a force evaluation: a new octree
    m_sink.invalidateOrbOverlay();  // ... and the domains may have been re-partitioned or migrated
}

ParamsChange SessionController::applyParams(const SimParams& requested) {
    const SimParams before = m_simulation.params();
    // Fewer bodies than ORB domains is refused by validation; lowering N should not be, so the domains follow it.
    SimParams params = requested;
    params.orb.domainCount =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(params.orb.domainCount, params.bodyCount));
    ParamsChange change;
    bool accepted = false;
    try {
        change = m_simulation.setParams(params);
        accepted = true;
        follow(change, true);
        m_lastError.clear();
    } catch (const std::exception& error) {
        // Invalid values or an unavailable backend (setParams then changed nothing), or a body count whose vertices
        // the GPU cannot hold (accepted by the simulation, so undone here): go back to what ran before.
        m_lastError = error.what();
        if (accepted) {
            const ParamsChange undo = m_simulation.setParams(before);
            follow(undo, false);
            change |= undo;
        }
    }
    return change;
}

void SessionController::follow(const ParamsChange& change, bool pushNewBodies) {
    if (change.backendReplaced) { // a new backend starts in its default colour mode and scale
        m_simulation.visuals().setColorMode(m_colorMode);
        m_simulation.visuals().setColorScaleChoice(m_colorScale);
    }
    if (change.backendChoiceMayHaveChanged)
        m_onCudaBackend = m_environment.probeCudaBackend(m_simulation.params());
    if (change.treeOverlayInvalidated)
        m_sink.invalidateTreeOverlay();
    if (change.orbOverlayInvalidated)
        m_sink.invalidateOrbOverlay();
    if (change.verticesNeedRefeed)
        m_verticesStale = true;
    if (change.reinitialised && pushNewBodies) // the vertex buffer grows here, and may not fit on the GPU
        pushVerticesIfStale();
    if (change.reinitialised || change.backendReplaced)
        m_lastMeasureCost.reset(); // the cost of the last measurement says nothing about another N or backend
    if (change.reinitialised || change.energyFunctionChanged)
        restartEnergyHistory();
    if (change.reinitialised || change.energyFunctionChanged || change.backendReplaced)
        restartPlots();
}

void SessionController::setColorMode(ColorMode mode) {
    m_colorMode = mode;
    m_simulation.visuals().setColorMode(mode);
    m_verticesStale = true;
    if (mode == ColorMode::OrbDomain)
        showOrbDomains();
}

void SessionController::setColorScale(ColorScaleChoice choice) {
    m_colorScale = choice;
    m_simulation.visuals().setColorScaleChoice(choice);
    m_verticesStale = true;
}

void SessionController::showOrbDomains() {
    if (m_simulation.params().orb.domainCount > 0)
        return;
    SimParams params = m_simulation.params();
    params.orb.domainCount = defaultOrbDomainCount(m_simulation.bodyCount());
    applyParams(params);
}

void SessionController::pushVerticesIfStale() {
    if (!m_verticesStale)
        return;
    m_sink.refreshVertices(m_simulation);
    m_verticesStale = false;
}

void SessionController::restartEnergyHistory() {
    m_energy.clear();
    m_lastMeasuredAt.reset();
    const std::optional<EnergyBaseline>& baseline = m_simulation.energyBaseline();
    if (baseline && baseline->stepCount == m_simulation.stepCount())
        record(baseline->diagnostics, baseline->computeSeconds); // already paid for by Simulation
    else if (energyIsCheap())
        measureEnergyNow();
}

void SessionController::measureEnergyNow() {
    const double start = m_environment.wallSeconds();
    const Diagnostics diagnostics = m_simulation.diagnostics();
    record(diagnostics, m_environment.wallSeconds() - start);
}

void SessionController::record(const Diagnostics& diagnostics, double computeSeconds) {
    m_energy.push({.simulationTime = m_simulation.time(),
                   .relativeDrift = m_simulation.relativeEnergyDrift(diagnostics),
                   .kineticEnergy = diagnostics.kineticEnergy,
                   .potentialEnergy = diagnostics.potentialEnergy,
                   .computeSeconds = computeSeconds});
    m_lastMeasureCost = computeSeconds;
    m_lastMeasuredAt = m_environment.wallSeconds();
}

bool SessionController::energyIsCheap() const {
    if (m_lastMeasureCost)
        return *m_lastMeasureCost < kMaxAutomaticMeasureSeconds;
    return m_simulation.bodyCount() <= kEagerEnergyBaselineMaxBodies;
}

bool SessionController::energyDue() const {
    if (!m_autoRefreshEnergy || m_paused)
        return false;
    const bool due = !m_lastMeasuredAt || m_environment.wallSeconds() - *m_lastMeasuredAt >= kEnergyRefreshSeconds;
    return due && energyIsCheap();
}

void SessionController::refreshEnergyIfDue() {
    if (energyDue())
        measureEnergyNow();
}

std::optional<double> SessionController::secondsSinceLastMeasurement() const {
    if (!m_lastMeasuredAt)
        return std::nullopt;
    return m_environment.wallSeconds() - *m_lastMeasuredAt;
}

} // namespace gravlab
