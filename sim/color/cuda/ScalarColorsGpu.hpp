#pragma once
// The per-body colour quantities of the CUDA backend: computed on the device when stale (ScalarColoring), kept in a
// device buffer, mapped to colour scalars by the vertex write.
//
// Design note: the twin of ScalarColorsCpu. Values live in a device float buffer; only the range's sample (at most
// 65536 floats, or 65536 positions for the density grid's bounds) crosses to the host, where ScalarRange takes its
// percentiles, so a recomputation costs one small download and a stream synchronisation, and a frame whose values
// are current costs one kernel (launchWriteScalarVertices). The force error is summed for the bodies
// forceErrorTargets(N, kForceErrorAllBodiesLimitCuda) lists (uploaded once per body count). Force errors are reused
// across states for a while (ScalarColoring), during which ORB may permute the bodies: they are also kept by load
// order (DeviceBodies::loadOrder), and each write gathers them back to the bodies' current order, so every body keeps
// its own error (one more 8-byte-per-body kernel per frame in that mode).
#include "color/ScalarColoring.hpp"
#include "device/cuda/DeviceBodies.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>
#include <gravlab/sim/SolverRegistry.hpp>
#include <gravlab/sim/VisualSource.hpp>

#include <cstdint>
#include <functional>
#include <vector>

namespace gravlab {

/// What the CUDA backend's state offers the colour quantities.
struct GpuColorInputs {
    const DeviceBodies& bodies;
    bool accelerationsCurrent; ///< bodies.acceleration holds the last force evaluation of the current state
    GravityParams gravity;     ///< what they were computed with
    const SolverInfo* solver;  ///< the solver that computed them; nullptr before the first evaluation
    std::uint64_t stateVersion;
    /// Every body's potential on the device (the backend's tree potential walk), in body order, queued on the stream;
    /// called only in the potential mode.
    std::function<const float*()> potentials;
};

class ScalarColorsGpu {
public:
    ScalarColoring& coloring() { return m_coloring; }
    const ScalarColoring& coloring() const { return m_coloring; }
    /// For a scalar mode: writes every body's vertex (position and mapped value) into vertices, computing the values
    /// first when stale, and returns true; false, with the reason recorded, when the mode cannot be shown (the caller
    /// then writes the component colours). Queued on stream; synchronises it when values were computed.
    bool write(const GpuColorInputs& inputs, RenderVertex* vertices, cudaStream_t stream);
    /// The values of the last write, one per body (NaN where a body has none), copied to the host.
    void readValues(std::vector<float>& out, cudaStream_t stream) const;
    std::uint64_t allocatedBytes() const;

private:
    /// Computes m_values for the current (scalar) mode and records them with their range.
    void computeValues(const GpuColorInputs& inputs, cudaStream_t stream);
    /// The force errors into m_values and the sample for their range into sample (host).
    std::string computeForceErrors(const GpuColorInputs& inputs, cudaStream_t stream, std::vector<float>& sample);
    /// The grid density into m_values.
    void computeDensity(const GpuColorInputs& inputs, cudaStream_t stream);
    /// The range sample of m_values, downloaded.
    std::vector<float> downloadRangeSample(std::size_t bodyCount, cudaStream_t stream);

    ScalarColoring m_coloring;
    DeviceBuffer<float> m_values;
    DeviceBuffer<float> m_forceErrorsByLoadOrder; ///< the force errors indexed by the bodies' load order
    DeviceBuffer<float> m_sample;
    DeviceBuffer<float4> m_positionSample;
    DeviceBuffer<float> m_cellMass;
    DeviceBuffer<std::uint32_t> m_errorTargets;
    std::size_t m_errorTargetsBodyCount = 0; ///< the body count m_errorTargets were chosen for
};

} // namespace gravlab
