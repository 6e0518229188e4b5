#pragma once
// One frame of the scene: particle light into the HDR buffer, tone-mapped into a target framebuffer, then the ORB
// cells' and the octree overlay's edges blended on top.
//
// Design note: the window and the headless path draw through this same object, so the PNG frames show exactly what
// the window shows and the render tests exercise the real path. It owns the GL objects of a frame and nothing about
// the simulation: the caller fills particles() (CPU upload or CUDA interop), orbOverlay() (OrbCellFeed) and
// treeOverlay() (TreeOverlayFeed) and supplies the camera. Both overlays draw through one WireBoxRenderer; the octree
// overlay comes last so that the picked body's marker lies on top of everything.
#include <gravlab/render/ColorPalettes.hpp>
#include <gravlab/render/DeviceParticleLight.hpp>
#include <gravlab/render/OrbOverlayRenderer.hpp>
#include <gravlab/render/OrbitCamera.hpp>
#include <gravlab/render/ParticleRenderer.hpp>
#include <gravlab/render/ToneMapper.hpp>
#include <gravlab/render/TreeOverlayRenderer.hpp>
#include <gravlab/render/WireBoxes.hpp>

namespace gravlab {

/// A rectangle of a framebuffer to draw into, in pixels; framebuffer 0 is the window's. The offset places the picture
/// in part of the framebuffer (a split view draws two pictures side by side); pixels outside it are left untouched.
struct RenderTarget {
    GLuint framebuffer = 0;
    int width = 0;
    int height = 0;
    int x = 0; ///< left edge of the rectangle, pixels from the framebuffer's left
    int y = 0; ///< bottom edge of the rectangle, pixels from the framebuffer's bottom (GL's convention)
};

/// How a frame looks, apart from the camera.
struct FrameLook {
    ParticleStyle particles;
    /// How body colour scalars become colours: bodyPaletteFor(colour mode, ORB active).
    BodyPalette palette = BodyPalette::CoolWarm;
    float exposure = 1.0f; ///< scales light before tone mapping; 1 suits particleStyleFor()
    /// Draw every k-th body, k times as bright, through GL (ParticleRenderer::draw); 1: every body.
    std::size_t particleStride = 1;
    TreeOverlayStyle treeOverlay;
    OrbOverlayStyle orbOverlay;
};

class SceneRenderer {
public:
    ParticleRenderer& particles() { return m_particles; }
    const ParticleRenderer& particles() const { return m_particles; }
    TreeOverlayRenderer& treeOverlay() { return m_treeOverlay; }
    const TreeOverlayRenderer& treeOverlay() const { return m_treeOverlay; }
    OrbOverlayRenderer& orbOverlay() { return m_orbOverlay; }
    const OrbOverlayRenderer& orbOverlay() const { return m_orbOverlay; }

    /// Draws the particles, then the ORB cells and the tree overlay's cells (if any), seen by camera into target's
    /// rectangle (clipped to it, so a wide line at its edge does not spill into a neighbour). With deviceLight the
    /// particles are splatted by it instead of drawn from particles()' buffer.
    void render(const OrbitCamera& camera, const FrameLook& look, const RenderTarget& target,
                DeviceParticleLight* deviceLight = nullptr);

private:
    ParticleRenderer m_particles;
    ToneMapper m_toneMapper;
    WireBoxRenderer m_boxes;
    TreeOverlayRenderer m_treeOverlay;
    OrbOverlayRenderer m_orbOverlay;
};

/// The view matrices and viewport facts the particle shader needs, for camera looking at a target of this size.
ParticleView particleViewFor(const OrbitCamera& camera, int width, int height);

} // namespace gravlab
