#pragma once
// Dear ImGui's context and its GLFW + OpenGL 3 backends, owned as one object.
//
// Design note: create it after the window (it needs the current GL context) and after any GLFW input callbacks the
// app installs, because the GLFW backend chains to the callbacks it finds; destroy it before the window. The layout
// file (imgui.ini) is disabled so running gravlab never writes into the current folder.
struct GLFWwindow;

namespace gravlab {

class ImGuiLayer {
public:
    explicit ImGuiLayer(GLFWwindow* window);
    ~ImGuiLayer();
    ImGuiLayer(const ImGuiLayer&) = delete;
    ImGuiLayer& operator=(const ImGuiLayer&) = delete;

    void beginFrame();
    /// Draws the frame's UI into the bound framebuffer, on top of the scene.
    void endFrame();
    bool wantsMouse() const;
    bool wantsKeyboard() const;
};

} // namespace gravlab
