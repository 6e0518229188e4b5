#pragma once
// Window mode: the interactive viewer loop around one Simulation.
//
// Design note: one frame is: poll events -> camera input (unless ImGui owns the mouse) and keys (unless ImGui owns
// the keyboard) -> step the simulation stepsPerFrame times when running -> copy positions into the vertex buffer
// (BodyVertexFeed) -> SceneRenderer draws into the window's framebuffer -> the ImGui panel on top -> apply what the
// panel asked for -> swap. Members are declared in construction order and destroyed in reverse: the window (GL
// context and GLFW) outlives the input callbacks, ImGui and every GL object.
#include "CameraInput.hpp"
#include "ImGuiLayer.hpp"
#include "WindowEvents.hpp"
#include "panels/SimulationPanel.hpp"

#include <BodyVertexFeed.hpp>
#include <SceneRenderer.hpp>
#include <Simulation.hpp>
#include <WindowContext.hpp>
#include <chrono>
#include <optional>
#include <string>

namespace gravlab {

struct ViewerSettings {
    int width = 1280; ///< initial window size in screen coordinates
    int height = 720;
    int stepsPerFrame = 1;
};

class ViewerApp {
public:
    /// Opens the window; throws WindowUnavailableError when no window can be created.
    ViewerApp(Simulation& simulation, const ViewerSettings& settings);
    /// Runs until the window is closed or Esc is pressed.
    void run();

    /// Energy readings are refreshed this often while the simulation runs, when auto refresh is on.
    static constexpr double kEnergyRefreshSeconds = 2.0;
    /// Automatic measurements stop when one takes longer than this (O(N^2) on the CPU would stall the window).
    static constexpr double kMaxAutomaticMeasureSeconds = 0.2;

private:
    void handleInput();
    void handleKey(int key);
    void advanceSimulation();
    void drawFrame();
    void applyPanelRequests(const SimulationPanelRequests& requests);
    void applyParams(const SimParams& params);
    void stepOnce();
    void resetSimulation();
    void refitCamera();
    void measureEnergy();
    /// Whether measuring energy now is cheap enough to do without being asked.
    bool energyIsCheap() const;
    void measureEnergyIfCheap();
    void refreshEnergyIfDue();

    WindowContext m_window;
    WindowEvents m_events;
    ImGuiLayer m_imgui;
    SceneRenderer m_scene;
    BodyVertexFeed m_feed;
    OrbitCamera m_camera;
    CameraInput m_cameraInput;
    SimulationPanel m_panel;

    Simulation& m_simulation;
    int m_stepsPerFrame;
    FrameLook m_look;
    bool m_paused = false;
    bool m_verticesStale = true;
    bool m_autoRefreshEnergy = true;
    std::string m_lastError;

    struct EnergyMeasurement {
        double relativeDrift;
        double simulationTime;
        double computeSeconds;
        std::chrono::steady_clock::time_point computedAt;
    };
    std::optional<EnergyMeasurement> m_energy;
};

} // namespace gravlab
