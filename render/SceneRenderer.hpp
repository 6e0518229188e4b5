#pragma once
// One frame of the scene: particle light into the HDR buffer, tone-mapped into a target framebuffer, then the octree
// overlay's cell edges blended on top.
//
// Design note: the window and the headless path draw through this same object, so the PNG frames show exactly what
// the window shows and the render tests exercise the real path. It owns the GL objects of a frame and nothing about
// the simulation: the caller fills particles() (CPU upload or CUDA interop) and treeOverlay() (TreeOverlayFeed) and
// supplies the camera.
#include "OrbitCamera.hpp"
#include "ParticleRenderer.hpp"
#include "ToneMapper.hpp"
#include "TreeOverlayRenderer.hpp"

namespace gravlab {

/// A framebuffer to draw into and its size in pixels; framebuffer 0 is the window's.
struct RenderTarget {
    GLuint framebuffer = 0;
    int width = 0;
    int height = 0;
};

/// How a frame looks, apart from the camera.
struct FrameLook {
    ParticleStyle particles;
    float exposure = 1.0f; ///< scales light before tone mapping; 1 suits particleStyleFor()
    TreeOverlayStyle treeOverlay;
};

class SceneRenderer {
public:
    ParticleRenderer& particles() { return m_particles; }
    const ParticleRenderer& particles() const { return m_particles; }
    TreeOverlayRenderer& treeOverlay() { return m_treeOverlay; }
    const TreeOverlayRenderer& treeOverlay() const { return m_treeOverlay; }

    /// Draws the particles, then the tree overlay's cells (if any), seen by camera into target (all of it).
    void render(const OrbitCamera& camera, const FrameLook& look, const RenderTarget& target);

private:
    ParticleRenderer m_particles;
    ToneMapper m_toneMapper;
    TreeOverlayRenderer m_treeOverlay;
};

/// The view matrices and viewport facts the particle shader needs, for camera looking at a target of this size.
ParticleView particleViewFor(const OrbitCamera& camera, int width, int height);

} // namespace gravlab
