// Direct-summation gravity on the CPU (see DirectSumCpu.hpp for the formula).
//
// Design note: the fp64 reference converts nothing up front and skips j == i explicitly, so it stays correct for
// zero softening; one target per OpenMP iteration. The float solver reads the Bodies arrays in place (they are
// already a structure of arrays), folds eps^2 into r^2 so the j == i term is 0 * finite = 0 without a branch, and
// keeps the inner loop free of calls and branches so `omp simd` vectorises it. With eps = 0 (a second instance of
// the loop) r^2 = 0 selects the term away and is counted: more than one per target (its own) is a coincident pair (sqrt
// and division are IEEE in the vector units too, so the vector and scalar paths agree to rounding). G is applied once
// per target. Work per pair: float 20 flops (3 sub, 3 fma for r^2, sqrt, div, 2 mul for 1/r^3 and m/r^3, 3 fma), 16
// bytes of source data read from L1/L2.
#include "core/Parallel.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

void checkBodyArrays(const Bodies& bodies) {
    const std::size_t count = bodies.size();
    if (bodies.y.size() != count || bodies.z.size() != count || bodies.mass.size() != count)
        throw std::invalid_argument("direct sum: body arrays differ in length (x has " + std::to_string(count) +
                                    " entries)");
}

struct AccelerationFp64 {
    double x, y, z;
};

AccelerationFp64 accelerationOfFp64(const Bodies& bodies, std::size_t target, double softening2) {
    const double xi = bodies.x[target], yi = bodies.y[target], zi = bodies.z[target];
    AccelerationFp64 sum{0, 0, 0};
    for (std::size_t j = 0; j < bodies.size(); ++j) {
        if (j == target)
            continue;
        const double dx = double(bodies.x[j]) - xi;
        const double dy = double(bodies.y[j]) - yi;
        const double dz = double(bodies.z[j]) - zi;
        const double distance2 = dx * dx + dy * dy + dz * dz + softening2;
        const double weight = double(bodies.mass[j]) / (distance2 * std::sqrt(distance2));
        sum.x += weight * dx;
        sum.y += weight * dy;
        sum.z += weight * dz;
    }
    return sum;
}

/// The float solver's sums. kZeroSoftening: eps = 0, so a body's own term (r^2 = 0) is selected away and pairs of
/// distinct bodies with r^2 = 0 are counted; the first target index with one is returned. Otherwise eps^2 > 0 keeps
/// every r^2 positive and the own term is 0 * finite = 0 with no select in the loop.
template <bool kZeroSoftening>
std::optional<std::size_t> sumAccelerations(const Bodies& bodies, const GravityParams& gravity,
                                            Vec3Arrays<float>& out) {
    const std::size_t count = bodies.size();
    const float* sourceX = bodies.x.data();
    const float* sourceY = bodies.y.data();
    const float* sourceZ = bodies.z.data();
    const float* sourceMass = bodies.mass.data();
    const auto softening2 = float(gravity.softeningLength * gravity.softeningLength);
    const auto gravitationalConstant = float(gravity.gravitationalConstant);
    const auto targetCount = std::int64_t(count);
    std::int64_t firstCoincident = targetCount;
#pragma omp parallel for schedule(static)                                                                              \
    reduction(min                                                                                                      \
              : firstCoincident) if (parallel                                                                          \
                                     : targetCount * targetCount >= kMinPairsForParallel)
    for (std::int64_t i = 0; i < targetCount; ++i) {
        const float xi = sourceX[i], yi = sourceY[i], zi = sourceZ[i];
        float ax = 0, ay = 0, az = 0;
        int zeroDistances = 0;
#pragma omp simd reduction(+ : ax, ay, az, zeroDistances)
        for (std::size_t j = 0; j < count; ++j) {
            const float dx = sourceX[j] - xi;
            const float dy = sourceY[j] - yi;
            const float dz = sourceZ[j] - zi;
            const float distance2 = dx * dx + dy * dy + dz * dz + softening2;
            float inverseDistance = 1.0f / std::sqrt(distance2);
            if constexpr (kZeroSoftening) {
                zeroDistances += distance2 == 0.0f ? 1 : 0;
                inverseDistance = distance2 == 0.0f ? 0.0f : inverseDistance;
            }
            const float weight = sourceMass[j] * inverseDistance * inverseDistance * inverseDistance;
            ax += weight * dx;
            ay += weight * dy;
            az += weight * dz;
        }
        if (kZeroSoftening && zeroDistances > 1) // one of them is the body itself
            firstCoincident = std::min(firstCoincident, i);
        out.x[std::size_t(i)] = gravitationalConstant * ax;
        out.y[std::size_t(i)] = gravitationalConstant * ay;
        out.z[std::size_t(i)] = gravitationalConstant * az;
    }
    if (firstCoincident == targetCount)
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
    const auto count = std::int64_t(targets.size());
#pragma omp parallel for schedule(static) if (parallel : count * std::int64_t(bodies.size()) >= kMinPairsForParallel)
    for (std::int64_t k = 0; k < count; ++k) {
        const AccelerationFp64 sum = accelerationOfFp64(bodies, targets[std::size_t(k)], softening2);
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
    if (gravity.softeningLength == 0.0)
        return sumAccelerations<true>(bodies, gravity, out);
    return sumAccelerations<false>(bodies, gravity, out);
}

} // namespace gravlab
