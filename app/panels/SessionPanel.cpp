// ImGui widgets of the session panel.
#include "SessionPanel.hpp"
#include "panels/PanelLayout.hpp"

#include <algorithm>
#include <imgui.h>

namespace gravlab {

SessionPanel::SessionPanel(const std::filesystem::path& initialPath) {
    const std::string text = initialPath.string();
    std::copy_n(text.begin(), std::min(text.size(), m_path.size() - 1), m_path.begin());
}

SessionPanelRequests SessionPanel::draw(const SessionPanelView& view) {
    SessionPanelRequests requests;
    placePanelOnFirstUse(PanelSlot::Session);
    ImGui::Begin("Session", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::SetNextItemWidth(300);
    ImGui::InputText("file", m_path.data(), m_path.size());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A JSON file: parameters, camera, colours, overlays and run settings. Relative paths start "
                          "in the folder gravlab was started from.");
    const std::filesystem::path path(m_path.data());
    const bool named = !path.empty();
    ImGui::BeginDisabled(!named);
    if (ImGui::Button("Save"))
        requests.save = path;
    ImGui::SameLine();
    if (ImGui::Button("Load"))
        requests.load = path;
    ImGui::EndDisabled();
    if (!view.outcome.empty()) {
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 360);
        if (view.outcomeIsError)
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
        ImGui::TextWrapped("%.*s", static_cast<int>(view.outcome.size()), view.outcome.data());
        if (view.outcomeIsError)
            ImGui::PopStyleColor();
        ImGui::PopTextWrapPos();
    }
    ImGui::End();
    return requests;
}

} // namespace gravlab
