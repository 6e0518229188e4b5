// The diagnostics ring buffer and its drifts (see DiagnosticsHistory.hpp).
#include "DiagnosticsHistory.hpp"

#include <cmath>
#include <limits>

namespace gravlab {
namespace {

double norm(const std::array<double, 3>& v) {
    return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

std::array<double, 3> difference(const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

bool sameMethod(const Diagnostics& a, const Diagnostics& b) {
    return a.potentialMethod == b.potentialMethod && a.potentialOpeningAngle == b.potentialOpeningAngle;
}

} // namespace

DiagnosticsHistory::DiagnosticsHistory(std::size_t capacity) : m_samples(capacity, "diagnostics history") {}

void DiagnosticsHistory::record(const DiagnosticsMeasurement& measurement) {
    if (!m_baseline || !sameMethod(m_baseline->diagnostics, measurement.diagnostics)) {
        clear();
        m_baseline = measurement;
    }
    m_samples.push(withDrifts(measurement));
}

DiagnosticsSample DiagnosticsHistory::withDrifts(const DiagnosticsMeasurement& measurement) const {
    const Diagnostics& now = measurement.diagnostics;
    const Diagnostics& start = m_baseline->diagnostics;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double energy0 = start.totalEnergy();
    const double momentumScale =
        std::sqrt(m_baseline->totalMass * (2 * start.kineticEnergy + std::abs(start.potentialEnergy)));
    const double angularMomentum0 = norm(start.angularMomentum);
    DiagnosticsSample sample;
    sample.simulationTime = measurement.simulationTime;
    sample.step = measurement.step;
    sample.diagnostics = now;
    sample.relativeEnergyError = std::abs(now.totalEnergy() - energy0) / std::abs(energy0);
    sample.momentumDrift = norm(difference(now.linearMomentum, start.linearMomentum)) / momentumScale;
    sample.angularMomentumDrift =
        angularMomentum0 > 0 ? norm(difference(now.angularMomentum, start.angularMomentum)) / angularMomentum0 : nan;
    sample.virialRatio = 2 * now.kineticEnergy / std::abs(now.potentialEnergy);
    sample.lagrangianRadii = measurement.lagrangianRadii;
    sample.stepTimings = measurement.stepTimings;
    sample.measureSeconds = measurement.measureSeconds;
    return sample;
}

void DiagnosticsHistory::clear() {
    m_samples.clear();
    m_baseline.reset();
}

} // namespace gravlab
