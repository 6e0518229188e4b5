// The rollback copy of the CUDA backend's step() (see StepRollback.hpp).
#include "device/cuda/CudaCheck.hpp"
#include "device/cuda/LaunchSize.hpp"
#include "device/cuda/StepRollback.hpp"

namespace gravlab {
namespace {

// Work per body: 32 bytes read, 24 written.
__global__ void saveMotionKernel(const float4* __restrict__ positionMass, const float4* __restrict__ velocityColor,
                                 float* __restrict__ motion, unsigned bodyCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    const float4 p = positionMass[i];
    const float4 v = velocityColor[i];
    motion[i] = p.x;
    motion[bodyCount + i] = p.y;
    motion[2 * bodyCount + i] = p.z;
    motion[3 * bodyCount + i] = v.x;
    motion[4 * bodyCount + i] = v.y;
    motion[5 * bodyCount + i] = v.z;
}

// Work per body: 56 bytes read, 32 written; mass and colour key stay as they are.
__global__ void restoreMotionKernel(float4* __restrict__ positionMass, float4* __restrict__ velocityColor,
                                    const float* __restrict__ motion, unsigned bodyCount) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= bodyCount)
        return;
    float4 p = positionMass[i];
    float4 v = velocityColor[i];
    p.x = motion[i];
    p.y = motion[bodyCount + i];
    p.z = motion[2 * bodyCount + i];
    v.x = motion[3 * bodyCount + i];
    v.y = motion[4 * bodyCount + i];
    v.z = motion[5 * bodyCount + i];
    positionMass[i] = p;
    velocityColor[i] = v;
}

} // namespace

void StepRollback::reserveInPlace(std::size_t count) {
    m_motion.resize(6 * count);
}

void StepRollback::save(const DeviceBodies& bodies, bool reorderPossible, cudaStream_t stream) {
    const std::size_t count = bodies.size();
    // Resizing to an empty array frees the low parts' copy in single precision.
    m_positionLow.resize(bodies.positionLow.size());
    m_velocityLow.resize(bodies.velocityLow.size());
    m_positionLow.copyFrom(bodies.positionLow, stream);
    m_velocityLow.copyFrom(bodies.velocityLow, stream);
    m_wholeState = reorderPossible;
    if (m_wholeState) {
        m_motion = DeviceBuffer<float>(); // one copy at a time
        m_positionMass.resize(count);
        m_velocityColor.resize(count);
        m_loadOrder.resize(count);
        m_positionMass.copyFrom(bodies.positionMass, stream);
        m_velocityColor.copyFrom(bodies.velocityColor, stream);
        m_loadOrder.copyFrom(bodies.loadOrder, stream);
        return;
    }
    m_positionMass = DeviceBuffer<float4>();
    m_velocityColor = DeviceBuffer<float4>();
    m_loadOrder = DeviceBuffer<std::uint32_t>();
    m_motion.resize(6 * count);
    if (count == 0)
        return;
    const LaunchSize size = launchSize1d(count, 256);
    saveMotionKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        bodies.positionMass.data(), bodies.velocityColor.data(), m_motion.data(), unsigned(count));
    checkLaunch("saveMotionKernel");
}

void StepRollback::restore(DeviceBodies& bodies, cudaStream_t stream) const {
    bodies.positionLow.copyFrom(m_positionLow, stream);
    bodies.velocityLow.copyFrom(m_velocityLow, stream);
    if (m_wholeState) {
        bodies.positionMass.copyFrom(m_positionMass, stream);
        bodies.velocityColor.copyFrom(m_velocityColor, stream);
        bodies.loadOrder.copyFrom(m_loadOrder, stream);
        return;
    }
    const std::size_t count = bodies.size();
    if (m_motion.size() != 6 * count)
        throw std::logic_error("StepRollback::restore: " + std::to_string(count) + " bodies, " +
                               std::to_string(m_motion.size() / 6) + " saved");
    if (count == 0)
        return;
    const LaunchSize size = launchSize1d(count, 256);
    restoreMotionKernel<<<size.blocks, size.threadsPerBlock, 0, stream>>>(
        bodies.positionMass.data(), bodies.velocityColor.data(), m_motion.data(), unsigned(count));
    checkLaunch("restoreMotionKernel");
}

std::uint64_t StepRollback::allocatedBytes() const {
    return m_motion.bytes() + m_positionMass.bytes() + m_velocityColor.bytes() + m_loadOrder.bytes() +
           m_positionLow.bytes() + m_velocityLow.bytes();
}

} // namespace gravlab
