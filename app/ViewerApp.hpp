#pragma once
// Window mode: input and ImGui around one session; the frame itself is the shared pipeline's.
//
// Design note: one frame is: poll events -> camera input and pick clicks (unless ImGui owns the mouse) and keys
// (unless ImGui owns the keyboard) -> BackgroundStepper::poll(), which never waits: while a step runs on the worker
// nothing of the simulation is touched and the last fed vertices are drawn; once it has finished the controller
// completes it (pushes the vertices, marks stale overlays, records an energy measured with it) and the queued requests
// apply -> only then, with the worker idle, FramePipeline::updateOverlays() with the view's choices (octree depths,
// the pick, ORB cells) and the next step handed to the worker -> FramePipeline::render() into the window's
// framebuffer with the live camera -> the frame read back into the movie while recording (WindowRecorder, before the
// UI is drawn) -> the ImGui panels on top, fed from the stepper's status (captured while idle) -> hand what the
// panels asked for to the controller: what reads or changes the simulation (parameters through Simulation::setParams
// and its ParamsChange report, the ORB default rule, reset, reversal, files, the pick, a camera fit) through
// BackgroundStepper::whenIdle, so it applies after the step in flight, in order; pause, recording and view settings at
// once -> swap. While recording a movie the frame waits for the step in flight, so every movie frame shows new steps.
// The Session panel saves the whole setup to a file or loads one: a loaded session's parameters go through the
// controller like a panel edit, and only once they are taken do its view, run settings and camera replace the current
// ones, so a refused file or refused parameters leave the running session as it was. The viewer keeps what only the
// window has: the camera, the pick and the overlay view settings; it refits the camera and drops the pick when the
// controller reports new bodies. Members are declared in construction order and destroyed in reverse: the window (GL
// context and GLFW) outlives the input callbacks, ImGui and every GL object (the recorder's read-back buffer among
// them). Closing the window completes a recording in progress. Inspection and window ergonomics (the inspector, follow,
// trails, screenshot, UI scale, fullscreen, the error banner) live in ViewerInspection.cpp and their own classes; after
// the simulation advances, trackBodies() reads the picked and trailed bodies by id. Compare mode (the Compare panel or
// --compare): the comparison (ComparisonView) follows the session's frame between steps, the main run draws into the
// left half and the comparison into the right half with the same camera (fitted to a half's aspect), and a label names
// each half; closing the window writes the divergence CSV when --compare-csv asked for it.
#include "BodyInspector.hpp"
#include "CameraInput.hpp"
#include "ComparisonView.hpp"
#include "FollowCamera.hpp"
#include "FramePipeline.hpp"
#include "FullscreenToggle.hpp"
#include "ImGuiLayer.hpp"
#include "PickGesture.hpp"
#include "TrailHistory.hpp"
#include "ViewSettings.hpp"
#include "WindowEvents.hpp"
#include "WindowRecorder.hpp"
#include "panels/ColorPanel.hpp"
#include "panels/ComparePanel.hpp"
#include "panels/ErrorBanner.hpp"
#include "panels/FilePanel.hpp"
#include "panels/InspectorPanel.hpp"
#include "panels/OrbPanel.hpp"
#include "panels/PlotsPanel.hpp"
#include "panels/SessionPanel.hpp"
#include "panels/SimulationPanel.hpp"
#include "panels/TreeOverlayPanel.hpp"
#include "panels/WindowPanel.hpp"
#include "session/BackgroundStepper.hpp"
#include "session/SessionController.hpp"
#include "session/SessionFile.hpp"

#include <gravlab/render/FramebufferReadback.hpp>
#include <gravlab/render/OrbitCamera.hpp>
#include <gravlab/render/TrailRenderer.hpp>
#include <gravlab/render/WindowContext.hpp>
#include <gravlab/sim/ColorScale.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace gravlab {

