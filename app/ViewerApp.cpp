// The interactive viewer: input, stepping, drawing and the panel's requests.
#include "ViewerApp.hpp"

#include <GLFW/glfw3.h>
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

} // namespace

ViewerApp::ViewerApp(Simulation& simulation, const ViewerSettings& settings)
    : m_window(windowSettingsFrom(settings)), m_events(m_window.handle()), m_imgui(m_window.handle()),
      m_feed(std::cerr), m_simulation(simulation), m_stepsPerFrame(settings.stepsPerFrame) {
    m_feed.update(m_simulation.backend(), m_simulation.bodyCount(), m_scene.particles());
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
        m_feed.update(m_simulation.backend(), m_simulation.bodyCount(), m_scene.particles());
        m_verticesStale = false;
    }
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
                                   .backendDescription = backendDescription,
                                   .rendererDescription = m_window.description(),
                                   .vertexPath = m_feed.path(),
                                   .lastStepTimings = timings,
                                   .energy = energy,
                                   .autoRefreshEnergy = m_autoRefreshEnergy,
                                   .lastError = m_lastError};
    const SimulationPanelRequests requests = m_panel.draw(view);
    m_imgui.endFrame();
    applyPanelRequests(requests);
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

void ViewerApp::applyParams(const SimParams& params) {
    const SimParams before = m_simulation.params();
    const bool reinitialises =
        params.scenario != before.scenario || params.bodyCount != before.bodyCount || params.seed != before.seed;
    try {
        m_simulation.setParams(params);
        if (reinitialises) // the vertex buffer grows here, and may not fit on the GPU
            m_feed.update(m_simulation.backend(), m_simulation.bodyCount(), m_scene.particles());
        m_lastError.clear();
    } catch (const std::exception& error) {
        // Invalid values, an unavailable backend or a body count the GPU cannot draw: go back to what ran before.
        m_lastError = error.what();
        m_simulation.setParams(before);
        m_verticesStale = true;
        return;
    }
    m_verticesStale = !reinitialises;
    if (reinitialises) {
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
    m_verticesStale = true;
    m_energy.reset();
    measureEnergyIfCheap();
}

void ViewerApp::refitCamera() {
    const SceneBounds bounds = robustBounds(m_feed.copyToHost(m_simulation.backend(), m_simulation.bodyCount()));
    const FramebufferSize size = m_window.framebufferSize();
    const float aspect = size.height > 0 ? static_cast<float>(size.width) / static_cast<float>(size.height) : 1.0f;
    m_camera.fit(bounds, aspect);
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
