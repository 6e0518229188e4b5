// The interactive viewer: input, stepping, drawing and the panel's requests.
#include "ViewerApp.hpp"

#include <BodyPicking.hpp>
#include <GLFW/glfw3.h>
#include <algorithm>
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

double secondsSince(std::chrono::steady_clock::time_point then) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - then).count();
}

/// Half the side of the box marking the picked body, as a fraction of the scene radius: visible around a single
/// star at the default framing, small next to the galaxy.
constexpr float kPickMarkerScale = 0.015f;

} // namespace

ViewerApp::ViewerApp(Simulation& simulation, const ViewerSettings& settings)
    : m_window(windowSettingsFrom(settings)), m_events(m_window.handle()), m_imgui(m_window.handle()),
      m_feed(std::cerr), m_simulation(simulation), m_stepsPerFrame(settings.stepsPerFrame),
      m_colorMode(settings.colorMode), m_treeOverlay(settings.treeOverlay), m_orbOverlay(settings.orbOverlay) {
    m_look.treeOverlay.opacity = m_treeOverlay.opacity;
    m_look.orbOverlay.opacity = m_orbOverlay.opacity;
    m_onCudaBackend = cudaBackendWouldBeChosen(m_simulation.params());
    m_simulation.visuals().setColorMode(m_colorMode);
    m_feed.update(m_simulation.visuals(), m_scene.particles());
    m_verticesStale = false;
    refitCamera();
    measureEnergyIfCheap();
}

void ViewerApp::run() {
    while (!m_window.shouldClose()) {
        m_window.pollEvents();
        handleInput();
        advanceSimulation();
        drawFrame();
        m_window.swapBuffers();
    }
}

void ViewerApp::handleInput() {
    const bool uiWantsMouse = m_imgui.wantsMouse();
    m_cameraInput.onPointer(m_events.pointer(), uiWantsMouse, m_events.windowHeight(), m_camera);
    m_cameraInput.onScroll(m_events.takeScrollSteps(), uiWantsMouse, m_camera);
    for (const MouseButtonEvent& event : m_events.takeButtonEvents())
        if (const std::optional<glm::vec2> click = m_pickGesture.onButton(event, uiWantsMouse))
            pickAt(*click);
    const bool uiWantsKeyboard = m_imgui.wantsKeyboard();
    for (const int key : m_events.takeKeyPresses())
        if (!uiWantsKeyboard)
            handleKey(key);
}

void ViewerApp::handleKey(int key) {
    switch (key) {
    case GLFW_KEY_SPACE:
        m_paused = !m_paused;
        break;
    case GLFW_KEY_S:
    case GLFW_KEY_N:
        stepOnce();
        break;
    case GLFW_KEY_R:
        resetSimulation();
        break;
    case GLFW_KEY_F:
        refitCamera();
        break;
    case GLFW_KEY_ESCAPE:
        m_window.requestClose();
        break;
    default:
        break;
    }
}

void ViewerApp::pickAt(const glm::vec2& cursor) {
    const FramebufferSize size = m_window.framebufferSize();
    if (size.width <= 0 || size.height <= 0)
        return;
    // The vertices on the host are those of the frame on screen: input is handled before the simulation steps.
    const ParticleView view = particleViewFor(m_camera, size.width, size.height);
    PickRequest request;
    request.viewProjection = view.projection * view.view;
    request.cursor = cursor;
    request.viewportSize = m_events.windowSize();
    const std::optional<PickedBody> picked =
        pickNearestBody(m_feed.copyToHost(m_simulation.visuals()), request);
    if (picked)
        m_picked = PickedPoint{{picked->position.x, picked->position.y, picked->position.z}, m_simulation.stepCount()};
    else
        m_picked.reset();
}

void ViewerApp::advanceSimulation() {
    if (!m_paused) {
        try {
            m_simulation.step(m_stepsPerFrame);
            m_verticesStale = true;
        } catch (const NonFiniteStateError& error) {
            // The simulation rolled back to its last finite state; pause so the user can lower dt and go on.
            m_paused = true;
            m_lastError = std::string(error.what()) + " Paused: lower dt, then press Space.";
        }
    }
    refreshEnergyIfDue();
    if (m_verticesStale) {
        m_feed.update(m_simulation.visuals(), m_scene.particles());
        m_overlayFeed.invalidate(); // whatever made the vertices stale may have rebuilt the tree
        m_orbFeed.invalidate();     // ... or re-partitioned the domains
        m_verticesStale = false;
    }
    updateTreeOverlay();
    updateOrbOverlay();
}

