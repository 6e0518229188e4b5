#pragma once
// When and how the plots' diagnostics are measured during a session, into a DiagnosticsHistory.
//
// Design note: GL-free, driven by SessionController (restart on reset, new bodies or a new energy function; a sample
// after a running frame when due), so the window and headless runs sample alike.
//   Method: the potential comes from the tree (SimulationBackend::measureDiagnostics, O(N log N)) when the solver is a
// tree (it reads theta), from the fp64 direct sum when another solver runs and N is small enough for the pair sum to
// be cheap (kDirectPlotMaxBodiesCpu / Cuda: ~10 ms of pairs), and from the tree again above that, so large direct-sum
// runs still get plots; the panel states which.
//   Cadence: while running, every intervalSeconds of wall-clock time (the window: a steady picture whatever the frame
// rate) or, when everySteps > 0, every that many steps (headless: reproducible rows). Nothing is sampled while paused,
// so a pause leaves a gap in wall-clock but none in simulation time, and resuming continues the series. Wall-clock
// samples are spaced by at least kCostToIntervalFactor times what the last one took, so measuring never takes more
// than a tenth of the run's time: a measurement reads the bodies to the host for the Lagrangian radii and sorts them,
// about a tenth of a second at 1e6 bodies, and plots of such a run get a sample every second or so instead of
// stalling it. Step cadence always samples, since the user asked for those rows.
#include "DiagnosticsHistory.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <cstdint>
#include <functional>
#include <optional>

namespace gravlab {

/// --plots-every: steps between headless plot samples, 0 for one per frame.
inline constexpr ParamRange kPlotsEveryRange{"plots-every", 0.0, 1e12, true,
                                             "steps between plot samples, 0 for one per frame"};

/// How a session samples its plots.
struct PlotSampling {
    bool enabled = true;           ///< off: no samples at all (headless without --plots-csv)
    double intervalSeconds = 0.25; ///< wall-clock seconds between samples while running, > 0
    std::uint64_t everySteps = 0;  ///< > 0: a sample every this many steps instead of the wall-clock interval
    std::size_t capacity = 4096;   ///< samples kept, at least 1
};

class DiagnosticsSampler {
public:
    /// Wall-clock samples are at least this many times the last sample's cost apart.
    static constexpr double kCostToIntervalFactor = 10.0;
    /// Largest N whose plots use the fp64 direct sum when the solver is not a tree.
    static constexpr std::size_t kDirectPlotMaxBodiesCpu = 4096;
    static constexpr std::size_t kDirectPlotMaxBodiesCuda = 131072;

    DiagnosticsSampler(const PlotSampling& sampling, std::function<double()> wallSeconds);

    /// The potential method the plots use for params and bodyCount (see the design note).
    static PotentialMethod methodFor(const SimParams& params, std::size_t bodyCount, bool onCuda);

    /// Empties the history and, when sampling is on, records the first sample (the baseline) of the current state.
    void restart(Simulation& simulation, bool onCuda);
    /// After a running frame: measures a sample when one is due (see the design note), without recording it; reads
    /// the simulation and changes nothing here, so the window's step worker may call it while the main thread reads
    /// the history. Hand the result to record().
    std::optional<DiagnosticsMeasurement> measureIfDue(Simulation& simulation, bool onCuda) const;
    /// Appends a measurement to the history and paces the next one after it.
    void record(const DiagnosticsMeasurement& measurement);
    /// Records a sample now, however long it takes.
    void sampleNow(Simulation& simulation, bool onCuda) { record(measure(simulation, onCuda)); }

    const DiagnosticsHistory& history() const { return m_history; }
    const PlotSampling& sampling() const { return m_sampling; }
    void setEnabled(bool enabled) { m_sampling.enabled = enabled; }

private:
    bool due(const Simulation& simulation) const;
    DiagnosticsMeasurement measure(Simulation& simulation, bool onCuda) const;

    PlotSampling m_sampling;
    std::function<double()> m_wallSeconds;
    DiagnosticsHistory m_history;
    std::optional<double> m_lastSampledAt; ///< wall-clock seconds of the newest sample
    std::optional<std::uint64_t> m_lastSampledStep;
    std::optional<double> m_lastCost; ///< seconds the newest sample took
};

} // namespace gravlab
