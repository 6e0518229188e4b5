// ImGui widgets of the Compare panel and the labels of the split view.
#include "ComparePanel.hpp"
#include "panels/PanelLayout.hpp"

#include "SolverControls.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <imgui.h>
#include <limits>
#include <vector>

namespace gravlab {

namespace {

constexpr float kPlotHeight = 70.0f;           ///< pixels per curve
constexpr float kPlotWidthInFontSizes = 26.0f; ///< wide enough for the overlay's label and value

float logOrFloor(double value) {
    return value > 0 ? std::max(float(std::log10(value)), kLogFloor) : kLogFloor;
}

/// log10 of one field over the history; a NaN (not measured) repeats the last measured value.
std::vector<float> logCurve(const DivergenceHistory& history, double DivergenceSample::*field) {
    std::vector<float> curve(history.size(), kLogFloor);
    float last = kLogFloor;
    for (std::size_t i = 0; i < history.size(); ++i) {
        const double value = history[i].*field;
        if (!std::isnan(value))
            last = logOrFloor(value);
        curve[i] = last;
    }
    return curve;
}

/// The curve on an axis spanning its values; zeros (at kLogFloor: the first sample, identical runs) do not stretch
/// the axis unless every value is one, and are drawn at its bottom.
void plotCurve(const char* label, const std::vector<float>& curve, const char* overlay) {
    float low = std::numeric_limits<float>::max(), high = kLogFloor;
    for (const float value : curve) {
        if (value > kLogFloor) {
            low = std::min(low, value);
            high = std::max(high, value);
        }
    }
    if (high == kLogFloor) // nothing but zeros
        low = kLogFloor;
    ImGui::PlotLines(label, curve.data(), int(curve.size()), 0, overlay, low - 0.5f, high + 0.5f,
                     ImVec2(kPlotWidthInFontSizes * ImGui::GetFontSize(), kPlotHeight));
}

void drawNumbers(const ComparePanelView& view) {
    const DivergenceSample& last = view.history->latest();
    ImGui::Text("t = %.5g, %zu samples", last.simulationTime, view.history->size());
    ImGui::Text("rms position difference %.4g (%.4g half-mass radii of %.4g)", last.rmsPositionDifference,
                last.rmsOverHalfMassRadius, view.halfMassRadius);
    ImGui::Text("largest position difference %.4g", last.maxPositionDifference);
    if (const DivergenceSample* measured = view.history->latestWithEnergies())
        ImGui::Text("energy error at t = %.5g: main %.3g, comparison %.3g", measured->simulationTime,
                    measured->energyErrorA, measured->energyErrorB);
    else
        ImGui::TextDisabled("energy errors: not measured (too slow at this N; use Measure energies now)");
    if (view.restarts > 0)
        ImGui::TextDisabled("restarted %d times: the main run was reset or its parameters changed", view.restarts);
    if (!view.failure.empty())
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", std::string(view.failure).c_str());
}

void drawPlots(const DivergenceHistory& history) {
    char overlay[64];
    const std::vector<float> rms = logCurve(history, &DivergenceSample::rmsPositionDifference);
    std::snprintf(overlay, sizeof(overlay), "log10 rms difference: %.2f", rms.back());
    plotCurve("##rms", rms, overlay);
    const std::vector<float> energyMain = logCurve(history, &DivergenceSample::energyErrorA);
    std::snprintf(overlay, sizeof(overlay), "log10 energy error, main: %.2f", energyMain.back());
    plotCurve("##energy main", energyMain, overlay);
    const std::vector<float> energyRun = logCurve(history, &DivergenceSample::energyErrorB);
    std::snprintf(overlay, sizeof(overlay), "log10 energy error, comparison: %.2f", energyRun.back());
    plotCurve("##energy comparison", energyRun, overlay);
}

} // namespace

ComparePanel::ComparePanel(std::filesystem::path csvFile) : m_csvFile(csvFile.string()) {}

void ComparePanel::drawChoice(const ComparePanelView& view, ComparePanelRequests& requests) {
    if (!m_choice) { // the running comparison's choice (from --compare), else the tree at the main run's theta
        m_choice.emplace();
        m_choice->solver = view.running ? view.running->solver : std::string(treeDrawingSolver().name);
        m_choice->openingAngle = view.running ? view.running->openingAngle : view.mainOpeningAngle;
        m_substeps = view.running ? view.running->substeps : 1;
    }
    // The comparison run is made by createBackend: CUDA or the CPU, never GL.
    drawSolverControls(*m_choice, view.onCudaBackend ? Device::Cuda : Device::Cpu);
    const int minSubsteps = int(kComparisonSubstepsRange.min), maxSubsteps = int(kComparisonSubstepsRange.max);
    ImGui::SliderInt("substeps", &m_substeps, minSubsteps, maxSubsteps, "%d", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The comparison takes K steps of dt / K per main step: 1 compares forces alone,\n"
                          "2 or more shows how much of the divergence the time step makes.");
    const ComparisonChoice choice{.solver = m_choice->solver,
                                  .openingAngle = m_choice->openingAngle,
                                  .orbDomainCount = std::nullopt,
                                  .substeps = m_substeps};
    if (ImGui::Button(view.runLabel ? "Compare with this instead" : "Start comparison"))
        requests.start = choice;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Starts a second run of the current state with this solver and theta, stepped in\n"
                          "lockstep with the main run (twice the memory and the time per frame).");
    if (!view.runLabel)
        return;
    ImGui::SameLine();
    requests.restart = ImGui::Button("Restart from now");
    ImGui::SameLine();
    requests.stop = ImGui::Button("Stop");
}

