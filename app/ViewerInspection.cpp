// The viewer's inspection and window ergonomics: the tracked bodies (inspector, follow, trails), the inspector and
// window panels, the error banner and screenshots. Member functions of ViewerApp kept apart from its frame loop.
//
// Design note: everything here names bodies by id. Once per frame trackBodies() asks the backend for the positions of
// the picked body and the trail bodies in one call (one pass over the bodies), only when the simulation stepped or the
// set of tracked bodies changed, so a paused view costs nothing. The pick's point moves with its body, so the pick
// marker, the octree path and the follow target stay on it. A screenshot reads the back buffer after the UI is drawn
// and before the swap, so it shows exactly the window, panels included.
#include "OutputFolder.hpp"
#include "ViewerApp.hpp"

#include <gravlab/render/Image.hpp>

#include <ctime>
#include <exception>
#include <span>
#include <utility>

namespace gravlab {

namespace {

/// Head colours of the trails, by trail: distinct hues that read on the black sky and next to the body palettes.
constexpr glm::vec4 kTrailColors[TrailHistory::kMaxTrails] = {
    {1.00f, 0.85f, 0.30f, 0.9f}, {0.40f, 0.90f, 1.00f, 0.9f}, {1.00f, 0.45f, 0.70f, 0.9f}, {0.55f, 1.00f, 0.45f, 0.9f},
    {0.75f, 0.60f, 1.00f, 0.9f}, {1.00f, 0.60f, 0.30f, 0.9f}, {0.90f, 0.90f, 0.90f, 0.9f}, {0.30f, 0.70f, 1.00f, 0.9f}};

} // namespace

void ViewerApp::trackBodies() {
    const Simulation& simulation = m_session.simulation();
    const std::optional<std::uint64_t> pickedId =
        m_picked ? std::optional<std::uint64_t>(m_picked->identity.id) : std::nullopt;
    if (m_inspector.trackedId() != pickedId) {
        m_inspector.track(pickedId);
        m_trackedAtStep.reset();
    }
    m_inspector.update(simulation);
    const std::uint64_t step = simulation.stepCount();
    if (m_trackedAtStep && step < *m_trackedAtStep)
        m_trails.clearSamples(); // a reset: the old path would jump to the start
    if (m_trackedAtStep == step)
        return;
    std::vector<std::uint64_t> ids = m_trails.ids();
    if (pickedId)
        ids.push_back(*pickedId);
    m_trackedAtStep = step;
    if (ids.empty()) {
        m_follow.setEnabled(false); // nothing picked: nothing to follow
        return;
    }
    const std::vector<std::optional<BodyPosition>> positions = simulation.backend().bodyPositions(ids);
    m_trails.record(std::span(positions).first(m_trails.size()));
    if (pickedId) {
        m_follow.update(m_camera, positions.back());
        if (positions.back()) {
            m_picked->position = *positions.back();
            m_picked->step = step;
        }
    } else {
        m_follow.setEnabled(false);
    }
}

void ViewerApp::drawTrails(const RenderTarget& target) {
    if (m_trails.empty() || target.width <= 0 || target.height <= 0)
        return;
    std::vector<std::vector<BodyPosition>> points(m_trails.size());
    std::vector<TrailStrip> strips;
    for (std::size_t k = 0; k < m_trails.size(); ++k) {
        m_trails.oldestFirst(k, points[k]);
        strips.push_back({points[k], kTrailColors[k % TrailHistory::kMaxTrails]});
    }
    const ParticleView view = particleViewFor(m_camera, target.width, target.height);
    m_trailRenderer.draw(strips, view.projection * view.view);
}

void ViewerApp::drawInspectionAndWindowPanels() {
    std::vector<BodyIdentity> trails;
    for (std::size_t k = 0; k < m_trails.size(); ++k)
        trails.push_back(m_trails.body(k));
    const InspectorPanelRequests inspectorRequests =
        drawInspectorPanel({.picked = m_picked ? std::optional<BodyIdentity>(m_picked->identity) : std::nullopt,
                            .reading = m_inspector.reading(),
                            .following = m_follow.enabled(),
                            .trails = trails,
                            .maxTrails = TrailHistory::kMaxTrails});
    const WindowPanelRequests windowRequests = drawWindowPanel({.uiScale = m_imgui.uiScale(),
                                                                .fullscreen = m_fullscreen.fullscreen(),
                                                                .screenshotFolder = m_screenshotFolder,
                                                                .screenshotMessage = m_screenshotMessage,
                                                                .screenshotFailed = m_screenshotFailed});
    m_errorBanner.draw({m_session.lastError(), m_fileMessageIsError ? m_fileMessage : std::string(),
                        m_sessionOutcomeIsError ? m_sessionOutcome : std::string(),
                        m_screenshotFailed ? m_screenshotMessage : std::string(), m_inspector.reading().error});
    m_imgui.keepWindowsOnScreen();
    m_imgui.endFrame();
    if (std::exchange(m_screenshotRequested, false) || windowRequests.screenshot)
        takeScreenshot();
    applyInspectorRequests(inspectorRequests);
    if (windowRequests.uiScale)
        m_imgui.setUiScale(*windowRequests.uiScale);
    if (windowRequests.fullscreen)
        m_fullscreen.setFullscreen(*windowRequests.fullscreen);
}

void ViewerApp::applyInspectorRequests(const InspectorPanelRequests& requests) {
    if (requests.follow) {
        m_follow.setEnabled(*requests.follow);
        m_trackedAtStep.reset();
    }
    if (requests.addTrail && m_picked)
        m_trails.add(m_picked->identity);
    if (requests.removeTrail)
        m_trails.remove(*requests.removeTrail);
    if (requests.clearTrails)
        m_trails.clear();
    if (requests.addTrail || requests.removeTrail || requests.clearTrails)
        m_trackedAtStep.reset();
}

void ViewerApp::takeScreenshot() {
    const FramebufferSize size = m_window.framebufferSize();
    if (size.width <= 0 || size.height <= 0)
        return; // minimised: no pixels
    try {
        prepareOutputFolder(m_screenshotFolder);
        const std::filesystem::path file = screenshotFileName(m_screenshotFolder, std::time(nullptr));
        writePng(file, m_screenshotReadback.read(0, size.width, size.height));
        m_screenshotMessage = "saved " + file.string();
        m_screenshotFailed = false;
    } catch (const std::exception& error) {
        m_screenshotMessage = std::string("screenshot not saved: ") + error.what();
        m_screenshotFailed = true;
    }
}

} // namespace gravlab
