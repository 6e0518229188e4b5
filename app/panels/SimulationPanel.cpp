// ImGui widgets of the simulation panel.
#include "SimulationPanel.hpp"

#include "SolverControls.hpp"
#include "TimeStepControls.hpp"
#include "panels/EnumCombo.hpp"
#include "panels/PanelLayout.hpp"

#include <gravlab/sim/InteractiveSize.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <imgui.h>
#include <string>

namespace gravlab {

namespace {

/// A logarithmic slider over range; an exclusive lower bound of 0 becomes floorForZero so the slider has an end.
bool rangeSlider(const char* label, const ParamRange& range, double floorForZero, double& value) {
    const double low = range.min > 0 ? range.min : floorForZero;
    const double high = range.max;
    const bool changed = ImGui::SliderScalar(label, ImGuiDataType_Double, &value, &low, &high, "%.4g",
                                             ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%.*s", static_cast<int>(range.meaning.size()), range.meaning.data());
    return changed;
}

/// The softening: a logarithmic slider from the solver's smallest positive value, and for solvers that take 0 (the
/// direct sums) a checkbox for the exact Newtonian problem; the tooltip names the solver's range and why.
bool softeningControls(SimParams& edited) {
    const SolverInfo& solver = findSolver(edited.solver);
    const bool takesZero = solver.minSoftening == 0.0;
    bool newtonian = edited.softeningLength == 0.0;
    bool changed = false;
    if (takesZero && ImGui::Checkbox("eps = 0 (Newtonian)", &newtonian)) {
        edited.softeningLength = newtonian ? 0.0 : SimParams{}.softeningLength;
        changed = true;
    }
    ImGui::BeginDisabled(takesZero && newtonian);
    changed |= rangeSlider("softening", kSofteningRange, std::max(solver.minSoftening, kSmallestPositiveSoftening),
                           edited.softeningLength);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        if (takesZero)
            ImGui::SetTooltip("Plummer softening length; solver '%.*s' also takes 0, the exact Newtonian sum\n"
                              "(two bodies at one position then stop the step)",
                              int(solver.name.size()), solver.name.data());
        else
            ImGui::SetTooltip("Plummer softening length; solver '%.*s' needs %g <= softening <= %g:\n%.*s",
                              int(solver.name.size()), solver.name.data(), solver.minSoftening, kSofteningRange.max,
                              int(solver.softeningNeed.size()), solver.softeningNeed.data());
    }
    return changed;
}

/// An unsigned input whose edit is reported only once committed (Enter or focus loss).
bool committedInput(const char* label, std::uint64_t& draft, std::uint64_t current) {
    ImGui::InputScalar(label, ImGuiDataType_U64, &draft);
    if (!ImGui::IsItemActive() && !ImGui::IsItemDeactivatedAfterEdit())
        draft = current;
    return ImGui::IsItemDeactivatedAfterEdit() && draft != current;
}

} // namespace

bool SimulationPanel::drawScenarioAndBodies(const SimulationPanelView& view, SimParams& edited) {
    bool changed = false;
    const bool fromFile = !edited.initialFile.empty();
    const std::string shown =
        fromFile ? "file: " + std::filesystem::path(edited.initialFile).filename().string() : edited.scenario;
    if (ImGui::BeginCombo("scenario", shown.c_str())) {
        for (const Scenario& scenario : scenarios()) {
            const bool selected = !fromFile && scenario.name == edited.scenario;
            if (ImGui::Selectable(std::string(scenario.name).c_str(), selected) && !selected) {
                edited.scenario = std::string(scenario.name);
                edited.scenarioParams.clear(); // parameters belong to the scenario they were chosen for
                edited.initialFile.clear();    // a scenario replaces the loaded file's bodies
                changed = true;
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%.*s", static_cast<int>(scenario.description.size()), scenario.description.data());
        }
        ImGui::EndCombo();
    }
    if (fromFile) {
        // The file decides the bodies: no count or seed to edit.
        ImGui::Text("bodies: %llu (from the file)", static_cast<unsigned long long>(view.bodyCount));
        return changed;
    }
    if (committedInput("bodies", m_bodyCountDraft, view.params.bodyCount)) {
        edited.bodyCount = std::clamp<std::uint64_t>(m_bodyCountDraft, 1, kMaxBodyCount);
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("/2") && edited.bodyCount > 1) {
        edited.bodyCount /= 2;
        changed = true;
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("x2") && edited.bodyCount * 2 <= kMaxBodyCount) {
        edited.bodyCount *= 2;
        changed = true;
    }
    if (committedInput("seed", m_seedDraft, view.params.seed)) {
        edited.seed = m_seedDraft;
        changed = true;
    }
    return changed;
}

bool SimulationPanel::drawPhysics(const SimulationPanelView& view, SimParams& edited) {
    bool changed = false;
    changed |= rangeSlider("dt", kTimeStepRange, 1e-5, edited.timeStep);
    changed |= drawTimeStepControls(edited);
    changed |= softeningControls(edited);
    changed |= rangeSlider("G", kGravitationalConstantRange, 1e-3, edited.gravitationalConstant);
    changed |= enumCombo("backend", edited.backend);
    changed |= drawSolverControls(edited, view.device);
    return changed;
}

void SimulationPanel::drawRunControls(const SimulationPanelView& view, SimulationPanelRequests& requests) {
    requests.togglePause = ImGui::Button(view.paused ? "Run (Space)" : "Pause (Space)");
    ImGui::SameLine();
    requests.stepOnce = ImGui::Button("Step (S)");
    ImGui::SameLine();
    requests.reset = ImGui::Button("Reset (R)");
    ImGui::SameLine();
    requests.reverseTime = ImGui::Button("Reverse (V)");
    ImGui::SameLine();
    requests.fitCamera = ImGui::Button("Fit view (F)");
    requests.toggleRecording = drawRecordingControls(view.recording);
}

void SimulationPanel::drawNumbers(const SimulationPanelView& view, SimulationPanelRequests& requests) {
    ImGui::Text("t = %.4f   step %llu   %zu bodies", view.time, static_cast<unsigned long long>(view.stepCount),
                view.bodyCount);
    ImGui::Text("time arrow: %s", view.timeDirection > 0 ? "forward" : "backward (velocities reversed, t decreases)");
    // Units: what t, dt, the softening and G are measured in (docs/UNITS.md).
    const UnitSystem& units = view.params.units;
    if (units.physical())
        ImGui::TextWrapped("units: length %s, mass %s, velocity %s, time %s", units.lengthName.c_str(),
                           units.massName.c_str(), units.velocityName.c_str(), units.timeName().c_str());
    else
        ImGui::TextUnformatted("units: N-body (G = 1 unless changed; docs/UNITS.md)");
    ImGui::Text("%.1f frames/s, %d step(s) per frame", ImGui::GetIO().Framerate, view.stepsPerFrame);
    if (view.interactiveBodies > 0)
        ImGui::TextWrapped("This machine keeps about %llu bodies at %.0f frames/s with solver %s.",
                           static_cast<unsigned long long>(view.interactiveBodies), kInteractiveFramesPerSecond,
                           view.params.solver.c_str());
    drawPhaseTimings(view.lastStepTimings);
    if (view.timeSteps != nullptr && view.params.timeSteps.mode == TimeStepMode::Hierarchical)
        drawTimeStepLevels(*view.timeSteps, view.bodyCount);

    if (!view.energy)
        ImGui::TextUnformatted("energy drift: not measured yet");
    else if (std::isnan(view.energy->relativeDrift))
        ImGui::Text("energy drift: baseline E0 recorded at t = %.4f", view.energy->simulationTime);
    else
        ImGui::Text("energy drift |E-E0|/|E0| = %.3e", view.energy->relativeDrift);
    if (view.energy)
        ImGui::TextDisabled("  at t = %.4f, %.1f s ago (took %.0f ms)", view.energy->simulationTime,
                            view.energy->secondsAgo, 1e3 * view.energy->computeSeconds);
    requests.refreshEnergy = ImGui::SmallButton("Measure now");
    ImGui::SameLine();
    bool autoRefresh = view.autoRefreshEnergy;
    if (ImGui::Checkbox("every 2 s while quick", &autoRefresh))
        requests.autoRefreshEnergy = autoRefresh;

    ImGui::Separator();
    ImGui::TextWrapped("Simulation: %.*s", static_cast<int>(view.backendDescription.size()),
                       view.backendDescription.data());
    ImGui::TextWrapped("Renderer: %.*s", static_cast<int>(view.rendererDescription.size()),
                       view.rendererDescription.data());
    ImGui::TextWrapped("Positions: %.*s", static_cast<int>(view.vertexPath.size()), view.vertexPath.data());
}

bool SimulationPanel::drawGallery(const SimulationPanelView& view, SimParams& edited,
                                  SimulationPanelRequests& requests) {
    const Scenario* scenario = findScenario(edited.scenario);
    if (!edited.initialFile.empty() || scenario == nullptr || edited.scenario != view.params.scenario)
        return false;
    const ScenarioGalleryRequests gallery =
        m_gallery.draw({.scenario = *scenario, .chosen = view.params.scenarioParams});
    if (gallery.suggested) {
        edited.bodyCount = gallery.suggested->bodyCount;
        edited.timeStep = gallery.suggested->timeStep;
        edited.softeningLength = gallery.suggested->softeningLength;
        edited.solver = std::string(gallery.suggested->solver);
        requests.stepsPerFrame = gallery.suggested->stepsPerFrame;
    }
    if (gallery.scenarioParams)
        edited.scenarioParams = *gallery.scenarioParams;
    return gallery.suggested.has_value() || gallery.scenarioParams.has_value();
}

SimulationPanelRequests SimulationPanel::draw(const SimulationPanelView& view) {
    SimulationPanelRequests requests;
    placePanelOnFirstUse(PanelSlot::Simulation);
    ImGui::Begin("Gravlab");

    SimParams edited = view.params;
    bool changed = false;
    changed |= drawScenarioAndBodies(view, edited);
    changed |= drawGallery(view, edited, requests);
    changed |= drawPhysics(view, edited);
    if (changed)
        requests.params = edited;

    ImGui::Separator();
    drawRunControls(view, requests);
    ImGui::Separator();
    drawNumbers(view, requests);

    if (!view.lastError.empty()) {
        ImGui::Separator();
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
        ImGui::TextWrapped("%.*s", static_cast<int>(view.lastError.size()), view.lastError.data());
        ImGui::PopStyleColor();
    }
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("Left drag: rotate   right/middle drag: pan   wheel: zoom   right click or Ctrl+left click: "
                       "pick a body   Esc: quit");
    ImGui::PopStyleColor();
    ImGui::End();
    return requests;
}

} // namespace gravlab
