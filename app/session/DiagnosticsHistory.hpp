#pragma once
// The time series a class reads off a run: energy error, momentum and angular momentum drift, virial ratio, Lagrangian
// radii and step time per phase, newest last, for the plots panel and the CSV export.
//
// Design note: the samples live in a SampleRing (fixed capacity, oldest first). Drifts are against the history's own
// baseline, the first sample recorded after a clear(): every sample is then measured by the same potential method, so
// the plotted energy error is the integration's, not the difference between a tree and a direct-sum W (about 1e-4 at
// theta 0.5). A sample measured by another method or opening angle than the baseline (the solver or theta was changed)
// therefore starts the series again with itself as the baseline. Scales: the energy error is |E - E0| / |E0|; the
// linear momentum drift is |P - P0| / p0 with the momentum scale p0 = sqrt(M (2 K0 + |W0|)), i.e. M times a typical
// speed (sqrt(2) times the rms speed in virial equilibrium; unlike M sqrt(2 K0 / M) it is not zero for a system started
// at rest); the angular momentum drift is |L - L0| / |L0| (NaN when L0 = 0: a Plummer sphere's L0 is only sampling
// noise, so its relative drift says little, and the absolute one is not in a class's units either).
#include "SampleRing.hpp"

#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gravlab {

/// Mass fractions of the Lagrangian radii the plots show.
inline constexpr std::array<double, 3> kPlotMassFractions{0.1, 0.5, 0.9};

/// One measurement, as recorded (raw) and as plotted (drifts against the baseline).
struct DiagnosticsSample {
    double simulationTime = 0;       ///< N-body time of the state measured
    std::uint64_t step = 0;          ///< Simulation::stepCount() of that state
    Diagnostics diagnostics;         ///< K, W (and how it was measured), P, L
    double relativeEnergyError = 0;  ///< |E - E0| / |E0|
    double momentumDrift = 0;        ///< |P - P0| / p0, p0 = sqrt(M (2 K0 + |W0|)) (see the design note)
    double angularMomentumDrift = 0; ///< |L - L0| / |L0|; NaN when L0 = 0
    double virialRatio = 0;          ///< 2K / |W|: 1 in virial equilibrium
    /// Radii enclosing kPlotMassFractions of the mass about the centre of mass, N-body length units.
    std::array<double, kPlotMassFractions.size()> lagrangianRadii{};
    std::vector<PhaseTiming> stepTimings; ///< per phase of the last step before the measurement, milliseconds
    double measureSeconds = 0;            ///< wall-clock seconds the measurement took
};

/// What a measurement produced, before drifts (DiagnosticsHistory::record computes them).
struct DiagnosticsMeasurement {
    double simulationTime = 0;
    std::uint64_t step = 0;
    Diagnostics diagnostics;
    double totalMass = 0; ///< M, for the momentum scale
    std::array<double, kPlotMassFractions.size()> lagrangianRadii{};
    std::vector<PhaseTiming> stepTimings;
    double measureSeconds = 0;
};

class DiagnosticsHistory {
public:
    /// Keeps the last capacity samples; capacity must be at least 1 (std::invalid_argument otherwise).
    explicit DiagnosticsHistory(std::size_t capacity);

    /// Appends the measurement with its drifts against the baseline, dropping the oldest sample when full. The first
    /// measurement after clear(), or one whose potential method or theta differs from the baseline's, clears the
    /// history and becomes the baseline (drifts 0).
    void record(const DiagnosticsMeasurement& measurement);
    /// Forgets every sample and the baseline.
    void clear();

    std::size_t size() const { return m_samples.size(); }
    std::size_t capacity() const { return m_samples.capacity(); }
    bool empty() const { return m_samples.empty(); }
    /// The index-th oldest sample kept (0: the oldest); index < size().
    const DiagnosticsSample& operator[](std::size_t index) const { return m_samples[index]; }
    const DiagnosticsSample& latest() const { return m_samples.latest(); }
    /// The measurement the drifts are against; empty after clear().
    const std::optional<DiagnosticsMeasurement>& baseline() const { return m_baseline; }

private:
    DiagnosticsSample withDrifts(const DiagnosticsMeasurement& measurement) const;

    SampleRing<DiagnosticsSample> m_samples;
    std::optional<DiagnosticsMeasurement> m_baseline;
};

} // namespace gravlab
