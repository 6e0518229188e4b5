// Colour quantities of the CUDA backend (ScalarColorsGpu.hpp).
#include "color/cuda/ScalarColorsGpu.hpp"

#include "color/ForceErrorSample.hpp"
#include "color/cuda/DeviceColorScalars.hpp"
#include "device/cuda/CudaCheck.hpp"

#include <algorithm>
#include <cmath>

namespace gravlab {

std::vector<float> ScalarColorsGpu::downloadRangeSample(std::size_t bodyCount, cudaStream_t stream) {
    const std::size_t count = std::min(bodyCount, kColorRangeSampleSize);
    if (m_sample.size() < count)
        m_sample.resize(count);
    launchGatherSample(m_values.data(), m_sample.data(), count, bodyCount, stream);
    std::vector<float> sample(count);
    CUDA_CHECK(cudaMemcpyAsync(sample.data(), m_sample.data(), count * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return sample;
}

void ScalarColorsGpu::computeDensity(const GpuColorInputs& inputs, cudaStream_t stream) {
    const std::size_t bodyCount = inputs.bodies.size();
    const std::size_t count = std::min(bodyCount, kColorRangeSampleSize);
    if (m_positionSample.size() < count)
        m_positionSample.resize(count);
    launchGatherPositionSample(inputs.bodies.positionMass.data(), m_positionSample.data(), count, bodyCount, stream);
    std::vector<float4> positions(count);
    CUDA_CHECK(cudaMemcpyAsync(positions.data(), m_positionSample.data(), count * sizeof(float4),
                               cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    PositionSample sample;
    for (std::vector<float>& axis : sample)
        axis.reserve(count);
    for (const float4& p : positions) {
        sample[0].push_back(p.x);
        sample[1].push_back(p.y);
        sample[2].push_back(p.z);
    }
    const DensityGrid grid = densityGridFor(sample, bodyCount);
    if (m_cellMass.size() < grid.cellCount())
        m_cellMass.resize(grid.cellCount());
    launchGridDensity(inputs.bodies.positionMass.data(), grid, m_cellMass.data(), m_values.data(), bodyCount, stream);
}

std::string ScalarColorsGpu::computeForceErrors(const GpuColorInputs& inputs, cudaStream_t stream,
                                                std::vector<float>& sample) {
    const std::size_t bodyCount = inputs.bodies.size();
    if (m_errorTargetsBodyCount != bodyCount) {
        const std::vector<std::uint32_t> targets = forceErrorTargets(bodyCount, kForceErrorAllBodiesLimitCuda);
        m_errorTargets.resize(targets.size());
        m_errorTargets.upload(targets, stream);
        m_errorTargetsBodyCount = bodyCount;
    }
    const std::size_t checked = m_errorTargets.size();
    launchTreeForceErrors(inputs.bodies.positionMass.data(), inputs.bodies.acceleration.data(), m_errorTargets.data(),
                          checked, m_values.data(), bodyCount, inputs.gravity, stream);
    // The range comes from the checked bodies only: every (checked / S)-th of them.
    const std::size_t count = std::min(checked, kColorRangeSampleSize);
    std::vector<std::uint32_t> picks(count);
    std::vector<std::uint32_t> hostTargets(checked);
    m_errorTargets.download(hostTargets, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    for (std::size_t k = 0; k < count; ++k)
        picks[k] = hostTargets[sampledBodyIndex(k, count, checked)];
    DeviceBuffer<std::uint32_t> devicePicks(count);
    devicePicks.upload(picks, stream);
    if (m_sample.size() < count)
        m_sample.resize(count);
    launchGatherIndexed(m_values.data(), devicePicks.data(), m_sample.data(), count, stream);
    sample.resize(count);
    CUDA_CHECK(cudaMemcpyAsync(sample.data(), m_sample.data(), count * sizeof(float), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return checked == bodyCount
               ? "all " + std::to_string(bodyCount) + " bodies checked"
               : "sampled " + std::to_string(checked) + " of " + std::to_string(bodyCount) + " bodies; the others grey";
}

void ScalarColorsGpu::computeValues(const GpuColorInputs& inputs, cudaStream_t stream) {
    const std::size_t bodyCount = inputs.bodies.size();
    if (m_values.size() != bodyCount)
        m_values.resize(bodyCount);
    m_coloring.computingValues();
    switch (m_coloring.mode()) {
    case ColorMode::Speed:
        launchSpeeds(inputs.bodies.velocityColor.data(), m_values.data(), bodyCount, stream);
        break;
    case ColorMode::Acceleration:
        launchAccelerationMagnitudes(inputs.bodies.acceleration.data(), m_values.data(), bodyCount, stream);
        break;
    case ColorMode::Density:
        computeDensity(inputs, stream);
        break;
    case ColorMode::Potential:
        CUDA_CHECK(cudaMemcpyAsync(m_values.data(), inputs.potentials(), bodyCount * sizeof(float),
                                   cudaMemcpyDeviceToDevice, stream));
        break;
    case ColorMode::ForceError: {
        std::vector<float> sample;
        std::string note = computeForceErrors(inputs, stream, sample);
        m_forceErrorsByLoadOrder.resize(bodyCount);
        launchScatterIndexed(m_values.data(), inputs.bodies.loadOrder.data(), m_forceErrorsByLoadOrder.data(),
                             bodyCount, stream);
        m_coloring.valuesComputed(inputs.stateVersion, bodyCount, std::move(sample), std::move(note));
        return;
    }
    default: // not a scalar mode: write() asks only for those
        return;
    }
    m_coloring.valuesComputed(inputs.stateVersion, bodyCount, downloadRangeSample(bodyCount, stream),
                              rangeSampleNote(bodyCount));
}

bool ScalarColorsGpu::write(const GpuColorInputs& inputs, RenderVertex* vertices, cudaStream_t stream) {
    const std::size_t bodyCount = inputs.bodies.size();
    std::string reason = scalarModeUnavailableReason(m_coloring.mode(), inputs.accelerationsCurrent, inputs.solver);
    if (reason.empty() && m_coloring.valuesStale(inputs.stateVersion, bodyCount))
        computeValues(inputs, stream);
    if (!reason.empty()) {
        m_coloring.showComponents(std::move(reason));
        return false;
    }
    if (m_coloring.mode() == ColorMode::ForceError) // the bodies may have been permuted since (see the design note)
        launchGatherIndexed(m_forceErrorsByLoadOrder.data(), inputs.bodies.loadOrder.data(), m_values.data(),
                            bodyCount, stream);
    const ScalarRange range = m_coloring.range();
    launchWriteScalarVertices(inputs.bodies.positionMass.data(), m_values.data(), range.low, range.high,
                              m_coloring.logarithmic(), vertices, bodyCount, stream);
    m_coloring.showScalars(inputs.stateVersion);
    return true;
}

void ScalarColorsGpu::readValues(std::vector<float>& out, cudaStream_t stream) const {
    out.resize(m_values.size());
    m_values.download(out, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

std::uint64_t ScalarColorsGpu::allocatedBytes() const {
    return m_values.bytes() + m_forceErrorsByLoadOrder.bytes() + m_sample.bytes() + m_positionSample.bytes() +
           m_cellMass.bytes() + m_errorTargets.bytes();
}

} // namespace gravlab
