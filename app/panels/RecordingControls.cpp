// ImGui widgets of the window's recording.
#include "RecordingControls.hpp"

#include <cstdio>
#include <imgui.h>

namespace gravlab {
namespace {

const ImVec4 kRecordingRed(0.95f, 0.2f, 0.2f, 1.0f);
const ImVec4 kErrorText(1.0f, 0.45f, 0.4f, 1.0f);

} // namespace

bool drawRecordingControls(const RecordingView& view) {
    const bool pressed = ImGui::Button(view.recording ? "Stop recording (M)" : "Record movie (M)");
    if (view.recording) {
        ImGui::SameLine();
        ImGui::TextColored(kRecordingRed, "recording: %zu frames", view.frameCount);
    }
    if (!view.lastOutcome.empty()) {
        if (view.lastOutcomeIsError)
            ImGui::PushStyleColor(ImGuiCol_Text, kErrorText);
        else
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        ImGui::TextWrapped("%.*s", static_cast<int>(view.lastOutcome.size()), view.lastOutcome.data());
        ImGui::PopStyleColor();
    }
    return pressed;
}

void drawRecordingIndicator(const RecordingView& view) {
    if (!view.recording)
        return;
    char label[48];
    std::snprintf(label, sizeof(label), "REC  %zu", view.frameCount);
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const ImVec2 textSize = ImGui::CalcTextSize(label);
    const float radius = 0.5f * textSize.y;
    const ImVec2 dotCentre(display.x - textSize.x - 3.0f * radius - 12.0f, 12.0f + radius);
    ImDrawList* drawList = ImGui::GetForegroundDrawList();
    drawList->AddCircleFilled(dotCentre, radius, ImGui::GetColorU32(kRecordingRed));
    drawList->AddText(ImVec2(dotCentre.x + 2.0f * radius, 12.0f), ImGui::GetColorU32(kRecordingRed), label);
}

} // namespace gravlab
