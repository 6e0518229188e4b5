// ImDrawList drawing of the colour legend (ColorBar.hpp).
#include "ColorBar.hpp"

#include <gravlab/sim/Bodies.hpp>

#include <cstdio>
#include <imgui.h>

namespace gravlab {
namespace {

/// Rectangles the gradient is drawn with: finer than the eye can tell apart at the bar's width.
constexpr int kGradientSteps = 64;
/// The bar's size, in multiples of the font size.
constexpr float kBarWidthInFontSizes = 18.0f;
constexpr float kBarHeightInFontSizes = 1.0f;

ImU32 colorOf(BodyPalette palette, float t) {
    const glm::vec3 c = paletteColor(palette, t);
    return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f));
}

/// The gradient from low to high, with a tick mark and label at each tick.
void drawScalarBar(const ColorScale& scale, BodyPalette palette) {
    ImGui::Text("%s%s%s (%s)", scale.quantity.c_str(), scale.unit.empty() ? "" : " in ", scale.unit.c_str(),
                scale.logarithmic ? "log" : "linear");
    const float fontSize = ImGui::GetFontSize();
    const ImVec2 corner = ImGui::GetCursorScreenPos();
    const float width = kBarWidthInFontSizes * fontSize;
    const float height = kBarHeightInFontSizes * fontSize;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (int step = 0; step < kGradientSteps; ++step) {
        const float x0 = corner.x + width * float(step) / kGradientSteps;
        const float x1 = corner.x + width * float(step + 1) / kGradientSteps;
        draw->AddRectFilled(ImVec2(x0, corner.y), ImVec2(x1, corner.y + height),
                            colorOf(palette, (float(step) + 0.5f) / kGradientSteps));
    }
    const ImU32 tickColor = ImGui::GetColorU32(ImGuiCol_Text);
    const float labelY = corner.y + height + 0.2f * fontSize;
    for (const ColorTick& tick : colorScaleTicks(scale)) {
        const float x = corner.x + width * tick.position;
        draw->AddLine(ImVec2(x, corner.y + 0.6f * height), ImVec2(x, corner.y + height + 0.15f * fontSize), tickColor);
        char label[32];
        std::snprintf(label, sizeof(label), "%.3g", tick.value);
        const float labelWidth = ImGui::CalcTextSize(label).x;
        const float labelX = std::min(std::max(x - 0.5f * labelWidth, corner.x - 0.5f * fontSize),
                                      corner.x + width + 0.5f * fontSize - labelWidth);
        draw->AddText(ImVec2(labelX, labelY), tickColor, label);
    }
    ImGui::Dummy(ImVec2(width, height + 1.4f * fontSize));
}

/// A swatch in the component colour of each component, with its name.
void drawComponentLegend(BodyPalette palette) {
    const float side = ImGui::GetFontSize();
    for (std::uint8_t component = 0; component < kComponentCount; ++component) {
        const ImVec2 corner = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(corner, ImVec2(corner.x + side, corner.y + side),
                                                  colorOf(palette, componentColorKey(component)));
        ImGui::Dummy(ImVec2(side, side));
        ImGui::SameLine();
        ImGui::TextUnformatted(componentName(component));
        if (component % 3 != 2 && component + 1 < kComponentCount)
            ImGui::SameLine();
    }
    ImGui::TextDisabled("(scenarios may colour their own parts, e.g. the two galaxies of a collision)");
}

} // namespace

void drawColorLegend(const ColorLegendView& view) {
    switch (view.scale.legend) {
    case ColorLegend::Scalar:
        drawScalarBar(view.scale, view.palette);
        break;
    case ColorLegend::Domains:
        ImGui::TextUnformatted("each ORB domain in its own hue; neighbours clearly differ");
        break;
    case ColorLegend::Components:
        drawComponentLegend(view.palette);
        break;
    }
    if (!view.scale.note.empty())
        ImGui::TextDisabled("%s", view.scale.note.c_str());
}

} // namespace gravlab
