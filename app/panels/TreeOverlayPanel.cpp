// ImGui widgets of the octree panel.
#include "TreeOverlayPanel.hpp"
#include "panels/PanelLayout.hpp"

#include <algorithm>
#include <imgui.h>
#include <string>

namespace gravlab {

namespace {

/// Width at which the panel's notes wrap, in multiples of the font size: about the width of the sliders and labels.
constexpr float kTextWidthInFontSizes = 24.0f;

/// Min and max depth sliders that keep min <= max by moving the other end.
bool drawDepthRange(TreeDepthRange& depths) {
    bool changed = false;
    if (ImGui::SliderInt("min depth", &depths.min, 0, kMaxOverlayDepth, "%d", ImGuiSliderFlags_AlwaysClamp)) {
        depths.max = std::max(depths.max, depths.min);
        changed = true;
    }
    if (ImGui::SliderInt("max depth", &depths.max, 0, kMaxOverlayDepth, "%d", ImGuiSliderFlags_AlwaysClamp)) {
        depths.min = std::min(depths.min, depths.max);
        changed = true;
    }
    return changed;
}

void drawPick(const TreeOverlayPanelView& view, TreeOverlayPanelRequests& requests) {
    if (!view.picked) {
        ImGui::TextDisabled("Right click (or Ctrl+left click) a body to pick it.");
        return;
    }
    requests.clearPick = ImGui::SmallButton("clear pick");
    ImGui::SameLine();
    const std::array<float, 3>& p = view.picked->position;
    const BodyIdentity& who = view.picked->identity;
    ImGui::Text("picked body id %llu (%s) at (%.3f, %.3f, %.3f), step %llu", static_cast<unsigned long long>(who.id),
                componentName(who.component), p[0], p[1], p[2], static_cast<unsigned long long>(view.picked->step));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The pick follows its body by id (ORB may reorder the bodies): the path shown\n"
                          "leads to the leaf containing the body's position as of the step shown.");
}

void drawStatus(const TreeOverlayPanelView& view) {
    if (!view.settings.enabled)
        return;
    if (!view.solver.drawsTreeCells) {
        ImGui::Text("No cells: solver '%s' builds no octree. Choose solver '%s' in the Gravlab panel.",
                    std::string(view.solver.name).c_str(), std::string(treeDrawingSolver().name).c_str());
        return;
    }
    if (view.settings.onlyPickedPath && !view.picked) {
        ImGui::Text("No cells: pick a body to see the cells on its path.");
        return;
    }
    if (view.cellCount == 0)
        ImGui::Text("No cells at depths %d..%d: the tree has none there, or none is built yet (step once).",
                    view.settings.depths.min, view.settings.depths.max);
    else
        ImGui::Text("%zu cells drawn%s", view.cellCount, view.capped ? " (capped: narrow the depth range)" : "");
}

} // namespace

TreeOverlayPanelRequests drawTreeOverlayPanel(const TreeOverlayPanelView& view) {
    TreeOverlayPanelRequests requests;
    placePanelOnFirstUse(PanelSlot::Octree);
    // Sized to its contents; text wraps at a fixed width so that long notes grow the window down, not sideways.
    ImGui::Begin("Octree", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + kTextWidthInFontSizes * ImGui::GetFontSize());

    TreeOverlaySettings edited = view.settings;
    bool changed = false;
    changed |= ImGui::Checkbox("show octree cells", &edited.enabled);
    changed |= drawDepthRange(edited.depths);
    changed |= ImGui::Checkbox("only the path to the picked body", &edited.onlyPickedPath);
    changed |= ImGui::SliderFloat("opacity", &edited.opacity, float(kOverlayOpacityRange.min),
                                  float(kOverlayOpacityRange.max), "%.2f", ImGuiSliderFlags_AlwaysClamp);
    if (changed)
        requests.settings = edited;
    drawPick(view, requests);
    drawStatus(view);

    ImGui::PopTextWrapPos();
    ImGui::End();
    return requests;
}

} // namespace gravlab
