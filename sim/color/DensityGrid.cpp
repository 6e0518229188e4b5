// Grid densities on the CPU, and the grid both backends use (DensityGrid.hpp).
#include "color/DensityGrid.hpp"

#include "color/ScalarRange.hpp"
#include "core/Parallel.hpp"

#include <algorithm>
#include <cmath>

namespace gravlab {
namespace {

/// Percentiles of the sample bounding the grid, and the margin added on each side as a fraction of their span.
constexpr double kBoundsLowPercentile = 0.5;
constexpr double kBoundsHighPercentile = 99.5;
constexpr double kBoundsMargin = 0.05;

} // namespace

DensityGrid densityGridFor(const PositionSample& sample, std::size_t bodyCount) {
    DensityGrid grid;
    const double cells = std::round(std::cbrt(double(bodyCount) / kBodiesPerDensityCell));
    grid.cellsPerAxis = int(std::clamp(cells, double(kMinDensityCellsPerAxis), double(kMaxDensityCellsPerAxis)));
    std::array<float, 3> origin{};
    std::array<float, 3> inverseCell{};
    double volume = 1.0;
    for (std::size_t axis = 0; axis < 3; ++axis) {
        const ScalarRange bounds = percentileRange(sample[axis], false, kBoundsLowPercentile, kBoundsHighPercentile);
        // A flat or single-point set still needs a cell of some size: a thousandth of its distance from the origin.
        const double span =
            std::max(double(bounds.high) - double(bounds.low),
                     1e-3 * std::max({std::abs(double(bounds.low)), std::abs(double(bounds.high)), 1.0}));
        const double low = double(bounds.low) - kBoundsMargin * span;
        const double cellSize = span * (1.0 + 2.0 * kBoundsMargin) / grid.cellsPerAxis;
        origin[axis] = float(low);
        inverseCell[axis] = float(1.0 / cellSize);
        volume *= cellSize;
    }
    grid.originX = origin[0];
    grid.originY = origin[1];
    grid.originZ = origin[2];
    grid.inverseCellX = inverseCell[0];
    grid.inverseCellY = inverseCell[1];
    grid.inverseCellZ = inverseCell[2];
    grid.inverseCellVolume = float(1.0 / volume);
    return grid;
}

PositionSample samplePositions(const Bodies& bodies) {
    const std::size_t count = std::min(bodies.size(), kColorRangeSampleSize);
    PositionSample sample;
    for (std::vector<float>& axis : sample)
        axis.resize(count);
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t i = sampledBodyIndex(k, count, bodies.size());
        sample[0][k] = bodies.x[i];
        sample[1][k] = bodies.y[i];
        sample[2][k] = bodies.z[i];
    }
    return sample;
}

void computeGridDensityCpu(const Bodies& bodies, std::vector<float>& out) {
    const DensityGrid grid = densityGridFor(samplePositions(bodies), bodies.size());
    std::vector<float> cellMass(grid.cellCount(), 0.0f);
    const auto count = std::int64_t(bodies.size());
    out.resize(bodies.size());
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        const std::int64_t cell = grid.cellOf(bodies.x[i], bodies.y[i], bodies.z[i]);
        if (cell >= 0) {
#pragma omp atomic
            cellMass[std::size_t(cell)] += bodies.mass[i];
        }
    }
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        const std::int64_t cell = grid.cellOf(bodies.x[i], bodies.y[i], bodies.z[i]);
        out[i] = cell >= 0 ? cellMass[std::size_t(cell)] * grid.inverseCellVolume : 0.0f;
    }
}

} // namespace gravlab
