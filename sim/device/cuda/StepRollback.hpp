#pragma once
// What a failed step() call of the CUDA backend restores: the bodies as they were when the call began.
//
// Design note: a step moves positions and velocities; masses, colour keys and the load order change only when ORB
// reorders the bodies. So while no reorder can happen in the call (ORB off), the rollback keeps just the six motion
// components, 24 bytes per body in six float arrays, and puts them back into the float4 arrays under the masses and
// colour keys that never moved; while ORB is on it keeps the whole float4 arrays and the load order, 36 bytes per
// body. The buffers of the mode not in use are released, so the device holds one copy, the smaller one when it can:
// the rollback is the largest per-body item after the bodies themselves. In double precision (DeviceBodies.hpp) the
// position and velocity low parts are kept too, 32 bytes per body more.
#include "device/cuda/DeviceBodies.hpp"
#include "device/cuda/DeviceBuffer.hpp"

#include <cstdint>
#include <cuda_runtime_api.h>

namespace gravlab {

class StepRollback {
public:
    /// Device bytes per body the rollback holds: with reorders possible, and without.
    static constexpr std::uint64_t kBytesPerBodyWithReorder = 2 * sizeof(float4) + sizeof(std::uint32_t);
    static constexpr std::uint64_t kBytesPerBodyInPlace = 6 * sizeof(float);

    /// Keeps the state of bodies; reorderPossible: whether the call may permute them (ORB on). Queued on stream.
    void save(const DeviceBodies& bodies, bool reorderPossible, cudaStream_t stream);
    /// Puts the kept state back into bodies (the same count as saved). Queued on stream.
    void restore(DeviceBodies& bodies, cudaStream_t stream) const;
    /// Allocates the in-place copy for count bodies ahead of the first save, so a load reports a shortage at once.
    void reserveInPlace(std::size_t count);
    std::uint64_t allocatedBytes() const;

private:
    bool m_wholeState = false;
    DeviceBuffer<float> m_motion; ///< in place: x, y, z, vx, vy, vz of every body, one array after another
    DeviceBuffer<float4> m_positionMass, m_velocityColor;
    DeviceBuffer<std::uint32_t> m_loadOrder;
    DeviceBuffer<float4> m_positionLow, m_velocityLow; ///< double precision only (empty otherwise)
};

} // namespace gravlab
