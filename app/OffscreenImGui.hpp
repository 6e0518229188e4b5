#pragma once
// Dear ImGui drawn through its OpenGL 3 backend with no window: the benchmark's UI, into an offscreen framebuffer.
//
// Design note: the window's ImGuiLayer pairs the OpenGL 3 backend with the GLFW one, which feeds ImGui the window's
// size, the time step and input. Without a window the renderer half is used alone and this class feeds ImGui what the
// platform half would: the display size and the time since the last frame, with no input. So the panels run exactly
// the ImGui code and draw calls they run in the window (font atlas, vertex buffers, shader). Like ImGuiLayer it owns
// the one ImGui context of the process, and the layout file is disabled. Create it with the GL context current.
namespace gravlab {

class OffscreenImGui {
public:
    OffscreenImGui();
    ~OffscreenImGui();
    OffscreenImGui(const OffscreenImGui&) = delete;
    OffscreenImGui& operator=(const OffscreenImGui&) = delete;

    /// Starts a frame for a display of width x height pixels, secondsSinceLastFrame after the previous one.
    void beginFrame(int width, int height, float secondsSinceLastFrame);
    /// Draws the frame's UI into the bound framebuffer.
    void endFrame();
};

} // namespace gravlab
