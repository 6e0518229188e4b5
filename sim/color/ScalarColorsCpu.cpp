// Colour quantities of the CPU backend (ScalarColorsCpu.hpp).
#include "color/ScalarColorsCpu.hpp"

#include "color/BodyScalarsCpu.hpp"
#include "color/DensityGrid.hpp"
#include "color/ForceErrorSample.hpp"
#include "core/Parallel.hpp"
#include <gravlab/sim/Diagnostics.hpp>

#include <limits>
#include <unordered_map>
#include <utility>

namespace gravlab {

void ScalarColorsCpu::computeValues(const CpuColorInputs& inputs) {
    const std::size_t count = inputs.bodies.size();
    m_coloring.computingValues();
    switch (m_coloring.mode()) {
    case ColorMode::Speed:
        computeSpeedsCpu(inputs.bodies, m_values);
        break;
    case ColorMode::Acceleration:
        computeAccelerationMagnitudesCpu(*inputs.accelerations, m_values);
        break;
    case ColorMode::Density:
        computeGridDensityCpu(inputs.bodies, m_values);
        break;
    case ColorMode::Potential:
        computeTreePotentialsCpu(inputs.bodies, inputs.gravity, inputs.openingAngle, m_values);
        break;
    case ColorMode::ForceError: {
        const std::size_t checked =
            computeTreeForceErrorsCpu(inputs.bodies, *inputs.accelerations, inputs.gravity, m_values);
        std::vector<float> sample;
        for (const std::uint32_t i : forceErrorTargets(count, kForceErrorAllBodiesLimitCpu))
            sample.push_back(m_values[i]);
        const std::string which = checked == count ? "all " + std::to_string(count) + " bodies checked"
                                                   : "sampled " + std::to_string(checked) + " of " +
                                                         std::to_string(count) + " bodies; the others grey";
        m_forceErrorIds = inputs.bodies.id;
        m_coloring.valuesComputed(inputs.stateVersion, count, sampleForRange(sample), which);
        return;
    }
    default: // not a scalar mode: write() asks only for those
        return;
    }
    m_coloring.valuesComputed(inputs.stateVersion, count, sampleForRange(m_values), rangeSampleNote(count));
}

void ScalarColorsCpu::followBodiesById(const std::vector<std::uint64_t>& ids) {
    std::unordered_map<std::uint64_t, float> byId;
    byId.reserve(m_forceErrorIds.size());
    for (std::size_t i = 0; i < m_forceErrorIds.size(); ++i)
        byId.emplace(m_forceErrorIds[i], m_values[i]);
    m_values.assign(ids.size(), std::numeric_limits<float>::quiet_NaN()); // a body not checked then stays grey
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (const auto found = byId.find(ids[i]); found != byId.end())
            m_values[i] = found->second;
    m_forceErrorIds = ids;
}

void ScalarColorsCpu::write(const CpuColorInputs& inputs, std::span<RenderVertex> out) {
    const ColorMode mode = m_coloring.mode();
    std::string reason = scalarModeUnavailableReason(mode, inputs.accelerations != nullptr, inputs.solver);
    if (reason.empty() && m_coloring.valuesStale(inputs.stateVersion, inputs.bodies.size()))
        computeValues(inputs);
    if (!reason.empty()) {
        m_coloring.showComponents(std::move(reason));
        return;
    }
    if (mode == ColorMode::ForceError && inputs.bodies.id != m_forceErrorIds)
        followBodiesById(inputs.bodies.id);
    const ScalarRange range = m_coloring.range();
    const bool logarithmic = m_coloring.logarithmic();
    const auto count = std::int64_t(out.size());
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        out[i].colorScalar = mapToColorScalar(m_values[i], range.low, range.high, logarithmic);
    }
    m_coloring.showScalars(inputs.stateVersion);
}

} // namespace gravlab
