// ImGui widgets of the solver section.
#include "SolverControls.hpp"

#include "panels/EnumCombo.hpp"

#include <imgui.h>
#include <string>

namespace gravlab {

namespace {

bool drawSolverCombo(SimParams& edited, Device device) {
    bool changed = false;
    if (!ImGui::BeginCombo("solver", edited.solver.c_str()))
        return false;
    for (const SolverInfo& solver : solverInfos()) {
        const bool unavailable = !solver.runsOn(device);
        const std::string name(solver.name);
        ImGui::BeginDisabled(unavailable);
        if (ImGui::Selectable(name.c_str(), name == edited.solver) && name != edited.solver) {
            edited.solver = name;
            changed = true;
        }
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s (runs on %s)%s", std::string(solver.description).c_str(),
                              solver.devicesText().c_str(),
                              unavailable ? "\nThis simulation does not run there: choose another backend first." : "");
    }
    ImGui::EndCombo();
    return changed;
}

bool drawOpeningCriterionControls(SimParams& edited) {
    bool relative = edited.openingCriterion == OpeningCriterion::Relative;
    bool changed = ImGui::Checkbox("relative opening", &relative);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Open a cell when its estimated force error exceeds the force accuracy times the body's "
                          "last acceleration,\ninstead of by theta: the same accuracy for less work (theta still "
                          "serves the first step).");
    edited.openingCriterion = relative ? OpeningCriterion::Relative : OpeningCriterion::Geometric;
    ImGui::BeginDisabled(!relative);
    changed |= ImGui::SliderScalar("force accuracy", ImGuiDataType_Double, &edited.forceAccuracy,
                                   &kForceAccuracyRange.min, &kForceAccuracyRange.max, "%.4f",
                                   ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
    ImGui::EndDisabled();
    return changed;
}

bool drawPrecisionCombo(SimParams& edited) {
    const bool changed = enumCombo("precision", edited.precision);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("double: fp64 positions, velocities and kicks (fp64 forces with direct-fp64), for long\n"
                          "accurate runs of few bodies such as an eccentric binary; single is faster and lighter.\n"
                          "Switching converts the current state in place.");
    return changed;
}

} // namespace

bool drawSolverControls(SimParams& edited, Device device) {
    bool changed = false;
    changed |= drawSolverCombo(edited, device);
    changed |= drawPrecisionCombo(edited);
    const bool usesTheta = findSolver(edited.solver).usesOpeningAngle;
    ImGui::BeginDisabled(!usesTheta);
    changed |= ImGui::SliderScalar("theta", ImGuiDataType_Double, &edited.openingAngle, &kOpeningAngleRange.min,
                                   &kOpeningAngleRange.max, "%.2f", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Barnes-Hut opening angle: a cell acts as one body when its size / distance < theta.\n"
                          "Smaller is more accurate and slower.%s",
                          usesTheta ? "" : "\nThe current solver does not use it.");
    changed |= drawOpeningCriterionControls(edited);
    ImGui::EndDisabled();
    return changed;
}

void drawPhaseTimings(std::span<const PhaseTiming> timings) {
    if (timings.empty()) {
        ImGui::TextDisabled("last step: no step yet");
        return;
    }
    const double total = totalMilliseconds(timings);
    const ImGuiTableFlags flags =
        ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV;
    if (!ImGui::BeginTable("phase timings", 3, flags))
        return;
    ImGui::TableSetupColumn("last step");
    ImGui::TableSetupColumn("ms");
    ImGui::TableSetupColumn("share");
    ImGui::TableHeadersRow();
    for (const PhaseTiming& phase : timings) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(phase.phase.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%8.3f", phase.milliseconds);
        ImGui::TableNextColumn();
        ImGui::Text("%5.1f %%", total > 0 ? 100.0 * phase.milliseconds / total : 0.0);
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("total");
    ImGui::TableNextColumn();
    ImGui::Text("%8.3f", total);
    ImGui::EndTable();
}

} // namespace gravlab
