// The panels' first places (PanelLayout.hpp).
#include "panels/PanelLayout.hpp"

#include <algorithm>
#include <imgui.h>

namespace gravlab {
namespace {

/// Room left below the plots for the colour panel and its legend, in font heights.
constexpr float kColoursHeightInFonts = 17.0f;

/// The column of collapsed title bars beside the simulation panel: their order from the top.
int collapsedRow(PanelSlot slot) {
    switch (slot) {
    case PanelSlot::Files:
        return 0;
    case PanelSlot::Octree:
        return 1;
    case PanelSlot::Orb:
        return 2;
    case PanelSlot::Compare:
        return 3;
    default:
        return 4; // Session
    }
}

} // namespace

void placePanelOnFirstUse(PanelSlot slot) {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float font = ImGui::GetFontSize();
    const float margin = 0.6f * font;
    const float leftWidth = 28.0f * font;  // the simulation panel
    const float rightWidth = 36.0f * font; // colours and plots
    const float rightX = display.x - margin;
    switch (slot) {
    case PanelSlot::Simulation:
        ImGui::SetNextWindowPos(ImVec2(margin, margin), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(leftWidth, 0), ImGuiCond_FirstUseEver);
        return;
    case PanelSlot::Colours: // below the plots; its height follows the legend, about 11 lines
        ImGui::SetNextWindowPos(ImVec2(rightX, display.y - margin), ImGuiCond_FirstUseEver, ImVec2(1, 1));
        return;
    case PanelSlot::Plots:
        ImGui::SetNextWindowPos(ImVec2(rightX, margin), ImGuiCond_FirstUseEver, ImVec2(1, 0));
        ImGui::SetNextWindowSize(ImVec2(rightWidth, std::max(display.y - kColoursHeightInFonts * font, 10.0f * font)),
                                 ImGuiCond_FirstUseEver);
        return;
    case PanelSlot::Files:
    case PanelSlot::Octree:
    case PanelSlot::Orb:
    case PanelSlot::Compare:
    case PanelSlot::Session:
        ImGui::SetNextWindowPos(ImVec2(2.0f * margin + leftWidth, margin + float(collapsedRow(slot)) * 1.9f * font),
                                ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
        return;
    case PanelSlot::Inspector:
        ImGui::SetNextWindowPos(ImVec2(2.0f * margin + leftWidth, display.y - margin), ImGuiCond_FirstUseEver,
                                ImVec2(0, 1));
        return;
    case PanelSlot::Window:
        ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y - margin), ImGuiCond_FirstUseEver, ImVec2(0.5f, 1));
        ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
        return;
    }
}

} // namespace gravlab
