// The top-of-window error banner.
#include "ErrorBanner.hpp"

#include <algorithm>
#include <imgui.h>

namespace gravlab {

bool ErrorBanner::shows(const std::string& message) const {
    return !message.empty() && std::find(m_dismissed.begin(), m_dismissed.end(), message) == m_dismissed.end();
}

void ErrorBanner::draw(const std::vector<std::string>& messages) {
    std::erase_if(m_dismissed, [&](const std::string& dismissed) {
        return std::find(messages.begin(), messages.end(), dismissed) == messages.end();
    });
    std::vector<const std::string*> shown;
    for (const std::string& message : messages)
        if (shows(message))
            shown.push_back(&message);
    if (shown.empty())
        return;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, 0.0f), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(display.x * 0.8f, display.y * 0.5f));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.45f, 0.05f, 0.05f, 0.95f));
    ImGui::Begin("##errors", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
    ImGui::PushTextWrapPos(display.x * 0.75f);
    for (const std::string* message : shown) {
        ImGui::PushID(message);
        if (ImGui::SmallButton("dismiss"))
            dismiss(*message);
        ImGui::PopID();
        ImGui::SameLine();
        ImGui::TextUnformatted(message->c_str());
    }
    ImGui::PopTextWrapPos();
    ImGui::End();
    ImGui::PopStyleColor();
}

} // namespace gravlab
