// Feeding the frame from the simulation and drawing it (see FramePipeline.hpp).
#include "FramePipeline.hpp"

#include <gravlab/render/BoxClipping.hpp>
#include <gravlab/render/ColorPalettes.hpp>

namespace gravlab {

FramePipeline::FramePipeline(std::ostream& log) : m_vertices(log) {}

void FramePipeline::refreshVertices(const Simulation& simulation) {
    m_vertices.update(simulation.visuals(), m_scene.particles());
}

SceneBounds FramePipeline::fitCamera(const Simulation& simulation, OrbitCamera& camera, float aspect) {
    const SceneBounds bounds = robustBounds(hostVertices(simulation));
    fitCamera(bounds, simulation.bodyCount(), camera, aspect);
    return bounds;
}

void FramePipeline::fitCamera(const SceneBounds& bounds, std::size_t bodyCount, OrbitCamera& camera, float aspect) {
    camera.fit(bounds, aspect);
    m_orbFocus = bounds;
    m_look.particles = particleStyleFor(bodyCount, bounds.radius);
}

void FramePipeline::updateOverlays(const Simulation& simulation, const OverlayView& view) {
    updateTreeOverlay(simulation, view);
    updateOrbOverlay(simulation, view);
    m_look.palette = bodyPaletteFor(view.colorMode, simulation.visuals().orbStatus().domainCount > 0);
}

void FramePipeline::updateTreeOverlay(const Simulation& simulation, const OverlayView& view) {
    TreeOverlayRenderer& overlay = m_scene.treeOverlay();
    m_look.treeOverlay.opacity = view.tree.opacity;
    std::optional<TreeCellBox> marker;
    if (view.pickedPoint)
        marker = TreeCellBox{(*view.pickedPoint)[0], (*view.pickedPoint)[1], (*view.pickedPoint)[2],
                             view.pickMarkerHalfSize, 0};
    overlay.setMarker(marker);
    if (!view.tree.enabled || (view.tree.onlyPickedPath && !view.pickedPoint)) {
        m_treeCells.clear(overlay);
        return;
    }
    m_treeCells.update(simulation.visuals(), treeCellQueryFor(view.tree, view.pickedPoint), overlay);
}

void FramePipeline::updateOrbOverlay(const Simulation& simulation, const OverlayView& view) {
    m_look.orbOverlay.opacity = view.orb.opacity;
    if (view.orb.showCells) {
        // Fresh cells get a fresh region, from a sample of the vertices when they are already on the host.
        if (m_orbCells.stale())
            if (const auto vertices = m_vertices.hostVertices())
                m_orbFocus = robustBounds(*vertices);
        m_orbCells.update(simulation.visuals(), view.orb.innerCells, m_scene.orbOverlay(),
                          regionOfInterest(m_orbFocus));
    } else if (m_scene.orbOverlay().boxCount() > 0) {
        m_orbCells.clear(m_scene.orbOverlay());
    }
}

void FramePipeline::render(const OrbitCamera& camera, const RenderTarget& target, bool stepInFlight) {
    const std::size_t bodies = m_scene.particles().vertexCount();
    DeviceParticleLight* splat = m_vertices.deviceLight();
    m_look.particleStride = 1;
    if (stepInFlight && splat && bodies > kMaxBodiesDrawnWhileStepping) {
        splat = nullptr;
        m_look.particleStride = (bodies + kMaxBodiesDrawnWhileStepping - 1) / kMaxBodiesDrawnWhileStepping;
    }
    m_scene.render(camera, m_look, target, splat);
}

std::span<const RenderVertex> FramePipeline::hostVertices(const Simulation& simulation) {
    return m_vertices.copyToHost(simulation.visuals());
}

} // namespace gravlab
