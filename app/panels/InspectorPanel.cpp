// ImGui widgets of the inspector panel.
#include "InspectorPanel.hpp"
#include "panels/PanelLayout.hpp"

#include <imgui.h>

namespace gravlab {

namespace {

void drawVector(const char* label, const std::array<float, 3>& v) {
    ImGui::Text("%-12s (%.5g, %.5g, %.5g)", label, double(v[0]), double(v[1]), double(v[2]));
}

void drawLeaf(const InspectorReading& reading) {
    if (!reading.solverBuildsTree) {
        ImGui::TextDisabled("octree leaf: the solver builds no tree");
        return;
    }
    if (!reading.leaf) {
        ImGui::TextDisabled("octree leaf: none holds the body yet (step once)");
        return;
    }
    const TreeCellBox& leaf = *reading.leaf;
    ImGui::Text("octree leaf  depth %d, centre (%.4g, %.4g, %.4g), side %.4g", leaf.depth, double(leaf.centerX),
                double(leaf.centerY), double(leaf.centerZ), 2.0 * double(leaf.halfSize));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The deepest cell of the last force evaluation's octree containing the body.\n"
                          "Its body count is not kept by the solvers.");
}

void drawReading(const InspectorReading& reading) {
    if (!reading.error.empty()) {
        ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s", reading.error.c_str());
        return;
    }
    if (!reading.body) {
        ImGui::TextDisabled("The picked body is no longer in the simulation.");
        return;
    }
    const BodyInspection& body = *reading.body;
    ImGui::Text("id %llu, %s, mass %.5g, step %llu", static_cast<unsigned long long>(body.identity.id),
                componentName(body.identity.component), double(body.mass),
                static_cast<unsigned long long>(reading.step));
    drawVector("position", body.position);
    drawVector("velocity", body.velocity);
    ImGui::Text("%-12s |v| = %.5g", "", body.speed());
    if (body.acceleration) {
        drawVector("acceleration", *body.acceleration);
        ImGui::Text("%-12s |a| = %.5g", "", *body.accelerationMagnitude());
    } else {
        ImGui::TextDisabled("acceleration not computed for these settings yet (step once)");
    }
    ImGui::Text("potential    phi = %.8g", body.potential);
    ImGui::Text("energy       e = v^2/2 + phi = %.8g (%s)", body.specificEnergy(),
                body.specificEnergy() < 0 ? "bound" : "unbound");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Specific energy: phi is the softened fp64 direct sum over all other bodies,\n"
                          "independent of the force solver. Negative: bound to the system.");
    if (body.orbDomain)
        ImGui::Text("ORB domain   %u", *body.orbDomain);
    else
        ImGui::TextDisabled("ORB domain   ORB off");
    drawLeaf(reading);
}

void drawTrails(const InspectorPanelView& view, InspectorPanelRequests& requests) {
    ImGui::Text("Trails (%zu of %zu)", view.trails.size(), view.maxTrails);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Shift+right click (or Shift+Ctrl+left click) a body to add a trail.");
    if (view.picked && view.trails.size() < view.maxTrails) {
        ImGui::SameLine();
        requests.addTrail = ImGui::SmallButton("add picked body");
    }
    if (!view.trails.empty()) {
        ImGui::SameLine();
        requests.clearTrails = ImGui::SmallButton("clear all");
    }
    for (const BodyIdentity& trail : view.trails) {
        ImGui::PushID(static_cast<int>(trail.id ^ (trail.id >> 32)));
        if (ImGui::SmallButton("remove"))
            requests.removeTrail = trail.id;
        ImGui::PopID();
        ImGui::SameLine();
        ImGui::Text("id %llu (%s)", static_cast<unsigned long long>(trail.id), componentName(trail.component));
    }
}

} // namespace

InspectorPanelRequests drawInspectorPanel(const InspectorPanelView& view) {
    InspectorPanelRequests requests;
    placePanelOnFirstUse(PanelSlot::Inspector);
    ImGui::Begin("Inspector", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    if (view.picked) {
        bool following = view.following;
        if (ImGui::Checkbox("follow (C)", &following))
            requests.follow = following;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Keeps the camera centred on this body; orbit and zoom as usual.");
        drawReading(view.reading);
    } else {
        ImGui::TextDisabled("Right click (or Ctrl+left click) a body to inspect it.");
    }
    ImGui::Separator();
    drawTrails(view, requests);
    ImGui::End();
    return requests;
}

} // namespace gravlab
