// ImGui's OpenGL 3 renderer without a platform backend (see the header).
#include "OffscreenImGui.hpp"

#include <algorithm>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <stdexcept>

namespace gravlab {

OffscreenImGui::OffscreenImGui() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::StyleColorsDark();
    if (!ImGui_ImplOpenGL3_Init("#version 450 core")) {
        ImGui::DestroyContext();
        throw std::runtime_error("could not initialise ImGui's OpenGL 3 backend on the offscreen context");
    }
}

OffscreenImGui::~OffscreenImGui() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext();
}

void OffscreenImGui::beginFrame(int width, int height, float secondsSinceLastFrame) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DeltaTime = std::max(secondsSinceLastFrame, 1e-6f); // ImGui refuses a zero time step
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
}

void OffscreenImGui::endFrame() {
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

} // namespace gravlab
