// ImGui widgets of the window panel.
#include "WindowPanel.hpp"
#include "panels/PanelLayout.hpp"

#include "../WindowLayout.hpp"

#include <imgui.h>

namespace gravlab {

WindowPanelRequests drawWindowPanel(const WindowPanelView& view) {
    WindowPanelRequests requests;
    placePanelOnFirstUse(PanelSlot::Window);
    ImGui::Begin("Window", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    requests.screenshot = ImGui::Button("screenshot (P)");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Writes the window with its panels as a PNG into %s", view.screenshotFolder.string().c_str());
    if (!view.screenshotMessage.empty()) {
        ImGui::SameLine();
        if (view.screenshotFailed)
            ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s", view.screenshotMessage.c_str());
        else
            ImGui::TextUnformatted(view.screenshotMessage.c_str());
    }
    float scale = view.uiScale;
    // Applied on release: the panel would otherwise change size under the cursor while it drags.
    ImGui::SliderFloat("UI scale", &scale, kMinUiScale, kMaxUiScale, "%.2f", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemDeactivatedAfterEdit())
        requests.uiScale = scale;
    bool fullscreen = view.fullscreen;
    if (ImGui::Checkbox("fullscreen (F11)", &fullscreen))
        requests.fullscreen = fullscreen;
    ImGui::End();
    return requests;
}

} // namespace gravlab
