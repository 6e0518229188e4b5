// One headless frame into a PNG (see RenderPng.hpp).
//
// Design note: this is the headless mode's frame 0 (app/HeadlessRun.cpp) without its loop and session controller:
// the context first so that it outlives every GL object, then the frame pipeline and an offscreen target; the colour
// mode set on the simulation's visuals, the vertices pushed, the camera fitted to them, no overlays, one render, the
// pixels read back and written. Leaf-depth colours need an octree, which exists only after a force evaluation, so one
// is run first when the solver builds trees and none was built yet (the next step needs those forces anyway).
#include "RenderPng.hpp"

#include "FramePipeline.hpp"

#include <gravlab/render/HeadlessContext.hpp>
#include <gravlab/render/Image.hpp>
#include <gravlab/render/OffscreenTarget.hpp>

#include <sstream>

namespace gravlab::python {

std::string renderPng(Simulation& simulation, const std::filesystem::path& path, int width, int height,
                      ColorMode colorMode) {
    const HeadlessContext context;
    std::ostringstream log;
    FramePipeline pipeline(log);
    const OffscreenTarget target(width, height);

    if (colorMode == ColorMode::LeafDepth && findSolver(simulation.params().solver).drawsTreeCells &&
        !simulation.visuals().drawsTreeCells()) {
        Vec3Arrays<float> accelerations;
        simulation.backend().readAccelerations(simulation.params(), accelerations);
    }
    simulation.visuals().setColorMode(colorMode);
    pipeline.refreshVertices(simulation);
    OrbitCamera camera;
    pipeline.fitCamera(simulation, camera, static_cast<float>(width) / static_cast<float>(height));
    const TreeOverlaySettings noTreeCells;
    const OrbOverlaySettings noOrbCells;
    pipeline.updateOverlays(simulation, {.tree = noTreeCells,
                                         .orb = noOrbCells,
                                         .colorMode = colorMode,
                                         .pickedPoint = std::nullopt,
                                         .pickMarkerHalfSize = 0.0f});
    pipeline.render(camera, {target.framebuffer(), target.width(), target.height()});
    writePng(path, target.readPixels());
    return log.str();
}

} // namespace gravlab::python