struct ViewerSettings {
    int width = 1280; ///< initial window size in screen coordinates
    int height = 720;
    std::optional<float> uiScale; ///< panels' scale; none: the monitor's content scale
    bool fullscreen = false;
    std::optional<double> quitAfterSeconds; ///< close after this long and print the rates (--quit-after)
    int stepsPerFrame = 1;
    ColorMode colorMode = ColorMode::Component;
    ColorScaleChoice colorScale = ColorScaleChoice::Auto; ///< log, linear or auto for per-body quantities
    TreeOverlaySettings treeOverlay;
    OrbOverlaySettings orbOverlay;
    SnapshotSaving saving;             ///< snapshots while running (--save-every)
    std::optional<CameraState> camera; ///< a session's camera; none: fitted to the bodies
    bool startPaused = false;
    bool autoRefreshEnergy = true;
    /// What the Session panel's path field shows first.
    std::filesystem::path sessionFile = "gravlab_session.json";
    RecordingSettings recording;
    /// What the Plots panel's CSV field shows first (--plots-csv); empty for its default.
    std::filesystem::path plotsCsv;
    std::optional<ComparisonChoice> compare;         ///< start with a comparison run beside the main run
    std::optional<std::filesystem::path> compareCsv; ///< its divergence history is written here on closing
    /// --backend gl: the run, started on the CPU, moves onto the GL backend once the window's context exists (with
    /// backend auto it does when the driver is a hardware one and there is no CUDA device; ViewerGlBackend.cpp).
    bool glBackendAsked = false;
    /// Whether the body count is the window's to choose: on moving onto the GL backend it is measured there
    /// (MeasuredWindowDefaults.hpp).
    bool measureBodyCountOnGl = false;
};

class ViewerApp {
public:
    /// Opens the window; throws WindowUnavailableError when no window can be created.
    ViewerApp(Simulation& simulation, const ViewerSettings& settings);
    /// Moves a run on the GL backend back to the CPU while the window's context, which holds its state, still exists.
    ~ViewerApp();
    ViewerApp(const ViewerApp&) = delete;
    ViewerApp& operator=(const ViewerApp&) = delete;
    /// Runs until the window is closed, Esc is pressed or quitAfterSeconds passed, then completes a recording in
    /// progress; with quitAfterSeconds prints one line with the display frames/s and the steps/s to out.
    void run(std::ostream& out);

private:
    /// Puts the run on the GL backend in the window's context when asked (--backend gl) or when auto chooses it
    /// (GlBackendChoice.hpp), saying so on the log; a refusal of an explicit request throws, of auto is logged.
    void adoptGlBackend(bool asked, bool measureBodyCount);
    void handleInput();
    void handleKey(int key);
    /// Picks the body nearest to cursor (window coordinates) in the frame on screen; empty sky clears the pick.
    void pickAt(const glm::vec2& cursor);
    /// The overlays' view of this frame: panel settings, colour mode and the picked body's marker.
    void updateOverlays();
    /// The bodies, overlays, trails and the comparison's half, then the frame handed to a recording.
    void drawScene();
    /// drawScene(), then the panels over it and their requests applied.
    void drawFrame();
    void applyPanelRequests(const SimulationPanelRequests& requests);
    void applyTreeOverlayRequests(const TreeOverlayPanelRequests& requests);
    void applyFilePanelRequests(const FilePanelRequests& requests);
    void applyOrbPanelRequests(const OrbPanelRequests& requests);
    void applySessionPanelRequests(const SessionPanelRequests& requests);
    PlotsPanelRequests drawPlotsPanel();
    void applyPlotsPanelRequests(const PlotsPanelRequests& requests);
    /// The session as it stands: parameters running, camera, view and run settings.
    SavedSession currentSession() const;
    /// Applies a loaded session: parameters through the controller like a panel edit, then (when they were taken)
    /// the view, the run settings and the camera. Returns the controller's reason when it refused the parameters.
    std::optional<std::string> applySession(const SavedSession& session);
    /// Through the controller; new bodies drop the pick (a point of the previous scene) and refit the camera.
    void applyParams(const SimParams& requested);
    void refitCamera();
    void toggleRecording();
    /// Once per frame after the simulation advanced: the inspector's reading, the followed body and the trails, all
    /// by id (ORB reorders the bodies). A reset (the step count going back) empties the trails; new bodies drop them.
    void trackBodies();
    /// The trails as fading lines over the frame in target.
    void drawTrails(const RenderTarget& target);
    /// The UI's panels of the inspector, the window and the error banner, then their requests applied.
    void drawInspectionAndWindowPanels();
    void applyInspectorRequests(const InspectorPanelRequests& requests);
    /// Writes the window's framebuffer, panels included, as a PNG into the output folder.
    void takeScreenshot();
    /// The main run's part of the window: all of it, or its left half while comparing.
    RenderTarget mainTarget() const;
    /// Starts the comparison beside the main run; throws its refusal (InvalidParameterError, InsufficientMemoryError).
    void beginComparison(const ComparisonChoice& choice);
    /// Starts (or replaces) the comparison; a refusal is kept for the Compare panel instead of thrown.
    void startComparison(const ComparisonChoice& choice);
    /// After the session's frame: the comparison follows; a failure stops it, keeping the reason for the panel.
    void followComparison();
    ComparePanelRequests drawComparePanel();
    void applyCompareRequests(const ComparePanelRequests& requests);
    void writeComparisonCsv(const std::filesystem::path& file);
    /// --compare-csv: the history written when the window closes; a failure throws (exit status 1, naming the file).
    void writeComparisonCsvOnClose();

