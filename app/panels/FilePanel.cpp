// The file panel's widgets (see FilePanel.hpp).
#include "FilePanel.hpp"
#include "panels/PanelLayout.hpp"

#include <imgui.h>

namespace gravlab {

FilePanelRequests FilePanel::draw(const FilePanelView& view) {
    FilePanelRequests requests;
    placePanelOnFirstUse(PanelSlot::Files);
    ImGui::Begin("Files: load and save bodies", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::SetNextItemWidth(24.0f * ImGui::GetFontSize());
    ImGui::InputText("path", m_path.data(), m_path.size());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A snapshot: tipsy (big- or little-endian), GADGET-4/SWIFT/AREPO HDF5 or CSV "
                          "(x,y,z,vx,vy,vz,m[,id]).\nLoading reads the format from the file's bytes.");
    const std::string path(m_path.data());
    if (ImGui::Button("Load") && !path.empty())
        requests.load = path;
    ImGui::SameLine();
    if (ImGui::Button("Save") && !path.empty()) {
        requests.save = path;
        if (m_saveFormat > 0)
            requests.saveFormat = EnumNames<SnapshotFormat>::entries[std::size_t(m_saveFormat - 1)].value;
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(140);
    const auto& formats = EnumNames<SnapshotFormat>::entries;
    const std::string current = m_saveFormat == 0 ? "by extension" : std::string(formats[m_saveFormat - 1].name);
    if (ImGui::BeginCombo("save as", current.c_str())) {
        if (ImGui::Selectable("by extension", m_saveFormat == 0))
            m_saveFormat = 0;
        for (std::size_t i = 0; i < formats.size(); ++i)
            if (ImGui::Selectable(std::string(formats[i].name).c_str(), m_saveFormat == int(i) + 1))
                m_saveFormat = int(i) + 1;
        ImGui::EndCombo();
    }
    if (!view.loadedFile.empty())
        ImGui::TextWrapped("initial conditions: %.*s (Reset returns to them)", int(view.loadedFile.size()),
                           view.loadedFile.data());
    if (!view.message.empty()) {
        if (view.messageIsError)
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
        ImGui::TextWrapped("%.*s", int(view.message.size()), view.message.data());
        if (view.messageIsError)
            ImGui::PopStyleColor();
    }
    ImGui::End();
    return requests;
}

} // namespace gravlab
