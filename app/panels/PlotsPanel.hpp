#pragma once
// The plots panel: the diagnostics time series of the session (energy error, momentum drifts, virial ratio, Lagrangian
// radii, step time), each with its current value and axis range, how the potential was measured, a direct fp64
// measurement on request, reset, and the CSV export.
//
// Design note: an ImGui window of its own, display only, like the other panels: it reads a DiagnosticsHistory (GL-free,
// kept by the session) and returns what the user asked for as requests, which the viewer hands to the session. Debian's
// ImGui 1.86 has no implot, so each series is an ImGui::PlotLines over the samples in order (one point per sample,
// samples taken at a steady cadence, so the horizontal axis is the sample index; the simulation-time range is printed
// above the plots). The energy error spans decades, so it is plotted as log10; the axis range printed with each plot
// is in the plotted quantity's own units.
#include "session/DiagnosticsHistory.hpp"

#include <array>
#include <optional>
#include <string>

namespace gravlab {

/// The newest fp64 direct-sum energy measurement (SessionController's energy history), for the "direct now" line.
struct DirectEnergyReading {
    double relativeDrift = 0;  ///< |E - E0| / |E0| against Simulation's direct-sum E0
    double simulationTime = 0; ///< of the state measured
    double computeSeconds = 0; ///< what the O(N^2) sum took
};

struct PlotsPanelView {
    const DiagnosticsHistory& history;
    bool samplingEnabled = true;
    std::optional<DirectEnergyReading> direct;
    std::string exportMessage; ///< outcome of the last export
    bool exportMessageIsError = false;
};

struct PlotsPanelRequests {
    bool measureDirectNow = false; ///< take an fp64 direct-sum measurement now (O(N^2))
    bool reset = false;            ///< empty the series and start again from the current state
    bool sampleNow = false;        ///< add a sample of the current state
    std::optional<bool> samplingEnabled;
    std::optional<std::string> exportCsv; ///< write the series to this file
};

class PlotsPanel {
public:
    /// exportPath: the CSV path the field starts with (--plots-csv), empty for the default.
    explicit PlotsPanel(const std::string& exportPath);
    PlotsPanelRequests draw(const PlotsPanelView& view);

private:
    void drawSeries(const DiagnosticsHistory& history);
    void drawControls(const PlotsPanelView& view, PlotsPanelRequests& requests);

    std::array<char, 512> m_path{};
};

} // namespace gravlab
