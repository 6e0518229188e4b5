#pragma once
// Dear ImGui's context and its GLFW + OpenGL 3 backends, owned as one object.
//
// Design note: create it after the window (it needs the current GL context) and after any GLFW input callbacks the
// app installs, because the GLFW backend chains to the callbacks it finds; destroy it before the window. The layout
// file (imgui.ini) is disabled so running gravlab never writes into the current folder. The UI scale multiplies the
// font and every style metric of the dark style as it was set up, so scaling twice never compounds; the font is the
// default bitmap font scaled at draw time (ImGui 1.86 rebuilds atlases only between frames, and a slider drags
// continuously). keepWindowsOnScreen() applies WindowLayout.hpp's clamping to every top-level ImGui window.
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
    /// Font and style scaled by scale (clamped to [kMinUiScale, kMaxUiScale], WindowLayout.hpp), from the next frame.
    void setUiScale(float scale);
    float uiScale() const { return m_uiScale; }
    /// Moves every visible top-level window back inside the display; call between beginFrame() and endFrame(), after
    /// the panels were drawn.
    void keepWindowsOnScreen();

private:
    float m_uiScale = 1.0f;
};

} // namespace gravlab
