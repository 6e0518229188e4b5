#pragma once
// Window mode: the interactive viewer loop around one Simulation.
//
// Design note: one frame is: poll events -> camera input and pick clicks (unless ImGui owns the mouse) and keys
// (unless ImGui owns the keyboard) -> step the simulation stepsPerFrame times when running -> copy positions into the
// vertex buffer (BodyVertexFeed), when the tree or the overlay's query changed, octree cells into the overlay
// (TreeOverlayFeed), and, when a step ran or the ORB settings changed, ORB cells into theirs (OrbCellFeed: at most one
// collection per frame) -> SceneRenderer draws into the window's framebuffer, bodies through the palette that
// bodyPaletteFor picks from the colour mode and the backend's orbStatus() -> the ImGui panels on top -> apply what the
// panels asked for (ORB settings through Simulation::setParams, like every parameter) -> swap. The colour mode is
// handed to the backend at start, and again after every parameter change and reset, since those may replace the
// backend. Members are declared in construction order and destroyed in reverse: the window (GL context and GLFW)
// outlives the input callbacks, ImGui and every GL object.
#include "CameraInput.hpp"
#include "ImGuiLayer.hpp"
#include "PickGesture.hpp"
#include "ViewSettings.hpp"
#include "WindowEvents.hpp"
#include "panels/OrbPanel.hpp"
#include "panels/SimulationPanel.hpp"
#include "panels/TreeOverlayPanel.hpp"

#include <BodyVertexFeed.hpp>
#include <OrbCellFeed.hpp>
#include <SceneRenderer.hpp>
#include <Simulation.hpp>
#include <TreeOverlayFeed.hpp>
#include <WindowContext.hpp>
#include <chrono>
#include <optional>
#include <string>

namespace gravlab {

struct ViewerSettings {
    int width = 1280; ///< initial window size in screen coordinates
    int height = 720;
    int stepsPerFrame = 1;
    ColorMode colorMode = ColorMode::Component;
    TreeOverlaySettings treeOverlay;
    OrbOverlaySettings orbOverlay;
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
    /// Picks the body nearest to cursor (window coordinates) in the frame on screen; empty sky clears the pick.
    void pickAt(const glm::vec2& cursor);
    void advanceSimulation();
    /// Refreshes the overlay's cells when the tree or the query changed, and the picked body's marker.
    void updateTreeOverlay();
    /// Refreshes the ORB cells when they may have changed, and the bodies' palette.
    void updateOrbOverlay();
    void drawFrame();
    void applyPanelRequests(const SimulationPanelRequests& requests);
    void applyTreeOverlayRequests(const TreeOverlayPanelRequests& requests);
    void applyOrbPanelRequests(const OrbPanelRequests& requests);
    /// Showing ORB domains while ORB is off switches it on with defaultOrbDomainCount(N) (ViewSettings.hpp).
    void switchOrbOnIfOff();
    /// Hands the colour mode to the backend and marks the vertices stale.
    void applyColorMode();
    void applyParams(const SimParams& requested);
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
    TreeOverlayFeed m_overlayFeed;
    OrbCellFeed m_orbFeed;
    OrbitCamera m_camera;
    CameraInput m_cameraInput;
    PickGesture m_pickGesture;
    SimulationPanel m_panel;
    OrbPanel m_orbPanel;

    Simulation& m_simulation;
    int m_stepsPerFrame;
    FrameLook m_look;
    bool m_onCudaBackend = false; ///< asked of the CUDA runtime only when the parameters change, not every frame
    float m_sceneRadius = 1.0f;   ///< of the last camera fit; sizes the picked body's marker
    SceneBounds m_orbFocus;       ///< robust bounds the ORB boxes are clipped around (regionOfInterest)
    ColorMode m_colorMode;
    TreeOverlaySettings m_treeOverlay;
    OrbOverlaySettings m_orbOverlay;
    std::optional<PickedPoint> m_picked;
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