void ViewerApp::updateTreeOverlay() {
    TreeOverlayRenderer& overlay = m_scene.treeOverlay();
    std::optional<TreeCellBox> marker;
    if (m_picked)
        marker = TreeCellBox{m_picked->position[0], m_picked->position[1], m_picked->position[2],
                             kPickMarkerScale * m_sceneRadius, 0};
    overlay.setMarker(marker);
    if (!m_treeOverlay.enabled || (m_treeOverlay.onlyPickedPath && !m_picked)) {
        m_overlayFeed.clear(overlay);
        return;
    }
    std::optional<std::array<float, 3>> pickedPoint;
    if (m_picked)
        pickedPoint = m_picked->position;
    m_overlayFeed.update(m_simulation.visuals(), treeCellQueryFor(m_treeOverlay, pickedPoint), overlay);
}

void ViewerApp::updateOrbOverlay() {
    m_look.palette = bodyPaletteFor(m_colorMode, m_simulation.visuals().orbStatus().domainCount > 0);
    if (m_orbOverlay.showCells) {
        // Fresh cells get a fresh region: on the host-copy path from a sample of the vertices already on the host;
        // with interop the camera fit's bounds are kept, since reading the vertices back would cost a full copy.
        if (m_orbFeed.stale())
            if (const auto vertices = m_feed.hostVertices())
                m_orbFocus = robustBounds(*vertices);
        m_orbFeed.update(m_simulation.visuals(), m_orbOverlay.innerCells, m_scene.orbOverlay(),
                         regionOfInterest(m_orbFocus));
    }
    else if (m_scene.orbOverlay().boxCount() > 0)
        m_orbFeed.clear(m_scene.orbOverlay());
}

void ViewerApp::drawFrame() {
    const FramebufferSize size = m_window.framebufferSize();
    m_scene.render(m_camera, m_look, {0, size.width, size.height});

    m_imgui.beginFrame();
    const std::vector<PhaseTiming> timings = m_simulation.backend().lastStepTimings();
    const std::string backendDescription = m_simulation.backend().description();
    std::optional<EnergyReading> energy;
    if (m_energy)
        energy = EnergyReading{m_energy->relativeDrift, m_energy->simulationTime, secondsSince(m_energy->computedAt),
                               m_energy->computeSeconds};
    const SimulationPanelView view{.params = m_simulation.params(),
                                   .time = m_simulation.time(),
                                   .stepCount = m_simulation.stepCount(),
                                   .bodyCount = m_simulation.bodyCount(),
                                   .paused = m_paused,
                                   .stepsPerFrame = m_stepsPerFrame,
                                   .onCudaBackend = m_onCudaBackend,
                                   .backendDescription = backendDescription,
                                   .rendererDescription = m_window.description(),
                                   .vertexPath = m_feed.path(),
                                   .lastStepTimings = timings,
                                   .energy = energy,
                                   .autoRefreshEnergy = m_autoRefreshEnergy,
                                   .lastError = m_lastError};
    const SimulationPanelRequests requests = m_panel.draw(view);
    const TreeOverlayPanelRequests overlayRequests = drawTreeOverlayPanel({.settings = m_treeOverlay,
                                                                           .colorMode = m_colorMode,
                                                                           .solver = m_simulation.params().solver,
                                                                           .picked = m_picked,
                                                                           .cellCount = m_overlayFeed.cellCount(),
                                                                           .capped = m_overlayFeed.capped()});
    const OrbPanelRequests orbRequests = m_orbPanel.draw({.orb = m_simulation.params().orb,
                                                          .bodyCount = m_simulation.bodyCount(),
                                                          .overlay = m_orbOverlay,
                                                          .status = m_simulation.visuals().orbStatus(),
                                                          .boxCount = m_scene.orbOverlay().boxCount()});
    m_imgui.endFrame();
    applyPanelRequests(requests);
    applyTreeOverlayRequests(overlayRequests);
    applyOrbPanelRequests(orbRequests);
}

void ViewerApp::applyPanelRequests(const SimulationPanelRequests& requests) {
    if (requests.params)
        applyParams(*requests.params);
    if (requests.togglePause)
        m_paused = !m_paused;
    if (requests.stepOnce)
        stepOnce();
    if (requests.reset)
        resetSimulation();
    if (requests.fitCamera)
        refitCamera();
    if (requests.autoRefreshEnergy)
        m_autoRefreshEnergy = *requests.autoRefreshEnergy;
    if (requests.refreshEnergy)
        measureEnergy();
}

void ViewerApp::applyTreeOverlayRequests(const TreeOverlayPanelRequests& requests) {
    if (requests.settings) {
        m_treeOverlay = *requests.settings; // a changed query is noticed by m_overlayFeed
        m_look.treeOverlay.opacity = m_treeOverlay.opacity;
    }
    if (requests.clearPick)
        m_picked.reset();
    if (requests.colorMode) {
        m_colorMode = *requests.colorMode;
        applyColorMode();
        if (m_colorMode == ColorMode::OrbDomain)
            switchOrbOnIfOff();
    }
}

