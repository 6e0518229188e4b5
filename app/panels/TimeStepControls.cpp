// ImGui widgets of the time-step section (see TimeStepControls.hpp).
#include "TimeStepControls.hpp"

#include "panels/EnumCombo.hpp"

#include <algorithm>
#include <cstdio>
#include <imgui.h>
#include <string>

namespace gravlab {

bool drawTimeStepControls(SimParams& edited) {
    TimeStepParams& timeSteps = edited.timeSteps;
    bool changed = enumCombo("time steps", timeSteps.mode);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Hierarchical: each body steps dt / 2^level, the level from its acceleration.\n"
                          "Use it when a few bodies need far shorter steps than the rest: eccentric binaries,\n"
                          "close passages, the bounce of a cold collapse. dt is then the longest step.\n"
                          "In a smooth system of many bodies fixed steps of equal cost do as well.");
    ImGui::BeginDisabled(timeSteps.mode != TimeStepMode::Hierarchical);
    const double etaLow = 1e-3;
    changed |=
        ImGui::SliderScalar("eta", ImGuiDataType_Double, &timeSteps.accuracy, &etaLow, &kTimeStepAccuracyRange.max,
                            "%.3g", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("A body's step is at most eta sqrt(softening / |a|), or under the tidal choice eta times\n"
                          "its dynamical time (try 0.02 to 0.05 there); smaller is more accurate.");
    const auto levelLow = std::uint32_t(kMaxTimeStepLevelRange.min);
    const auto levelHigh = std::uint32_t(kMaxTimeStepLevelRange.max);
    changed |= ImGui::SliderScalar("max level", ImGuiDataType_U32, &timeSteps.maxLevel, &levelLow, &levelHigh, "%u",
                                   ImGuiSliderFlags_AlwaysClamp);
    changed |= enumCombo("level choice", timeSteps.levelChoice);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("start: the level from the acceleration at each step's start.\n"
                          "symmetric: from the criterion averaged over the step's two ends (the end's\n"
                          "acceleration extrapolated), so level changes do not pile up into an energy drift.\n"
                          "tidal: a fraction eta of each body's dynamical time, from how its acceleration\n"
                          "changed over its last step: short steps in dense cores, long ones in smooth fields.");
    ImGui::EndDisabled();
    return changed;
}

void drawTimeStepLevels(const TimeStepStatistics& statistics, std::size_t bodyCount) {
    if (statistics.bodiesPerLevel.empty()) {
        ImGui::TextDisabled("time-step levels: after the next step");
        return;
    }
    std::vector<float> counts(statistics.bodiesPerLevel.begin(), statistics.bodiesPerLevel.end());
    const float largest = *std::max_element(counts.begin(), counts.end());
    char overlay[64];
    std::snprintf(overlay, sizeof(overlay), "levels 0..%zu", counts.size() - 1);
    ImGui::PlotHistogram("bodies per level", counts.data(), int(counts.size()), 0, overlay, 0.0f, largest,
                         ImVec2(0, 60));
    if (ImGui::IsItemHovered()) {
        std::string tip = "level: bodies (step dt / 2^level)";
        for (std::size_t level = 0; level < statistics.bodiesPerLevel.size(); ++level)
            tip.append("\n")
                .append(std::to_string(level))
                .append(": ")
                .append(std::to_string(
                    statistics.bodiesPerLevel[level])); // appends: GCC 12's -Wrestrict misreads operator+
        ImGui::SetTooltip("%s", tip.c_str());
    }
    const double share = bodyCount > 0 ? statistics.forceEvaluationsPerStep / double(bodyCount) : 0.0;
    ImGui::Text("per dt: %.0f force evaluations (%.2f x N), %.0f sub-steps", statistics.forceEvaluationsPerStep, share,
                statistics.subStepsPerStep);
    if (statistics.wastedForceEvaluationsPerStep > 0)
        ImGui::TextDisabled("  + %.0f evaluations of inactive bodies in walked groups",
                            statistics.wastedForceEvaluationsPerStep);
}

} // namespace gravlab
