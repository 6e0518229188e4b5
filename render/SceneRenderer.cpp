// Particle light, tone mapping and the overlays, composed into one frame.
#include <gravlab/render/SceneRenderer.hpp>

namespace gravlab {

ParticleView particleViewFor(const OrbitCamera& camera, int width, int height) {
    ParticleView view;
    view.view = camera.viewMatrix();
    view.projection = camera.projectionMatrix(static_cast<float>(width) / static_cast<float>(height));
    view.viewportHeight = static_cast<float>(height);
    view.verticalFieldOfView = camera.verticalFieldOfView();
    return view;
}

void SceneRenderer::render(const OrbitCamera& camera, const FrameLook& look, const RenderTarget& target,
                           DeviceParticleLight* deviceLight) {
    if (target.width <= 0 || target.height <= 0)
        return; // a minimised window has no pixels to draw
    const ParticleView view = particleViewFor(camera, target.width, target.height);
    // Splatted before the HDR buffer is bound, so GL's work of this frame waits for the light only where it reads it.
    const GLuint splattedLight =
        deviceLight ? deviceLight->splat(view, look.particles, look.palette, target.width, target.height) : 0;
    m_toneMapper.beginFrame(target.width, target.height);
    if (deviceLight)
        m_toneMapper.addLight(splattedLight);
    else
        m_particles.draw(view, look.particles, look.palette, look.particleStride);
    glScissor(target.x, target.y, target.width, target.height);
    glEnable(GL_SCISSOR_TEST);
    m_toneMapper.resolve(target.framebuffer, {target.x, target.y}, look.exposure);
    // After tone mapping, into the target: see WireBoxes.hpp's design note.
    const glm::mat4 viewProjection = view.projection * view.view;
    m_orbOverlay.draw(m_boxes, viewProjection, look.orbOverlay);
    m_treeOverlay.draw(m_boxes, viewProjection, look.treeOverlay);
    glDisable(GL_SCISSOR_TEST);
}

} // namespace gravlab
