#pragma once
// The OpenGL 4.5 compute backend: the direct sum and the KDK leapfrog on any GPU with a GL 4.5 driver (Intel and AMD
// laptops, where CUDA is absent), with the bodies in shader storage buffers.
//
// Design note: the state lives where it is stepped, in three storage buffers of vec4 per body (position and mass;
// velocity and colour key; acceleration), the CUDA backend's float4 layout, so each force-loop load is one 16-byte
// record and the colour key travels with the velocity. A step is dispatches only: kick, drift, the tiled direct sum
// (shaders/compute/direct_forces.comp, split into dispatches of at most 2^20 targets so a watchdog never takes one
// for a hung GPU), kick, with a storage barrier between dependent dispatches. The accelerations
// are cached with the G and softening they were computed with, so consecutive KDK steps need one evaluation each.
// Every step() call first copies positions and velocities on the GPU (glCopyNamedBufferSubData) and ends with one
// dispatch counting non-finite bodies, whose 4-byte result is the one read-back per call: a step that blew up puts the
// copies back and throws NonFiniteStateError, as the other backends do (naming the call's last step: which of its
// steps blew up is not read back, to keep one read-back per call). Phase times are wall clock bounded by
// glFinish, so they are the GPU's time, not the driver's queueing. Ids and components never change here (no ORB), so
// they stay on the host. What is drawn is written by one more dispatch straight into the renderer's vertex buffer
// (VisualSource::writeVerticesToGlBuffer): no copy through the host. Diagnostics, potentials and inspection use the
// base class's defaults (a read-back to the host, then the CPU's fp64 code), which are on-demand, not per frame.
// Thread and context rule: construct, call and destroy it on the one thread where the GL context it was made in is
// current (GlCompute.hpp); it owns GL objects, so it must die before that context.
#include "compute/ComputeKernel.hpp"

#include <gravlab/render/GlCompute.hpp>
#include <gravlab/render/GlObjects.hpp>

#include <cstdint>
#include <vector>

namespace gravlab {

class GlComputeBackend final : public SimulationBackend {
public:
    /// In the current context, which support describes; why: a note for description(). Throws ShaderBuildError when
    /// the driver rejects a shader.
    GlComputeBackend(GlComputeSupport support, std::string why);

    std::string description() const override;
    Device device() const override { return Device::Gl; }
    /// Keeps the float parts of bodies carrying low parts (the state is float). Throws GlComputeUnavailableError
    /// (and keeps the previous state) when the bodies exceed a storage buffer or the GPU's memory.
    void load(const Bodies& bodies) override;
    /// Single precision only: double throws InvalidParameterError (GlBackendParams.hpp).
    void setPrecision(Precision precision) override;
    void step(const SimParams& params, int stepCount) override;
    void reverseVelocities() override;
    void readBodies(Bodies& out) const override;
    BodyIdentity bodyIdentity(std::size_t index) const override;
    Diagnostics diagnostics(const SimParams& params) const override;
    void readAccelerations(const SimParams& params, Vec3Arrays<float>& out) override;
    std::vector<PhaseTiming> lastStepTimings() const override { return m_lastTimings; }
    VisualSource& visuals() override { return m_visuals; }
    const VisualSource& visuals() const override { return m_visuals; }

    GlComputeBackend(const GlComputeBackend&) = delete;
    GlComputeBackend& operator=(const GlComputeBackend&) = delete;

private:
    /// G and softening of the cached accelerations.
    struct ForceSettings {
        double gravitationalConstant = 0;
        double softeningLength = 0;
        bool operator==(const ForceSettings&) const = default;
    };

    /// The backend's buffers, replaced together by load().
    struct StateBuffers {
        GlBuffer positions, velocities, accelerations;
        GlBuffer savedPositions, savedVelocities; ///< the state at the start of the step() call, for the rollback
    };

    /// What is drawn: vertices by a dispatch into the renderer's buffer, in the colour key (component colours).
    class Visuals final : public VisualSource {
    public:
        explicit Visuals(const GlComputeBackend& backend) : m_backend(backend) {}
        std::size_t vertexCount() const override { return m_backend.m_bodyCount; }
        void writeVertices(std::span<RenderVertex> out) const override;
        bool canWriteVerticesToGlBuffer() const override { return true; }
        void writeVerticesToGlBuffer(GlBufferName buffer, std::size_t capacity) const override;
        void setColorMode(ColorMode mode) override { m_mode = mode; }
        ColorMode colorMode() const override { return m_mode; }
        ColorScale colorScale(const UnitSystem& units) const override;

    private:
        const GlComputeBackend& m_backend;
        ColorMode m_mode = ColorMode::Component;
    };

    void bindState() const;
    /// Recomputes the accelerations unless they are valid for settings; adds the time to "force".
    void ensureAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times);
    void computeAccelerations(const ForceSettings& settings, std::vector<PhaseTiming>& times);
    void kick(float duration) const;
    void drift(float duration) const;
    void saveState() const;
    void restoreState();
    std::uint32_t countNonFiniteBodies() const;
    /// Reads count vec4 records of buffer into out (4 floats per body) after the shaders' writes.
    void readRecords(const GlBuffer& buffer, std::vector<float>& out) const;

    GlComputeSupport m_support;
    std::string m_why;
    ComputeKernel m_forces, m_kick, m_drift, m_reverse, m_countNonFinite, m_vertices;
    GLint m_firstTargetLocation, m_softeningSquaredLocation, m_gravitationalConstantLocation, m_kickDurationLocation,
        m_driftDurationLocation;
    GlBuffer m_nonFiniteCounter;
    StateBuffers m_state;
    std::uint32_t m_bodyCount = 0;
    std::vector<std::uint64_t> m_ids;
    std::vector<std::uint8_t> m_components;
    bool m_accelerationsValid = false;
    ForceSettings m_accelerationsSettings;
    std::uint64_t m_stepsSinceLoad = 0;
    std::vector<PhaseTiming> m_lastTimings;
    Visuals m_visuals{*this};
};

} // namespace gravlab
