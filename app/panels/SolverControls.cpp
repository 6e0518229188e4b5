// ImGui widgets of the solver section.
#include "SolverControls.hpp"

#include <array>
#include <imgui.h>
#include <string>

namespace gravlab {

namespace {

struct SolverEntry {
    SolverKind kind;
    const char* description;
};
constexpr std::array kSolverEntries{
    SolverEntry{SolverKind::Direct, "all pairs, O(N^2): exact up to float rounding"},
    SolverEntry{SolverKind::DirectSymmetric, "all pairs, each pair evaluated once for both bodies (CUDA only)"},
    SolverEntry{SolverKind::Tree, "Barnes-Hut octree, O(N log N): cells smaller than theta x distance act as one"}};

bool drawSolverCombo(SimParams& edited, bool onCudaBackend) {
    bool changed = false;
    if (!ImGui::BeginCombo("solver", std::string(toString(edited.solver)).c_str()))
        return false;
    for (const SolverEntry& entry : kSolverEntries) {
        const bool unavailable = entry.kind == SolverKind::DirectSymmetric && !onCudaBackend;
        ImGui::BeginDisabled(unavailable);
        if (ImGui::Selectable(std::string(toString(entry.kind)).c_str(), entry.kind == edited.solver) &&
            entry.kind != edited.solver) {
            edited.solver = entry.kind;
            changed = true;
        }
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s%s", entry.description,
                              unavailable ? "\nThis simulation runs on the CPU: choose backend 'cuda' first." : "");
    }
    ImGui::EndCombo();
    return changed;
}

} // namespace

bool drawSolverControls(SimParams& edited, bool onCudaBackend) {
    bool changed = false;
    changed |= drawSolverCombo(edited, onCudaBackend);
    const bool treeSolver = edited.solver == SolverKind::Tree;
    ImGui::BeginDisabled(!treeSolver);
    changed |= ImGui::SliderScalar("theta", ImGuiDataType_Double, &edited.openingAngle, &kOpeningAngleRange.min,
                                   &kOpeningAngleRange.max, "%.2f", ImGuiSliderFlags_AlwaysClamp);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Barnes-Hut opening angle: a cell acts as one body when its size / distance < theta.\n"
                          "Smaller is more accurate and slower.%s",
                          treeSolver ? "" : "\nUsed by the tree solver only.");
    return changed;
}

void drawPhaseTimings(std::span<const PhaseTiming> timings) {
    if (timings.empty()) {
        ImGui::TextDisabled("last step: no step yet");
        return;
    }
    double total = 0;
    for (const PhaseTiming& phase : timings)
        total += phase.milliseconds;
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
