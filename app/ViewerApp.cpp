// The interactive viewer: input, the pick, the camera, and the panels' requests handed to the session.
#include "ViewerApp.hpp"

#include "SimulationPanelViewOf.hpp"
#include "WindowLayout.hpp"
#include "session/DiagnosticsCsv.hpp"

#include <gravlab/render/BodyPicking.hpp>

#include <GLFW/glfw3.h>
#include <chrono>
#include <cstdio>
#include <iostream>

namespace gravlab {

namespace {

WindowSettings windowSettingsFrom(const ViewerSettings& settings) {
    WindowSettings window;
    window.title = "Gravlab";
    window.width = settings.width;
    window.height = settings.height;
    return window;
}

SessionSettings sessionSettingsFrom(const ViewerSettings& settings) {
    SessionSettings session;
    session.stepsPerFrame = settings.stepsPerFrame;
    session.saving = settings.saving;
    session.colorMode = settings.colorMode;
    session.colorScale = settings.colorScale;
    session.autoRefreshEnergy = settings.autoRefreshEnergy;
    return session;
}

/// Half the side of the box marking the picked body, as a fraction of the scene radius: visible around a single
/// star at the default framing, small next to the galaxy.
constexpr float kPickMarkerScale = 0.015f;

} // namespace

ViewerApp::ViewerApp(Simulation& simulation, const ViewerSettings& settings)
    : m_window(windowSettingsFrom(settings)), m_events(m_window.handle()), m_imgui(m_window.handle()),
      m_fullscreen(m_window.handle()), m_pipeline(std::cerr),
      m_session(simulation, m_pipeline, sessionSettingsFrom(settings)), m_stepper(m_session),
      m_sessionPanel(settings.sessionFile), m_plotsPanel(settings.plotsCsv.string()),
      m_recorder(settings.recording, std::cerr), m_comparePanel(settings.compareCsv.value_or("gravlab_divergence.csv")),
      m_compareCsvOnClose(settings.compareCsv), m_treeOverlay(settings.treeOverlay), m_orbOverlay(settings.orbOverlay),
      m_screenshotFolder(settings.recording.folder), m_quitAfterSeconds(settings.quitAfterSeconds) {
    float contentScaleX = 1.0f, contentScaleY = 1.0f;
    glfwGetWindowContentScale(m_window.handle(), &contentScaleX, &contentScaleY);
    m_imgui.setUiScale(settings.uiScale.value_or(uiScaleForContentScale(contentScaleX, contentScaleY)));
    m_fullscreen.setFullscreen(settings.fullscreen); // before the fit, which needs the final aspect
    adoptGlBackend(settings.glBackendAsked, settings.measureBodyCountOnGl);
    if (settings.compare) // a refusal at start is the command line's error, as for the main run
        beginComparison(*settings.compare);
    refitCamera(); // also sizes the particles, so a session's camera replaces the pose afterwards
    if (settings.camera)
        applyCameraState(*settings.camera, m_camera);
    m_session.setPaused(settings.startPaused);
}

void ViewerApp::run(std::ostream& out) {
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t startStep = m_stepper.status().stepCount;
    std::uint64_t frames = 0;
    const auto seconds = [&start] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    while (!m_window.shouldClose() && !(m_quitAfterSeconds && seconds() >= *m_quitAfterSeconds)) {
        m_window.pollEvents();
        handleInput();
        if (m_recorder.view().recording)
            m_stepper
                .waitForStep(); // a movie shows one step per frame, as it did before stepping moved off this thread
        if (m_stepper.poll().idle) { // no step in flight: the simulation may be read until the next one starts
            trackBodies();
            followComparison(); // steps the comparison run on this thread, between the main run's steps
            updateOverlays();
            m_colorLegend = m_session.simulation().visuals().colorScale(m_session.simulation().params().units);
            m_stepper.startNextStep();
        }
        drawFrame();
        m_window.swapBuffers();
        ++frames;
    }
    if (m_quitAfterSeconds) {
        const double elapsed = seconds();
        const std::uint64_t steps = m_stepper.status().stepCount - startStep;
        char line[200];
        std::snprintf(line, sizeof line,
                      "gravlab: window: %llu frames in %.1f s (%.1f frames/s), %llu steps (%.1f steps/s)\n",
                      static_cast<unsigned long long>(frames), elapsed, double(frames) / elapsed,
                      static_cast<unsigned long long>(steps), double(steps) / elapsed);
        out << line << std::flush;
    }
    m_recorder.stop();
    writeComparisonCsvOnClose();
}

void ViewerApp::handleInput() {
    const bool uiWantsMouse = m_imgui.wantsMouse();
    m_cameraInput.onPointer(m_events.pointer(), uiWantsMouse, m_events.windowHeight(), m_camera);
    m_cameraInput.onScroll(m_events.takeScrollSteps(), uiWantsMouse, m_camera);
    for (const MouseButtonEvent& event : m_events.takeButtonEvents())
        if (const std::optional<glm::vec2> click = m_pickGesture.onButton(event, uiWantsMouse))
            m_stepper.whenIdle([this, cursor = *click, addTrail = event.shiftHeld] {
                pickAt(cursor);
                if (addTrail && m_picked && m_trails.add(m_picked->identity))
                    m_trackedAtStep.reset();
            });
    const bool uiWantsKeyboard = m_imgui.wantsKeyboard();
    for (const int key : m_events.takeKeyPresses())
        if (!uiWantsKeyboard)
            handleKey(key);
}

void ViewerApp::handleKey(int key) {
    switch (key) {
    case GLFW_KEY_SPACE:
        m_session.togglePause();
        break;
    case GLFW_KEY_S:
    case GLFW_KEY_N:
        m_stepper.stepOnce();
        break;
    case GLFW_KEY_R:
        m_stepper.whenIdle([this] { m_session.reset(); });
        break;
    case GLFW_KEY_V:
        m_stepper.whenIdle([this] { m_session.reverseTime(); });
        break;
    case GLFW_KEY_F:
        m_stepper.whenIdle([this] { refitCamera(); });
        break;
    case GLFW_KEY_M:
        toggleRecording();
        break;
    case GLFW_KEY_C:
        m_follow.toggle();
        m_trackedAtStep.reset(); // the target moves now, even while paused
        break;
    case GLFW_KEY_P:
        m_screenshotRequested = true;
        break;
    case GLFW_KEY_F11:
        m_fullscreen.toggle();
        break;
    case GLFW_KEY_ESCAPE:
        m_window.requestClose();
        break;
    default:
        break;
    }
}

void ViewerApp::pickAt(const glm::vec2& cursor) {
    const RenderTarget target = mainTarget();
    if (target.width <= 0 || target.height <= 0)
        return;
    // Runs with no step in flight; after a step completed, the vertices on the host are already the next frame's.
    const ParticleView view = particleViewFor(m_camera, target.width, target.height);
    PickRequest request;
    request.viewProjection = view.projection * view.view;
    request.cursor = cursor;
    // While comparing, the main run fills the left half, which starts at the same top-left corner.
    request.viewportSize = m_events.windowSize() * glm::vec2(m_comparison ? 0.5f : 1.0f, 1.0f);
    // A click is handled before the frame's poll pushes the vertices an edit made stale, and a picked vertex's index
    // names a body through the current order, which an ORB edit in the frame before may have changed.
    m_session.pushVerticesIfStale();
    const Simulation& simulation = m_session.simulation();
    const std::optional<PickedBody> picked = pickNearestBody(m_pipeline.hostVertices(simulation), request);
    if (picked)
        m_picked = PickedPoint{{picked->position.x, picked->position.y, picked->position.z},
                               simulation.stepCount(),
                               simulation.backend().bodyIdentity(picked->index)};
    else
        m_picked.reset();
}

void ViewerApp::updateOverlays() {
    std::optional<std::array<float, 3>> pickedPoint;
    if (m_picked)
        pickedPoint = m_picked->position;
    m_pipeline.updateOverlays(m_session.simulation(), {.tree = m_treeOverlay,
                                                       .orb = m_orbOverlay,
                                                       .colorMode = m_session.colorMode(),
                                                       .pickedPoint = pickedPoint,
                                                       .pickMarkerHalfSize = kPickMarkerScale * m_sceneRadius});
}

void ViewerApp::drawScene() {
    const FramebufferSize size = m_window.framebufferSize();
    const RenderTarget window{0, size.width, size.height};
    m_pipeline.render(m_camera, mainTarget(), m_stepper.stepInFlight());
    drawTrails(mainTarget());
    if (m_comparison)
        m_comparison->draw(m_camera, sideBySide(window)[1],
                           {.tree = m_treeOverlay,
                            .orb = m_orbOverlay,
                            .colorMode = m_session.colorMode(),
                            .pickedPoint = std::nullopt, // a pick names a body of the main run
                            .pickMarkerHalfSize = 0.0f});
    m_recorder.captureFrame(window);
}

void ViewerApp::drawFrame() {
    drawScene();
    m_imgui.beginFrame();
    const RecordingView recording = m_recorder.view();
    drawRecordingIndicator(recording);
    const SessionStatus& status = m_stepper.status(); // the simulation itself may be stepping now
    const SimulationPanelView view =
        simulationPanelViewOf(status, m_session, m_pipeline, m_window.description(), recording);
    const SimulationPanelRequests requests = m_panel.draw(view);
    const TreeOverlayPanelRequests overlayRequests =
        drawTreeOverlayPanel({.settings = m_treeOverlay,
                              .solver = findSolver(status.params.solver),
                              .picked = m_picked,
                              .cellCount = m_pipeline.treeCells().cellCount(),
                              .capped = m_pipeline.treeCells().capped()});
    const ColorPanelRequests colorRequests =
        drawColorPanel({.mode = m_session.colorMode(),
                        .scale = m_session.colorScale(),
                        .legend = m_colorLegend,
                        .palette = bodyPaletteFor(m_session.colorMode(), status.orb.domainCount > 0)});
    const OrbPanelRequests orbRequests = m_orbPanel.draw({.orb = status.params.orb,
                                                          .bodyCount = status.bodyCount,
                                                          .overlay = m_orbOverlay,
                                                          .status = status.orb,
                                                          .boxCount = m_pipeline.scene().orbOverlay().boxCount()});
    const FilePanelRequests fileRequests = m_filePanel.draw(
        {.loadedFile = status.params.initialFile, .message = m_fileMessage, .messageIsError = m_fileMessageIsError});
    const SessionPanelRequests sessionRequests =
        m_sessionPanel.draw({.outcome = m_sessionOutcome, .outcomeIsError = m_sessionOutcomeIsError});
    const PlotsPanelRequests plotsRequests = drawPlotsPanel();
    const ComparePanelRequests compareRequests = drawComparePanel();
    drawInspectionAndWindowPanels(); // ends the ImGui frame, then takes a requested screenshot
    applyPanelRequests(requests);
    applyTreeOverlayRequests(overlayRequests);
    if (colorRequests.mode || colorRequests.scale) // the backend's choices: it writes the vertices
        m_stepper.whenIdle([this, colorRequests] {
            if (colorRequests.mode)
                m_session.setColorMode(*colorRequests.mode);
            if (colorRequests.scale)
                m_session.setColorScale(*colorRequests.scale);
        });
    applyOrbPanelRequests(orbRequests);
    if (fileRequests.load || fileRequests.save)
        m_stepper.whenIdle([this, fileRequests] { applyFilePanelRequests(fileRequests); });
    if (sessionRequests.load || sessionRequests.save)
        m_stepper.whenIdle([this, sessionRequests] { applySessionPanelRequests(sessionRequests); });
    applyPlotsPanelRequests(plotsRequests);
    if (compareRequests.start || compareRequests.stop || compareRequests.restart || compareRequests.measureEnergy ||
        compareRequests.exportCsv) // the comparison reads the main run's state
        m_stepper.whenIdle([this, compareRequests] { applyCompareRequests(compareRequests); });
}

PlotsPanelRequests ViewerApp::drawPlotsPanel() {
    std::optional<DirectEnergyReading> direct;
    if (const EnergyHistory& history = m_session.energyHistory(); !history.empty())
        direct = DirectEnergyReading{history.latest().relativeDrift, history.latest().simulationTime,
                                     history.latest().computeSeconds};
    return m_plotsPanel.draw({.history = m_session.plotHistory(),
                              .samplingEnabled = m_session.plotSampling().enabled,
                              .direct = direct,
                              .exportMessage = m_plotsMessage,
                              .exportMessageIsError = m_plotsMessageIsError});
}

void ViewerApp::applyPlotsPanelRequests(const PlotsPanelRequests& requests) {
    if (requests.samplingEnabled || requests.reset || requests.sampleNow) // they read the simulation
        m_stepper.whenIdle([this, requests] {
            if (requests.samplingEnabled)
                m_session.setPlotSampling(*requests.samplingEnabled);
            if (requests.reset)
                m_session.restartPlots();
            if (requests.sampleNow)
                m_session.samplePlotsNow();
        });
    if (requests.measureDirectNow)
        m_stepper.measureEnergySoon();
    if (requests.exportCsv) {
        try {
            writeDiagnosticsCsv(m_session.plotHistory(), *requests.exportCsv);
            m_plotsMessage =
                "wrote " + std::to_string(m_session.plotHistory().size()) + " samples to " + *requests.exportCsv;
            m_plotsMessageIsError = false;
        } catch (const std::exception& error) {
            m_plotsMessage = std::string("not exported: ") + error.what();
            m_plotsMessageIsError = true;
        }
    }
}

void ViewerApp::applyFilePanelRequests(const FilePanelRequests& requests) {
    if (requests.load) {
        SimParams params = m_session.simulation().params();
        params.initialFile = *requests.load;
        params.initialFileFormat.reset();
        applyParams(params);
        const bool loaded = m_session.simulation().params().initialFile == *requests.load;
        m_fileMessageIsError = !loaded;
        m_fileMessage =
            loaded ? "loaded " + std::to_string(m_session.simulation().bodyCount()) + " bodies from " + *requests.load
                   : m_session.lastError();
    }
    if (requests.save) {
        try {
            writeSnapshot(*requests.save, m_session.simulation().snapshot(), requests.saveFormat);
            m_fileMessage = "saved " + std::to_string(m_session.simulation().bodyCount()) +
                            " bodies at t = " + std::to_string(m_session.simulation().time()) + " to " + *requests.save;
            m_fileMessageIsError = false;
        } catch (const std::exception& error) {
            m_fileMessage = error.what(); // names the file and the reason; nothing was left under its name
            m_fileMessageIsError = true;
        }
    }
}

void ViewerApp::applyPanelRequests(const SimulationPanelRequests& requests) {
    // What reads or changes the simulation waits for the step in flight; the rest applies at once.
    if (requests.params || requests.reset || requests.reverseTime || requests.fitCamera)
        m_stepper.whenIdle([this, requests] {
            if (requests.params)
                applyParams(*requests.params);
            if (requests.reset)
                m_session.reset();
            if (requests.reverseTime)
                m_session.reverseTime();
            if (requests.fitCamera)
                refitCamera();
        });
    if (requests.togglePause)
        m_session.togglePause();
    if (requests.stepOnce)
        m_stepper.stepOnce();
    if (requests.toggleRecording)
        toggleRecording();
    if (requests.autoRefreshEnergy)
        m_session.setAutoRefreshEnergy(*requests.autoRefreshEnergy);
    if (requests.refreshEnergy)
        m_stepper.measureEnergySoon();
    if (requests.stepsPerFrame)
        m_stepper.whenIdle([this, steps = *requests.stepsPerFrame] { m_session.setStepsPerFrame(steps); });
}

void ViewerApp::applyTreeOverlayRequests(const TreeOverlayPanelRequests& requests) {
    if (requests.settings)
        m_treeOverlay = *requests.settings; // a changed query is noticed by the pipeline's tree feed
    if (requests.clearPick)
        m_picked.reset();
}

void ViewerApp::applyOrbPanelRequests(const OrbPanelRequests& requests) {
    if (requests.overlay) {
        const bool cellsSwitchedOn = requests.overlay->showCells && !m_orbOverlay.showCells;
        m_orbOverlay = *requests.overlay; // a change of inner cells is noticed by the pipeline's ORB feed
        if (cellsSwitchedOn)
            m_stepper.whenIdle([this] { m_session.showOrbDomains(); });
    }
    if (requests.orb)
        m_stepper.whenIdle([this, orb = *requests.orb] {
            SimParams params = m_session.simulation().params();
            params.orb = orb;
            applyParams(params);
        });
}

void ViewerApp::applySessionPanelRequests(const SessionPanelRequests& requests) {
    try {
        if (requests.save) {
            saveSession(*requests.save, currentSession());
            m_sessionOutcome = "Saved to " + requests.save->string() + ".";
            m_sessionOutcomeIsError = false;
        }
        if (requests.load) {
            const std::optional<std::string> refused = applySession(loadSession(*requests.load));
            m_sessionOutcome = refused ? "Not loaded: " + *refused : "Loaded " + requests.load->string() + ".";
            m_sessionOutcomeIsError = refused.has_value();
        }
    } catch (const std::exception& error) { // SessionFileError or FileWriteError: one line naming the file
        m_sessionOutcome = error.what();
        m_sessionOutcomeIsError = true;
    }
}

SavedSession ViewerApp::currentSession() const {
    return {.params = m_session.simulation().params(),
            .camera = cameraStateOf(m_camera),
            .colorMode = m_session.colorMode(),
            .colorScale = m_session.colorScale(),
            .treeOverlay = m_treeOverlay,
            .orbOverlay = m_orbOverlay,
            .paused = m_session.paused(),
            .stepsPerFrame = m_session.stepsPerFrame(),
            .autoRefreshEnergy = m_session.autoRefreshEnergy()};
}

std::optional<std::string> ViewerApp::applySession(const SavedSession& session) {
    applyParams(session.params);
    if (!m_session.lastError().empty())
        return m_session.lastError();
    m_treeOverlay = session.treeOverlay;
    m_orbOverlay = session.orbOverlay;
    m_session.setColorScale(session.colorScale);
    m_session.setColorMode(session.colorMode); // orb-domain colours switch ORB on when it is off, as in the panel
    if (session.orbOverlay.showCells)
        m_session.showOrbDomains();
    m_session.setPaused(session.paused);
    m_session.setStepsPerFrame(session.stepsPerFrame.value_or(ViewerSettings{}.stepsPerFrame));
    m_session.setAutoRefreshEnergy(session.autoRefreshEnergy);
    if (session.camera)
        applyCameraState(*session.camera, m_camera);
    else
        refitCamera();
    return std::nullopt;
}

void ViewerApp::applyParams(const SimParams& requested) {
    m_inspector.markStale(); // G or softening change the potential; a solver change the acceleration
    if (m_session.applyParams(requested).reinitialised) {
        m_picked.reset(); // a point of the previous scene
        m_trails.clear();
        refitCamera();
    }
}

void ViewerApp::refitCamera() {
    const RenderTarget target = mainTarget();
    const float aspect =
        target.height > 0 ? static_cast<float>(target.width) / static_cast<float>(target.height) : 1.0f;
    m_sceneRadius = m_pipeline.fitCamera(m_session.simulation(), m_camera, aspect).radius;
}

void ViewerApp::toggleRecording() {
    const FramebufferSize size = m_window.framebufferSize();
    m_recorder.toggle(size.width, size.height);
}

RenderTarget ViewerApp::mainTarget() const {
    const FramebufferSize size = m_window.framebufferSize();
    const RenderTarget window{0, size.width, size.height};
    return m_comparison ? sideBySide(window)[0] : window;
}

} // namespace gravlab