void ViewerApp::applyOrbPanelRequests(const OrbPanelRequests& requests) {
    if (requests.overlay) {
        const bool cellsSwitchedOn = requests.overlay->showCells && !m_orbOverlay.showCells;
        m_orbOverlay = *requests.overlay; // a change of inner cells is noticed by m_orbFeed
        m_look.orbOverlay.opacity = m_orbOverlay.opacity;
        if (cellsSwitchedOn)
            switchOrbOnIfOff();
    }
    if (requests.orb) {
        SimParams params = m_simulation.params();
        params.orb = *requests.orb;
        applyParams(params);
    }
}

void ViewerApp::switchOrbOnIfOff() {
    if (m_simulation.params().orb.domainCount > 0)
        return;
    SimParams params = m_simulation.params();
    params.orb.domainCount = defaultOrbDomainCount(m_simulation.bodyCount());
    applyParams(params);
}

void ViewerApp::applyColorMode() {
    m_simulation.visuals().setColorMode(m_colorMode);
    m_verticesStale = true;
}

void ViewerApp::applyParams(const SimParams& requested) {
    const SimParams before = m_simulation.params();
    // Fewer bodies than ORB domains is refused by validation; lowering N should not be, so the domains follow it.
    SimParams params = requested;
    params.orb.domainCount =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(params.orb.domainCount, params.bodyCount));
    const bool reinitialises =
        params.scenario != before.scenario || params.bodyCount != before.bodyCount || params.seed != before.seed;
    try {
        m_simulation.setParams(params);
        // The backend may be a new one (a backend switch), which starts in its default colour mode.
        m_simulation.visuals().setColorMode(m_colorMode);
        if (reinitialises) // the vertex buffer grows here, and may not fit on the GPU
            m_feed.update(m_simulation.visuals(), m_scene.particles());
        m_lastError.clear();
    } catch (const std::exception& error) {
        // Invalid values, an unavailable backend or a body count the GPU cannot draw: go back to what ran before.
        m_lastError = error.what();
        m_simulation.setParams(before);
        applyColorMode();
        return;
    }
    m_onCudaBackend = cudaBackendWouldBeChosen(m_simulation.params());
    m_overlayFeed.invalidate(); // a solver switch may have dropped the tree, or there is a new one
    m_orbFeed.invalidate();     // new ORB settings, or a new backend whose domains start empty
    m_verticesStale = !reinitialises;
    if (reinitialises) {
        m_picked.reset(); // a point of the previous scene
        refitCamera();
        m_energy.reset(); // the last measurement's cost says nothing about the new body count
    }
    if (reinitialises || params.softeningLength != before.softeningLength ||
        params.gravitationalConstant != before.gravitationalConstant)
        measureEnergyIfCheap(); // a new baseline: the energy function itself changed
}

void ViewerApp::stepOnce() {
    m_paused = true;
    try {
        m_simulation.step(1);
        m_verticesStale = true;
    } catch (const NonFiniteStateError& error) {
        m_lastError = std::string(error.what()) + " Lower dt, then step again.";
    }
}

void ViewerApp::resetSimulation() {
    m_simulation.reset();
    m_lastError.clear();
    applyColorMode();
    m_energy.reset();
    measureEnergyIfCheap();
}

void ViewerApp::refitCamera() {
    const SceneBounds bounds = robustBounds(m_feed.copyToHost(m_simulation.visuals()));
    const FramebufferSize size = m_window.framebufferSize();
    const float aspect = size.height > 0 ? static_cast<float>(size.width) / static_cast<float>(size.height) : 1.0f;
    m_camera.fit(bounds, aspect);
    m_sceneRadius = bounds.radius;
    m_orbFocus = bounds;
    m_look.particles = particleStyleFor(m_simulation.bodyCount(), bounds.radius);
}

void ViewerApp::measureEnergy() {
    const auto start = std::chrono::steady_clock::now();
    const Diagnostics diagnostics = m_simulation.diagnostics();
    m_energy = EnergyMeasurement{m_simulation.relativeEnergyDrift(diagnostics), m_simulation.time(),
                                 secondsSince(start), std::chrono::steady_clock::now()};
}

bool ViewerApp::energyIsCheap() const {
    if (m_energy)
        return m_energy->computeSeconds < kMaxAutomaticMeasureSeconds;
    return m_simulation.bodyCount() <= kEagerEnergyBaselineMaxBodies;
}

void ViewerApp::measureEnergyIfCheap() {
    if (energyIsCheap())
        measureEnergy();
    else
        m_energy.reset();
}

void ViewerApp::refreshEnergyIfDue() {
    const bool due = !m_energy || secondsSince(m_energy->computedAt) >= kEnergyRefreshSeconds;
    if (m_autoRefreshEnergy && !m_paused && due && energyIsCheap())
        measureEnergy();
}

} // namespace gravlab
