// Plot sampling: method, cadence and one measurement (see DiagnosticsSampler.hpp).
#include "DiagnosticsSampler.hpp"

#include <gravlab/sim/LagrangianRadii.hpp>
#include <gravlab/sim/SolverRegistry.hpp>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace gravlab {

DiagnosticsSampler::DiagnosticsSampler(const PlotSampling& sampling, std::function<double()> wallSeconds)
    : m_sampling(sampling), m_wallSeconds(std::move(wallSeconds)), m_history(sampling.capacity) {
    if (!(sampling.intervalSeconds > 0))
        throw std::invalid_argument("plot sampling: interval " + std::to_string(sampling.intervalSeconds) +
                                    " s; allowed: more than 0");
}

PotentialMethod DiagnosticsSampler::methodFor(const SimParams& params, std::size_t bodyCount, bool onCuda) {
    if (findSolver(params.solver).usesOpeningAngle)
        return PotentialMethod::Tree;
    const std::size_t directLimit = onCuda ? kDirectPlotMaxBodiesCuda : kDirectPlotMaxBodiesCpu;
    return bodyCount <= directLimit ? PotentialMethod::DirectFp64 : PotentialMethod::Tree;
}

void DiagnosticsSampler::restart(Simulation& simulation, bool onCuda) {
    m_history.clear();
    m_lastSampledAt.reset();
    m_lastSampledStep.reset();
    if (m_sampling.enabled)
        sampleNow(simulation, onCuda);
}

std::optional<DiagnosticsMeasurement> DiagnosticsSampler::measureIfDue(Simulation& simulation, bool onCuda) const {
    if (m_sampling.enabled && due(simulation))
        return measure(simulation, onCuda);
    return std::nullopt;
}

bool DiagnosticsSampler::due(const Simulation& simulation) const {
    if (m_sampling.everySteps > 0)
        return !m_lastSampledStep || simulation.stepCount() >= *m_lastSampledStep + m_sampling.everySteps;
    const double interval = std::max(m_sampling.intervalSeconds, kCostToIntervalFactor * m_lastCost.value_or(0.0));
    return !m_lastSampledAt || m_wallSeconds() - *m_lastSampledAt >= interval;
}

DiagnosticsMeasurement DiagnosticsSampler::measure(Simulation& simulation, bool onCuda) const {
    const double start = m_wallSeconds();
    const SimParams& params = simulation.params();
    DiagnosticsMeasurement measurement;
    measurement.simulationTime = simulation.time();
    measurement.step = simulation.stepCount();
    measurement.diagnostics =
        simulation.backend().measureDiagnostics(params, methodFor(params, simulation.bodyCount(), onCuda));
    Bodies bodies;
    simulation.backend().readBodies(bodies);
    const std::vector<double> radii = lagrangianRadii(bodies, kPlotMassFractions);
    std::copy(radii.begin(), radii.end(), measurement.lagrangianRadii.begin());
    for (const float mass : bodies.mass)
        measurement.totalMass += mass;
    measurement.stepTimings = simulation.backend().lastStepTimings();
    measurement.measureSeconds = m_wallSeconds() - start;
    return measurement;
}

void DiagnosticsSampler::record(const DiagnosticsMeasurement& measurement) {
    m_history.record(measurement);
    m_lastCost = measurement.measureSeconds;
    m_lastSampledAt = m_wallSeconds();
    m_lastSampledStep = measurement.step;
}

} // namespace gravlab
