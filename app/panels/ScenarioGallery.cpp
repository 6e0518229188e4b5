// The scenario gallery section (see ScenarioGallery.hpp).
#include "ScenarioGallery.hpp"

#include <imgui.h>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

void wrappedText(std::string_view text) {
    ImGui::TextWrapped("%.*s", static_cast<int>(text.size()), text.data());
}

double currentValue(const ScenarioParameter& parameter, const ScenarioParams& chosen) {
    const auto found = chosen.find(parameter.name);
    return found != chosen.end() ? found->second : parameter.defaultValue;
}

} // namespace

void ScenarioGallery::drawTimeScales(const ScenarioGalleryView& view) {
    try {
        for (const NamedTime& time : scenarioTimeScales(view.scenario.name, view.chosen))
            ImGui::BulletText("%s: %.3g", time.name.c_str(), time.value);
    } catch (const std::invalid_argument& error) {
        ImGui::TextWrapped("time scales unavailable: %s", error.what());
    }
}

bool ScenarioGallery::drawParameterSliders(const ScenarioGalleryView& view, ScenarioParams& edited) {
    bool changed = false;
    for (const ScenarioParameter& parameter : view.scenario.parameters) {
        const std::string label(parameter.name);
        float value = static_cast<float>(currentValue(parameter, view.chosen));
        // Wide ranges (a planet's mass over five decades) read better on a logarithmic slider.
        const bool logarithmic = parameter.min > 0 && parameter.max / parameter.min >= 100;
        ImGui::SliderFloat(label.c_str(), &value, static_cast<float>(parameter.min), static_cast<float>(parameter.max),
                           "%.3g", logarithmic ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%.*s (default %g)", static_cast<int>(parameter.meaning.size()), parameter.meaning.data(),
                              parameter.defaultValue);
        if (ImGui::IsItemDeactivatedAfterEdit()) {
            edited[label] = static_cast<double>(value);
            changed = true;
        }
    }
    if (!view.chosen.empty() && ImGui::SmallButton("default parameters")) {
        edited.clear();
        changed = true;
    }
    return changed;
}

ScenarioGalleryRequests ScenarioGallery::draw(const ScenarioGalleryView& view) {
    ScenarioGalleryRequests requests;
    if (!ImGui::CollapsingHeader("about this scenario"))
        return requests;
    wrappedText(view.scenario.overview);
    ImGui::Spacing();
    ImGui::TextUnformatted("What to look for:");
    wrappedText(view.scenario.whatToLookFor);
    ImGui::Spacing();
    ImGui::TextUnformatted("Time scales (N-body time units):");
    drawTimeScales(view);
    const SuggestedSettings& suggested = view.scenario.suggested;
    ImGui::Text("Suggested: N = %llu, dt = %g, softening = %g, %.*s, %d step(s) per frame",
                static_cast<unsigned long long>(suggested.bodyCount), suggested.timeStep, suggested.softeningLength,
                static_cast<int>(suggested.solver.size()), suggested.solver.data(), suggested.stepsPerFrame);
    if (ImGui::Button("use suggested settings"))
        requests.suggested = suggested;
    if (!view.scenario.parameters.empty()) {
        ImGui::TextUnformatted("Parameters (release a slider to restart the scenario):");
        ScenarioParams edited = view.chosen;
        if (drawParameterSliders(view, edited))
            requests.scenarioParams = edited;
    }
    return requests;
}

} // namespace gravlab
