// Direct-summation gravity on the CPU (see DirectSumCpu.hpp for the formula).
//
// Design note: the fp64 reference converts nothing up front and skips j == i explicitly, so it stays correct for
// zero softening; one target per OpenMP iteration. It reads positions as float-float pairs when the bodies carry low
// parts (double precision, Precision.hpp), so it is the fp64 force of the fp64 state. The float solver hands blocks of
// up to kDirectTargetBlock targets to the SIMD kernel (DirectSumSimd.hpp: Highway, dispatched to AVX-512, AVX2 or SSE
// at run time, approximate 1/sqrt refined by a Newton step, eps^2 folded into r^2 so the j == i term is 0 * finite =
// 0), which reads the Bodies arrays in place (already a structure of arrays). Blocks are spread over OpenMP threads
// with a static schedule (smaller blocks for short target lists, so every thread gets some); a block copies its
// targets' positions in (from the list for hierarchical steps) and writes G times the sums out, so a listed target
// gets the all-body bits. With eps = 0 the kernel counts the sources at r^2 = 0: more than one per target (its own) is
// a coincident pair, and the smallest such target index is returned.
#include "core/Parallel.hpp"
#include "direct/DirectSumSimd.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <omp.h>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

void checkBodyArrays(const Bodies& bodies) {
    const std::size_t count = bodies.size();
    if (bodies.y.size() != count || bodies.z.size() != count || bodies.mass.size() != count ||
        (bodies.hasLowParts() && !bodies.consistent()))
        throw std::invalid_argument("direct sum: body arrays differ in length (x has " + std::to_string(count) +
                                    " entries)");
}

struct AccelerationFp64 {
    double x, y, z;
};

/// Coordinate k of body i in double: the float, or the float-float pair when the bodies carry low parts.
template <bool kPairs> double coordinate(const std::vector<float>& high, const std::vector<float>& low, std::size_t i) {
    if constexpr (kPairs)
        return double(high[i]) + double(low[i]);
    else
        return double(high[i]);
}

template <bool kPairs>
AccelerationFp64 accelerationOfFp64(const Bodies& bodies, std::size_t target, double softening2) {
    const double xi = coordinate<kPairs>(bodies.x, bodies.xLow, target);
    const double yi = coordinate<kPairs>(bodies.y, bodies.yLow, target);
    const double zi = coordinate<kPairs>(bodies.z, bodies.zLow, target);
    AccelerationFp64 sum{0, 0, 0};
    for (std::size_t j = 0; j < bodies.size(); ++j) {
        if (j == target)
            continue;
        const double dx = coordinate<kPairs>(bodies.x, bodies.xLow, j) - xi;
        const double dy = coordinate<kPairs>(bodies.y, bodies.yLow, j) - yi;
        const double dz = coordinate<kPairs>(bodies.z, bodies.zLow, j) - zi;
        const double distance2 = dx * dx + dy * dy + dz * dz + softening2;
        const double weight = double(bodies.mass[j]) / (distance2 * std::sqrt(distance2));
        sum.x += weight * dx;
        sum.y += weight * dy;
        sum.z += weight * dz;
    }
    return sum;
}

/// Copies the block's targets (list[first..], or the indices first.. when the list is empty) into block and indices,
/// padding the last vector with copies of the last target.
void loadTargetBlock(const Bodies& bodies, std::span<const std::uint32_t> list, std::size_t first, std::size_t count,
                     TargetBlock& block, std::array<std::uint32_t, kDirectTargetBlock>& indices) {
    block.count = count;
    const std::size_t padded = (count + kWidestFloatVector - 1) / kWidestFloatVector * kWidestFloatVector;
    for (std::size_t k = 0; k < padded; ++k) {
        const std::size_t slot = std::min(k, count - 1);
        const std::size_t target = list.empty() ? first + slot : list[first + slot];
        indices[k] = std::uint32_t(target);
        block.x[k] = bodies.x[target];
        block.y[k] = bodies.y[target];
        block.z[k] = bodies.z[target];
    }
}

/// Targets per block: kDirectTargetBlock, or fewer (whole widest vectors) when that leaves a thread without a block,
/// as a hierarchical step's short target lists would. A target's bits do not depend on its block.
std::size_t targetsPerBlock(std::size_t count, std::int64_t pairs) {
    if (pairs < kMinPairsForParallel)
        return kDirectTargetBlock;
    const auto threads = std::size_t(std::max(1, omp_get_max_threads()));
    const std::size_t perThread = (count + threads - 1) / threads;
    const std::size_t vectors = std::max<std::size_t>(1, (perThread + kWidestFloatVector - 1) / kWidestFloatVector);
    return std::min(kDirectTargetBlock, vectors * kWidestFloatVector);
}

