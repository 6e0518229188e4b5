// The plots panel's widgets (see PlotsPanel.hpp).
#include "PlotsPanel.hpp"

#include "panels/PanelLayout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <imgui.h>
#include <limits>
#include <vector>

namespace gravlab {
namespace {

constexpr float kPlotHeight = 60.0f;

/// One series of the history as floats for ImGui::PlotLines; NaN samples are left out.
std::vector<float> seriesOf(const DiagnosticsHistory& history,
                            const std::function<double(const DiagnosticsSample&)>& value) {
    std::vector<float> points;
    points.reserve(history.size());
    for (std::size_t i = 0; i < history.size(); ++i)
        if (const double v = value(history[i]); std::isfinite(v))
            points.push_back(float(v));
    return points;
}

/// A plot with its label, current value and axis range; format renders values in the plotted units.
void plot(const char* label, const std::vector<float>& points, const char* format) {
    if (points.empty()) {
        ImGui::Text("%s: no finite values yet", label);
        return;
    }
    const auto [low, high] = std::minmax_element(points.begin(), points.end());
    char line[200], range[64], current[32];
    std::snprintf(current, sizeof current, format, double(points.back()));
    std::snprintf(range, sizeof range, format, double(*low));
    std::string axis = std::string("axis ") + range + " .. ";
    std::snprintf(range, sizeof range, format, double(*high));
    axis += range;
    std::snprintf(line, sizeof line, "%s: %s   (%s)", label, current, axis.c_str());
    ImGui::TextUnformatted(line);
    const float span = *high - *low;
    const float pad = span > 0 ? 0.05f * span : std::max(std::abs(*high) * 0.05f, 1e-6f);
    ImGui::PushID(label);
    ImGui::PlotLines("##series", points.data(), int(points.size()), 0, nullptr, *low - pad, *high + pad,
                     ImVec2(360.0f, kPlotHeight));
    ImGui::PopID();
}

double stepMilliseconds(const DiagnosticsSample& sample) {
    return totalMilliseconds(sample.stepTimings);
}

} // namespace

PlotsPanel::PlotsPanel(const std::string& exportPath) {
    const std::string path = exportPath.empty() ? "gravlab_plots.csv" : exportPath;
    std::snprintf(m_path.data(), m_path.size(), "%s", path.c_str());
}

PlotsPanelRequests PlotsPanel::draw(const PlotsPanelView& view) {
    PlotsPanelRequests requests;
    placePanelOnFirstUse(PanelSlot::Plots);
    ImGui::Begin("Plots"); // a fixed size that scrolls: the series are taller than a small window
    const DiagnosticsHistory& history = view.history;
    if (history.empty()) {
        ImGui::TextWrapped("No samples yet: they are taken while the simulation runs (not while paused).");
    } else {
        ImGui::Text("potential: %s", describePotentialMethod(history.latest().diagnostics).c_str());
        ImGui::Text("%zu samples, t = %.4g .. %.4g (N-body time), one point per sample", history.size(),
                    history[0].simulationTime, history.latest().simulationTime);
        drawSeries(history);
    }
    drawControls(view, requests);
    ImGui::End();
    return requests;
}

void PlotsPanel::drawSeries(const DiagnosticsHistory& history) {
    // The baseline's error is exactly 0 (no logarithm): it is left out, as is any other exact 0.
    plot("log10 energy error |E-E0|/|E0|",
         seriesOf(history,
                  [](const DiagnosticsSample& s) {
                      return s.relativeEnergyError > 0 ? std::log10(s.relativeEnergyError)
                                                       : std::numeric_limits<double>::quiet_NaN();
                  }),
         "%.2f");
    plot("momentum drift |P-P0|/sqrt(M(2K0+|W0|))",
         seriesOf(history, [](const DiagnosticsSample& s) { return s.momentumDrift; }), "%.2e");
    plot("angular momentum drift |L-L0|/|L0|",
         seriesOf(history, [](const DiagnosticsSample& s) { return s.angularMomentumDrift; }), "%.2e");
    plot("virial ratio 2K/|W| (1: equilibrium)",
         seriesOf(history, [](const DiagnosticsSample& s) { return s.virialRatio; }), "%.3f");
    static constexpr const char* kRadiusLabels[] = {"Lagrangian radius 10% (length)", "Lagrangian radius 50% (length)",
                                                    "Lagrangian radius 90% (length)"};
    for (std::size_t f = 0; f < kPlotMassFractions.size(); ++f)
        plot(kRadiusLabels[f], seriesOf(history, [f](const DiagnosticsSample& s) { return s.lagrangianRadii[f]; }),
             "%.3f");
    plot("step time (ms, all phases)", seriesOf(history, stepMilliseconds), "%.2f");
    std::string phases = "last step:";
    char part[64];
    for (const PhaseTiming& timing : history.latest().stepTimings) {
        std::snprintf(part, sizeof part, " %s %.2f ms", timing.phase.c_str(), timing.milliseconds);
        phases += part;
    }
    ImGui::TextWrapped("%s", phases.c_str());
}

void PlotsPanel::drawControls(const PlotsPanelView& view, PlotsPanelRequests& requests) {
    bool sampling = view.samplingEnabled;
    if (ImGui::Checkbox("sample while running", &sampling))
        requests.samplingEnabled = sampling;
    ImGui::SameLine();
    requests.sampleNow = ImGui::Button("Sample now");
    ImGui::SameLine();
    requests.reset = ImGui::Button("Reset plots");
    requests.measureDirectNow = ImGui::Button("Direct fp64 energy now");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The exact O(N^2) pair sum in fp64: seconds on the CPU for 1e5 bodies.");
    if (view.direct)
        ImGui::Text("fp64 direct sum: |E-E0|/|E0| = %.3e at t = %.4g (took %.3f s)", view.direct->relativeDrift,
                    view.direct->simulationTime, view.direct->computeSeconds);
    ImGui::InputText("CSV", m_path.data(), m_path.size());
    ImGui::SameLine();
    if (ImGui::Button("Export") && m_path[0] != '\0')
        requests.exportCsv = std::string(m_path.data());
    if (!view.exportMessage.empty()) {
        if (view.exportMessageIsError)
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
        ImGui::TextWrapped("%s", view.exportMessage.c_str());
        if (view.exportMessageIsError)
            ImGui::PopStyleColor();
    }
}

} // namespace gravlab
