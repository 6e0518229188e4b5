// ImGui widgets of the colours panel (ColorPanel.hpp).
#include "ColorPanel.hpp"
#include "panels/PanelLayout.hpp"

#include "ColorBar.hpp"

#include <imgui.h>
#include <string>

namespace gravlab {
namespace {

/// Width at which the panel's notes wrap, in multiples of the font size.
constexpr float kTextWidthInFontSizes = 24.0f;

std::optional<ColorMode> drawModeCombo(ColorMode current) {
    std::optional<ColorMode> chosen;
    if (ImGui::BeginCombo("colour", std::string(enumName(current)).c_str())) {
        for (const EnumName<ColorMode>& mode : EnumNames<ColorMode>::entries) {
            if (ImGui::Selectable(std::string(mode.name).c_str(), mode.value == current) && mode.value != current)
                chosen = mode.value;
            ImGui::SameLine();
            ImGui::TextDisabled("%s", std::string(mode.description).c_str());
        }
        ImGui::EndCombo();
    }
    for (const EnumName<ColorMode>& mode : EnumNames<ColorMode>::entries)
        if (mode.value == current)
            ImGui::TextDisabled("%s", std::string(mode.description).c_str());
    return chosen;
}

std::optional<ColorScaleChoice> drawScaleChoice(const ColorPanelView& view) {
    std::optional<ColorScaleChoice> chosen;
    if (!isScalarColorMode(view.mode))
        return chosen;
    for (const EnumName<ColorScaleChoice>& scale : EnumNames<ColorScaleChoice>::entries) {
        if (ImGui::RadioButton(std::string(scale.name).c_str(), scale.value == view.scale) && scale.value != view.scale)
            chosen = scale.value;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", std::string(scale.description).c_str());
        ImGui::SameLine();
    }
    ImGui::TextUnformatted("scale");
    return chosen;
}

} // namespace

ColorPanelRequests drawColorPanel(const ColorPanelView& view) {
    ColorPanelRequests requests;
    placePanelOnFirstUse(PanelSlot::Colours);
    ImGui::Begin("Colours", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + kTextWidthInFontSizes * ImGui::GetFontSize());
    requests.mode = drawModeCombo(view.mode);
    requests.scale = drawScaleChoice(view);
    ImGui::Separator();
    drawColorLegend({view.legend, view.palette});
    ImGui::PopTextWrapPos();
    ImGui::End();
    return requests;
}

} // namespace gravlab
