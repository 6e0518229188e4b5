#pragma once
// The CUDA core as a SimulationBackend: bodies live on the device, steps run there, the host sees copies on demand.
//
// Design note: one non-blocking stream carries all work, in order: kick-drift, forces, kick (DeviceLeapfrog.hpp,
// DeviceForces.hpp), with CUDA events between the phases for lastStepTimings() ("force", "integrate": device time
// summed over the last step() call, including the force evaluation that a fresh load or a changed G or softening
// needs before the first kick). Accelerations stay on the device between steps, so each step costs one force
// evaluation. Every step() call first copies positions and velocities aside (32 bytes per body, one device copy);
// when a step leaves a body with a NaN or inf, the call restores that copy and throws, naming the step and the
// count, so a blown-up run loses nothing and can continue with a smaller dt. Rendering takes either a host copy
// (writeRenderVertices) or, through CUDA-GL interop, a device pointer into the mapped GL buffer
// (writeRenderVerticesDevice), which never leaves the GPU.
#include "CudaStream.hpp"
#include "DeviceBodies.hpp"
#include "DeviceInfo.hpp"
#include "PhaseTimeline.hpp"

#include <SimulationBackend.hpp>
#include <cstdint>

namespace gravlab {

class CudaBackend final : public SimulationBackend {
public:
    /// Device bytes per body: state (48), the rollback copy (32) and the host-path vertex buffer (16).
    static constexpr std::uint64_t kDeviceBytesPerBody = DeviceBodies::kBytesPerBody + 2 * 16 + 16;

    /// Uses the current CUDA device; throws std::runtime_error when there is none.
    CudaBackend();

    std::string description() const override;
    /// Throws std::runtime_error naming N and the memory needed when the bodies do not fit; the old state is kept.
    void load(const Bodies& bodies) override;
    /// Solvers: Direct, DirectSymmetric. Throws NonFiniteStateError, naming the step and the count, when a step left
    /// a non-finite position or velocity, after restoring the state from before this call.
    void step(const SimParams& params, int stepCount) override;
    void readBodies(Bodies& out) const override;
    Diagnostics diagnostics(const SimParams& params) const override;
    void writeRenderVertices(std::span<RenderVertex> out) const override;
    std::vector<PhaseTiming> lastStepTimings() const override { return m_lastTimings; }

    /// Interop path: writes bodyCount() vertices into vertices, a device pointer (a mapped GL buffer) with room for
    /// capacity vertices, queued on stream after all work queued so far on the backend's stream.
    void writeRenderVerticesDevice(RenderVertex* vertices, std::size_t capacity, cudaStream_t stream) const;

    std::size_t bodyCount() const { return m_bodies.size(); }
    cudaStream_t stream() const { return m_stream.get(); }
    const DeviceSummary& device() const { return m_device; }

private:
    void refreshAccelerations(const SimParams& params);
    void saveState();
    void restoreState();
    void throwIfNonFinite(const std::vector<unsigned>& nonFiniteCounts);

    DeviceSummary m_device;
    CudaStream m_stream;
    DeviceBodies m_bodies;
    DeviceBuffer<float4> m_savedPositionMass;
    DeviceBuffer<float4> m_savedVelocityColor;
    DeviceBuffer<unsigned> m_nonFiniteCounts; ///< one counter per step of the current step() call
    mutable DeviceBuffer<RenderVertex> m_hostPathVertices;
    mutable CudaEvent m_stateReady;      ///< interop: the caller's stream waits for the last step
    mutable CudaEvent m_verticesWritten; ///< interop: the next step waits for the vertex write
    PhaseTimeline m_timeline;
    std::vector<PhaseTiming> m_lastTimings;
    bool m_accelerationsCurrent = false;
    GravityParams m_accelerationGravity{};
    std::uint64_t m_stepsTaken = 0;
};

} // namespace gravlab
