// ImGui set-up, per-frame calls and shutdown.
#include "ImGuiLayer.hpp"

#include "WindowLayout.hpp"

#include <algorithm>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>
#include <stdexcept>

namespace gravlab {

ImGuiLayer::ImGuiLayer(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::StyleColorsDark();
    if (!ImGui_ImplGlfw_InitForOpenGL(window, true)) {
        ImGui::DestroyContext();
        throw std::runtime_error("could not initialise ImGui's GLFW backend");
    }
    if (!ImGui_ImplOpenGL3_Init("#version 450 core")) {
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        throw std::runtime_error("could not initialise ImGui's OpenGL 3 backend");
    }
}

ImGuiLayer::~ImGuiLayer() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

void ImGuiLayer::beginFrame() {
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

void ImGuiLayer::endFrame() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool ImGuiLayer::wantsMouse() const {
    return ImGui::GetIO().WantCaptureMouse;
}

bool ImGuiLayer::wantsKeyboard() const {
    return ImGui::GetIO().WantCaptureKeyboard;
}

void ImGuiLayer::setUiScale(float scale) {
    m_uiScale = std::clamp(scale, kMinUiScale, kMaxUiScale);
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle(); // unscaled metrics, so repeated calls do not compound
    ImGui::StyleColorsDark(&style);
    style.ScaleAllSizes(m_uiScale);
    ImGui::GetIO().FontGlobalScale = m_uiScale;
}

void ImGuiLayer::keepWindowsOnScreen() {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    if (display.x <= 0 || display.y <= 0)
        return; // minimised: nothing to keep windows inside
    for (ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
        if (!window->Active ||
            (window->Flags & (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) != 0)
            continue;
        const glm::vec2 position{window->Pos.x, window->Pos.y};
        const glm::vec2 clamped =
            clampPanelPosition(position, {window->Size.x, window->Size.y}, {display.x, display.y});
        if (clamped != position)
            ImGui::SetWindowPos(window, ImVec2(clamped.x, clamped.y), ImGuiCond_Always);
    }
}

} // namespace gravlab
