// ImGui widgets of the ORB panel.
#include "OrbPanel.hpp"

#include "panels/EnumCombo.hpp"
#include "panels/PanelLayout.hpp"

#include <algorithm>
#include <cstdio>
#include <imgui.h>
#include <string>

namespace gravlab {

namespace {

/// Width at which the panel's notes wrap, in multiples of the font size (as in the octree panel).
constexpr float kTextWidthInFontSizes = 24.0f;

bool drawBalanceCombo(OrbBalance& balance) {
    const bool changed = enumCombo("balance", balance);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("count: equal numbers of bodies per domain (memory)\n"
                          "work: equal force interactions per domain, as the last force evaluation counted them");
    return changed;
}

void drawStatus(const OrbPanelView& view) {
    if (view.orb.domainCount == 0) {
        ImGui::TextDisabled("ORB is off.");
        return;
    }
    if (view.status.domainCount != view.orb.domainCount) {
        ImGui::TextDisabled("The backend has not applied these settings yet.");
        if (view.status.domainCount == 0)
            return;
    }
    ImGui::TextWrapped("%s", describeOrbStatus(view.status).c_str());
    if (view.overlay.showCells)
        ImGui::TextDisabled("%zu boxes drawn", view.boxCount);
}

} // namespace

std::string describeOrbStatus(const OrbStatus& status) {
    char text[256];
    std::snprintf(text, sizeof(text),
                  "%u domains, imbalance %.3f memory, %.3f work; %llu bodies migrated last step; %llu rebuilds, "
                  "last %.2f ms",
                  status.domainCount, status.imbalance.memory, status.imbalance.work,
                  static_cast<unsigned long long>(status.migratedLastStep),
                  static_cast<unsigned long long>(status.rebuilds), status.lastRebuildMilliseconds);
    return text;
}

bool OrbPanel::drawPartitionControls(const OrbPanelView& view, OrbParams& edited) {
    bool changed = false;
    const auto maxDomains = static_cast<std::uint32_t>(std::min<std::uint64_t>(kMaxOrbDomains, view.bodyCount));
    if (edited.domainCount > 0)
        m_domainCountWhenOn = edited.domainCount;
    bool enabled = edited.domainCount > 0;
    if (ImGui::Checkbox("split into ORB domains", &enabled)) {
        const std::uint32_t restored =
            m_domainCountWhenOn > 0 ? m_domainCountWhenOn : defaultOrbDomainCount(view.bodyCount);
        edited.domainCount = enabled ? std::min(restored, maxDomains) : 0;
        changed = true;
    }
    ImGui::BeginDisabled(!enabled);
    std::uint32_t domains = std::max<std::uint32_t>(edited.domainCount, 1);
    const std::uint32_t minDomains = 1;
    if (ImGui::SliderScalar("domains", ImGuiDataType_U32, &domains, &minDomains, &maxDomains, "%u",
                            ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp) &&
        enabled) {
        edited.domainCount = domains;
        changed = true;
    }
    changed |= drawBalanceCombo(edited.balance);
    const auto minInterval = static_cast<std::uint32_t>(kOrbRebuildIntervalRange.min);
    const auto maxInterval = static_cast<std::uint32_t>(kOrbRebuildIntervalRange.max);
    changed |=
        ImGui::SliderScalar("re-partition every K steps", ImGuiDataType_U32, &edited.rebuildInterval, &minInterval,
                            &maxInterval, "%u", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("1: a full re-partition every step. Larger K: in between, bodies that leave their cell\n"
                          "migrate to the domain whose fixed cell holds them.");
    changed |= ImGui::SliderScalar("imbalance limit", ImGuiDataType_Double, &edited.imbalanceLimit,
                                   &kOrbImbalanceLimitRange.min, &kOrbImbalanceLimitRange.max, "%.3f",
                                   ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Between re-partitions, re-partition early as soon as the largest domain over the mean\n"
                          "(of the balanced quantity) passes this.");
    ImGui::EndDisabled();
    return changed;
}

OrbPanelRequests OrbPanel::draw(const OrbPanelView& view) {
    OrbPanelRequests requests;
    placePanelOnFirstUse(PanelSlot::Orb);
    ImGui::Begin("ORB domains", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + kTextWidthInFontSizes * ImGui::GetFontSize());

    OrbParams edited = view.orb;
    if (drawPartitionControls(view, edited))
        requests.orb = edited;
    ImGui::Separator();
    OrbOverlaySettings overlay = view.overlay;
    bool overlayChanged = false;
    overlayChanged |= ImGui::Checkbox("show cells", &overlay.showCells);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Each domain's box in the colour of its bodies (colour mode orb-domain).");
    ImGui::SameLine();
    overlayChanged |= ImGui::Checkbox("inner cells (faint)", &overlay.innerCells);
    overlayChanged |= ImGui::SliderFloat("cell opacity", &overlay.opacity, float(kOverlayOpacityRange.min),
                                         float(kOverlayOpacityRange.max), "%.2f", ImGuiSliderFlags_AlwaysClamp);
    if (overlayChanged)
        requests.overlay = overlay;
    drawStatus(view);

    ImGui::PopTextWrapPos();
    ImGui::End();
    return requests;
}

} // namespace gravlab
