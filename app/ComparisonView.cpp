// The comparison's own picture, drawn into the right half (see ComparisonView.hpp).
#include "ComparisonView.hpp"

#include <gravlab/render/RenderMemory.hpp>

#include <cstdio>
#include <utility>

namespace gravlab {

std::array<RenderTarget, 2> sideBySide(const RenderTarget& whole) {
    const int leftWidth = whole.width / 2;
    return {RenderTarget{whole.framebuffer, leftWidth, whole.height, whole.x, whole.y},
            RenderTarget{whole.framebuffer, whole.width - leftWidth, whole.height, whole.x + leftWidth, whole.y}};
}

std::string runLabel(const SimParams& params) {
    char text[128];
    if (findSolver(params.solver).usesOpeningAngle)
        std::snprintf(text, sizeof(text), "%s, theta %.3g, dt %.3g", params.solver.c_str(), params.openingAngle,
                      params.timeStep);
    else
        std::snprintf(text, sizeof(text), "%s, dt %.3g", params.solver.c_str(), params.timeStep);
    return text;
}

ComparisonView::ComparisonView(const Simulation& main, const ComparisonChoice& choice, ComparisonCadence cadence,
                               ColorMode colorMode, std::ostream& log)
    : m_comparison(main, choice, std::move(cadence), renderMemory()), m_pipeline(log) {
    m_comparison.run().visuals().setColorMode(colorMode);
    refreshPicture();
    fitLook();
}

void ComparisonView::fitLook() {
    OrbitCamera scratch; // only the particle style is wanted; the shared camera is the caller's
    m_pipeline.fitCamera(m_comparison.run(), scratch, 1.0f);
}

void ComparisonView::refreshPicture() {
    m_pipeline.refreshVertices(m_comparison.run());
    m_pipeline.invalidateTreeOverlay();
    m_pipeline.invalidateOrbOverlay();
}

void ComparisonView::follow(const Simulation& main, ColorMode colorMode) {
    const int restartsBefore = m_comparison.restarts();
    bool stale = m_comparison.follow(main);
    if (m_comparison.run().visuals().colorMode() != colorMode) {
        m_comparison.run().visuals().setColorMode(colorMode);
        stale = true;
    }
    if (m_comparison.restarts() != restartsBefore) { // new bodies may mean a new scene size
        m_comparison.run().visuals().setColorMode(colorMode);
        fitLook();
    }
    if (stale)
        refreshPicture();
}

void ComparisonView::restart(const Simulation& main) {
    const ColorMode colorMode = m_comparison.run().visuals().colorMode();
    m_comparison.restart(main);
    m_comparison.run().visuals().setColorMode(colorMode);
    refreshPicture();
    fitLook();
}

void ComparisonView::draw(const OrbitCamera& camera, const RenderTarget& target, const OverlayView& view) {
    m_pipeline.updateOverlays(m_comparison.run(), view);
    m_pipeline.render(camera, target);
}

} // namespace gravlab
