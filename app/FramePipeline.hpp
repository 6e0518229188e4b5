#pragma once
// The one frame pipeline of the window and the headless modes: the simulation's bodies and overlays into GL, and the
// scene drawn into a target.
//
// Design note: a frame, in both modes, is: SessionController::advanceFrame() (steps; through the FrameSink interface
// implemented here it pushes the vertices when stale and marks the overlays stale; in the window the steps run on a
// worker and the push happens in the frame that finds them finished, BackgroundStepper) -> updateOverlays() (octree
// cells through TreeOverlayFeed, which queries the backend only when marked stale or when the query changed; ORB cells
// through OrbCellFeed, at most one collection per frame; the bodies' palette from the colour mode and whether ORB
// runs, as bodyPaletteFor picks it) -> render() into the window's framebuffer or an offscreen target. The window then
// draws ImGui on top and swaps; headless reads the pixels back. What each overlay shows is the caller's view choice
// (OverlayView: the window's panels and pick, or the headless flags); what went stale is the controller's decision.
// Vertices take CUDA-GL interop when possible, else a host copy (BodyVertexFeed). ORB boxes are clipped around a
// region of interest re-estimated from the host copy of the vertices whenever fresh cells are collected; on the
// interop path the camera fit's bounds are kept, since reading the vertices back would cost a full copy.
// It owns GL objects, so a GL context must be current for its whole life.
#include "ViewSettings.hpp"
#include "session/FrameSink.hpp"

#include <gravlab/render/BodyVertexFeed.hpp>
#include <gravlab/render/OrbCellFeed.hpp>
#include <gravlab/render/SceneBounds.hpp>
#include <gravlab/render/SceneRenderer.hpp>
#include <gravlab/render/TreeOverlayFeed.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <array>
#include <cstddef>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>

namespace gravlab {

/// What the overlays show this frame: the view's choices.
struct OverlayView {
    const TreeOverlaySettings& tree;
    const OrbOverlaySettings& orb;
    ColorMode colorMode = ColorMode::Component;
    /// The picked point: the tree query's point when tree.onlyPickedPath, and the centre of the marker box.
    std::optional<std::array<float, 3>> pickedPoint;
    float pickMarkerHalfSize = 0; ///< N-body length units
};

class FramePipeline final : public FrameSink {
public:
    /// log receives the one line saying CUDA-GL interop is unavailable, if it is.
    explicit FramePipeline(std::ostream& log);

    void refreshVertices(const Simulation& simulation) override;
    void invalidateTreeOverlay() override { m_treeCells.invalidate(); }
    void invalidateOrbOverlay() override { m_orbCells.invalidate(); }

    /// Fits camera to the bodies' robust bounds for a target of width / height aspect, sizes the particles to match
    /// and returns the bounds.
    SceneBounds fitCamera(const Simulation& simulation, OrbitCamera& camera, float aspect);
    /// The same fit to bounds already measured (by the caller, from hostVertices()), so no second copy is made.
    void fitCamera(const SceneBounds& bounds, std::size_t bodyCount, OrbitCamera& camera, float aspect);
    /// Brings both overlays and the bodies' palette up to date for view.
    void updateOverlays(const Simulation& simulation, const OverlayView& view);
    /// Draws the bodies and the overlays seen by camera into target.
    /// stepInFlight: a step is running on the GPU now (the window's background stepping). A large run is then drawn
    /// from the vertex buffer by GL, at most kMaxBodiesDrawnWhileStepping of its bodies (each k-th, k times as
    /// bright), instead of splatted by CUDA: the splat would queue behind the step's kernels and hold the view to the
    /// step's rate, while GL gets its own slices of the GPU. The full picture returns when the step is done.
    void render(const OrbitCamera& camera, const RenderTarget& target, bool stepInFlight = false);

    /// Bodies drawn while a step is in flight (see render()): about 5 ms of GL points on an H100.
    static constexpr std::size_t kMaxBodiesDrawnWhileStepping = std::size_t{1} << 20;

    /// The vertices of the frame on screen, on the host (a device copy on the interop path).
    std::span<const RenderVertex> hostVertices(const Simulation& simulation);
    /// The vertices of the frame on screen when they are already on the host (host-copy path); nullopt on the interop
    /// path, where hostVertices() would cost a full copy.
    std::optional<std::span<const RenderVertex>> hostVerticesIfFree() const { return m_vertices.hostVertices(); }
    /// How positions reach the vertex buffer, for the panel and the summary.
    const std::string& vertexPath() const { return m_vertices.path(); }
    const TreeOverlayFeed& treeCells() const { return m_treeCells; }
    const SceneRenderer& scene() const { return m_scene; }

private:
    void updateTreeOverlay(const Simulation& simulation, const OverlayView& view);
    void updateOrbOverlay(const Simulation& simulation, const OverlayView& view);

    SceneRenderer m_scene;
    BodyVertexFeed m_vertices;
    TreeOverlayFeed m_treeCells;
    OrbCellFeed m_orbCells;
    FrameLook m_look;
    SceneBounds m_orbFocus; ///< robust bounds the ORB boxes are clipped around (regionOfInterest)
};

} // namespace gravlab