void ComparePanel::drawExport(ComparePanelRequests& requests) {
    char path[512];
    std::snprintf(path, sizeof(path), "%s", m_csvFile.c_str());
    if (ImGui::InputText("##csv", path, sizeof(path)))
        m_csvFile = path;
    ImGui::SameLine();
    if (ImGui::Button("Export CSV"))
        requests.exportCsv = std::filesystem::path(m_csvFile);
}

ComparePanelRequests ComparePanel::draw(const ComparePanelView& view) {
    ComparePanelRequests requests;
    placePanelOnFirstUse(PanelSlot::Compare);
    ImGui::Begin("Compare", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::Text("main (left): %s", view.mainLabel.c_str());
    if (view.runLabel)
        ImGui::Text("comparison (right): %s", view.runLabel->c_str());
    drawChoice(view, requests);
    if (view.history && !view.history->empty()) {
        ImGui::Separator();
        drawNumbers(view);
        drawPlots(*view.history);
        requests.measureEnergy = ImGui::Button("Measure energies now");
        drawExport(requests);
    }
    if (!view.message.empty())
        ImGui::TextColored(view.messageIsError ? ImVec4(1.0f, 0.45f, 0.35f, 1.0f) : ImVec4(0.6f, 0.9f, 0.6f, 1.0f),
                           "%s", std::string(view.message).c_str());
    ImGui::End();
    return requests;
}

void drawHalfLabels(const std::string& mainLabel, const std::string& runLabel) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const float margin = ImGui::GetFontSize() * 0.5f;
    const float half = viewport->Size.x * 0.5f;
    const ImU32 color = IM_COL32(235, 235, 235, 230);
    const std::string left = "main: " + mainLabel;
    const std::string right = "compare: " + runLabel;
    const float bottom = viewport->Pos.y + viewport->Size.y - ImGui::GetFontSize() - margin;
    draw->AddText(ImVec2(viewport->Pos.x + margin, bottom), color, left.c_str());
    draw->AddText(ImVec2(viewport->Pos.x + half + margin, bottom), color, right.c_str());
    draw->AddLine(ImVec2(viewport->Pos.x + half, viewport->Pos.y),
                  ImVec2(viewport->Pos.x + half, viewport->Pos.y + viewport->Size.y), IM_COL32(120, 120, 120, 200));
}

} // namespace gravlab
