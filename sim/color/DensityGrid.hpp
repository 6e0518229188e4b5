#pragma once
// Local mass density of every body from a uniform grid: the cell's mass over the cell's volume.
//
// Design note: the density colour must not depend on the force solver (the direct sum builds no tree, and the octree's
// leaves hold a varying count of bodies on the CPU and on the GPU alike), and must cost O(N) on both devices. A
// uniform grid does both: each body adds its mass to its cell (an OpenMP histogram with atomic adds on the CPU, atomic
// adds on the GPU), then each body reads its cell's mass over the cell volume. Compared with a k-nearest-neighbour or
// SPH estimate it smooths over one cell, which is what a colour map of a whole galaxy needs, and it takes no sort and
// no neighbour search. The grid spans the bodies' robust bounds: per axis the 0.5th to 99.5th percentile of a sample
// (ScalarRange.hpp), widened by 5 % of that span on each side, so escapers do not stretch the cells; bodies outside
// the grid have density 0 (the bottom of the map). It has round(cbrt(N / 16)) cells per axis, clamped to 4..128, so a
// cell of a uniform set holds about 16 bodies (a relative noise of about a quarter), in at most 8 MiB of floats.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/HostDevice.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gravlab {

inline constexpr int kMinDensityCellsPerAxis = 4;
inline constexpr int kMaxDensityCellsPerAxis = 128;
inline constexpr double kBodiesPerDensityCell = 16.0;

struct DensityGrid {
    float originX = 0, originY = 0, originZ = 0;                ///< low corner, length units
    float inverseCellX = 1, inverseCellY = 1, inverseCellZ = 1; ///< cells per length unit along each axis
    int cellsPerAxis = kMinDensityCellsPerAxis;
    float inverseCellVolume = 1; ///< 1 / volume of one cell, per length unit cubed

    std::size_t cellCount() const { return std::size_t(cellsPerAxis) * std::size_t(cellsPerAxis) * cellsPerAxis; }

    /// The flat index of the cell holding (x, y, z), or -1 outside the grid (or for a non-finite position).
    GRAVLAB_HOST_DEVICE std::int64_t cellOf(float x, float y, float z) const {
        const float fx = (x - originX) * inverseCellX;
        const float fy = (y - originY) * inverseCellY;
        const float fz = (z - originZ) * inverseCellZ;
        const auto n = float(cellsPerAxis);
        if (!(fx >= 0.0f && fx < n && fy >= 0.0f && fy < n && fz >= 0.0f && fz < n))
            return -1;
        const auto cells = std::int64_t(cellsPerAxis);
        return (std::int64_t(fz) * cells + std::int64_t(fy)) * cells + std::int64_t(fx);
    }
};

/// Positions of a sample of the bodies, one array per axis.
using PositionSample = std::array<std::vector<float>, 3>;

/// The grid for bodyCount bodies whose positions are sampled by sample (see the design note).
DensityGrid densityGridFor(const PositionSample& sample, std::size_t bodyCount);

/// Every kColorRangeSampleSize-th body's position (all bodies when there are fewer).
PositionSample samplePositions(const Bodies& bodies);

/// The grid density (mass per volume) at every body, into out (resized to N), with OpenMP.
void computeGridDensityCpu(const Bodies& bodies, std::vector<float>& out);

} // namespace gravlab