/// Accelerates list[k] (or k itself when the list is empty) for k < count, in blocks of targetsPerBlock targets over
/// OpenMP threads; returns the smallest target index that has a coincident partner (zero softening only).
std::optional<std::size_t> accelerateTargets(const Bodies& bodies, const GravityParams& gravity,
                                             std::span<const std::uint32_t> list, std::size_t count,
                                             Vec3Arrays<float>& out) {
    const DirectSources sources{bodies.x.data(), bodies.y.data(),
                                bodies.z.data(), bodies.mass.data(),
                                bodies.size(),   float(gravity.softeningLength * gravity.softeningLength)};
    const auto gravitationalConstant = float(gravity.gravitationalConstant);
    const std::int64_t pairs = std::int64_t(count) * std::int64_t(bodies.size());
    const std::size_t blockSize = targetsPerBlock(count, pairs);
    const auto blocks = std::int64_t((count + blockSize - 1) / blockSize);
    std::int64_t firstCoincident = std::numeric_limits<std::int64_t>::max();
#pragma omp parallel for schedule(static) reduction(min : firstCoincident) if (parallel : pairs >= kMinPairsForParallel)
    for (std::int64_t blockIndex = 0; blockIndex < blocks; ++blockIndex) {
        const std::size_t first = std::size_t(blockIndex) * blockSize;
        TargetBlock block;
        std::array<std::uint32_t, kDirectTargetBlock> indices;
        loadTargetBlock(bodies, list, first, std::min(blockSize, count - first), block, indices);
        sumDirectBlock(sources, block);
        for (std::size_t k = 0; k < block.count; ++k) {
            const std::uint32_t target = indices[k];
            out.x[target] = gravitationalConstant * block.ax[k];
            out.y[target] = gravitationalConstant * block.ay[k];
            out.z[target] = gravitationalConstant * block.az[k];
            // One zero distance is the body's own; sources.softening2 > 0 leaves the counts at 0.
            if (block.zeroDistances[k] > 1.0f)
                firstCoincident = std::min(firstCoincident, std::int64_t(target));
        }
    }
    if (firstCoincident == std::numeric_limits<std::int64_t>::max())
        return std::nullopt;
    return std::size_t(firstCoincident);
}

} // namespace

void computeAccelerationsFp64(const Bodies& bodies, const GravityParams& gravity, std::span<const std::size_t> targets,
                              Vec3Arrays<double>& out) {
    checkBodyArrays(bodies);
    for (const std::size_t target : targets)
        if (target >= bodies.size())
            throw std::out_of_range("direct sum: target " + std::to_string(target) + " is not one of the " +
                                    std::to_string(bodies.size()) + " bodies");
    out.resize(targets.size());
    const double softening2 = gravity.softeningLength * gravity.softeningLength;
    const bool pairs = bodies.hasLowParts();
    const auto count = std::int64_t(targets.size());
#pragma omp parallel for schedule(static) if (parallel : count * std::int64_t(bodies.size()) >= kMinPairsForParallel)
    for (std::int64_t k = 0; k < count; ++k) {
        const std::size_t target = targets[std::size_t(k)];
        const AccelerationFp64 sum = pairs ? accelerationOfFp64<true>(bodies, target, softening2)
                                           : accelerationOfFp64<false>(bodies, target, softening2);
        out.x[std::size_t(k)] = gravity.gravitationalConstant * sum.x;
        out.y[std::size_t(k)] = gravity.gravitationalConstant * sum.y;
        out.z[std::size_t(k)] = gravity.gravitationalConstant * sum.z;
    }
}

void computeAccelerationsFp64(const Bodies& bodies, const GravityParams& gravity, Vec3Arrays<double>& out) {
    std::vector<std::size_t> everyBody(bodies.size());
    for (std::size_t i = 0; i < everyBody.size(); ++i)
        everyBody[i] = i;
    computeAccelerationsFp64(bodies, gravity, everyBody, out);
}

std::optional<std::size_t> computeAccelerationsCpu(const Bodies& bodies, const GravityParams& gravity,
                                                   Vec3Arrays<float>& out) {
    checkBodyArrays(bodies);
    out.resize(bodies.size());
    return accelerateTargets(bodies, gravity, {}, bodies.size(), out);
}

std::optional<std::size_t> computeAccelerationsCpu(const Bodies& bodies, const GravityParams& gravity,
                                                   std::span<const std::uint32_t> targets, Vec3Arrays<float>& out) {
    checkBodyArrays(bodies);
    if (out.size() != bodies.size())
        throw std::invalid_argument("direct sum: " + std::to_string(out.size()) + " accelerations for " +
                                    std::to_string(bodies.size()) + " bodies");
    for (const std::uint32_t target : targets)
        if (target >= bodies.size())
            throw std::out_of_range("direct sum: target " + std::to_string(target) + " is not one of the " +
                                    std::to_string(bodies.size()) + " bodies");
    if (targets.empty())
        return std::nullopt;
    return accelerateTargets(bodies, gravity, targets, targets.size(), out);
}

} // namespace gravlab