    WindowContext m_window;
    WindowEvents m_events;
    ImGuiLayer m_imgui;
    FullscreenToggle m_fullscreen;
    FramebufferReadback m_screenshotReadback;
    TrailRenderer m_trailRenderer;
    FramePipeline m_pipeline;
    SessionController m_session;
    BackgroundStepper m_stepper;                ///< after the session: its worker is joined before the session goes
    std::optional<ComparisonView> m_comparison; ///< the run beside the main one, while comparing
    OrbitCamera m_camera;
    CameraInput m_cameraInput;
    PickGesture m_pickGesture;
    SimulationPanel m_panel;
    OrbPanel m_orbPanel;
    FilePanel m_filePanel;
    std::string m_fileMessage; ///< outcome of the file panel's last load or save
    bool m_fileMessageIsError = false;
    SessionPanel m_sessionPanel;
    PlotsPanel m_plotsPanel;
    std::string m_plotsMessage; ///< outcome of the Plots panel's last export
    bool m_plotsMessageIsError = false;
    WindowRecorder m_recorder;
    ComparePanel m_comparePanel;
    std::string m_compareMessage; ///< the last comparison start's refusal or export's outcome
    bool m_compareMessageIsError = false;
    std::optional<std::filesystem::path> m_compareCsvOnClose;

    float m_sceneRadius = 1.0f; ///< of the last camera fit; sizes the picked body's marker
    TreeOverlaySettings m_treeOverlay;
    OrbOverlaySettings m_orbOverlay;
    std::optional<PickedPoint> m_picked;
    ColorScale m_colorLegend;     ///< the colour map's scale, read while no step is in flight
    std::string m_sessionOutcome; ///< what the Session panel's last save or load did
    bool m_sessionOutcomeIsError = false;

    BodyInspector m_inspector;
    FollowCamera m_follow;
    TrailHistory m_trails;
    std::optional<std::uint64_t> m_trackedAtStep; ///< step of the last bodyPositions() read; empty: read next frame
    std::filesystem::path m_screenshotFolder;
    std::optional<double> m_quitAfterSeconds;
    bool m_screenshotRequested = false;
    std::string m_screenshotMessage; ///< the last screenshot's file, or why it failed
    bool m_screenshotFailed = false;
    ErrorBanner m_errorBanner;
};

} // namespace gravlab
