// Direct-summation gravity on the CPU (see DirectSumCpu.hpp for the formula).
//
// Design note: the fp64 reference converts nothing up front and skips j == i explicitly, so it stays correct for
// zero softening; one target per OpenMP iteration. It reads positions as float-float pairs when the bodies carry low
// parts (double precision, Precision.hpp), so it is the fp64 force of the fp64 state. The float solver reads the Bodies
// arrays in place (they are already a structure of arrays), folds eps^2 into r^2 so the j == i term is 0 * finite = 0
// without a branch, and keeps the inner loop free of calls and branches so `omp simd` vectorises it. With eps = 0 (a
// second instance of the loop) r^2 = 0 selects the term away and is counted: more than one per target (its own) is a
// coincident pair (sqrt and division are IEEE in the vector units too, so the vector and scalar paths agree to
// rounding). G is applied once per target. Work per pair: float 20 flops (3 sub, 3 fma for r^2, sqrt, div, 2 mul for
// 1/r^3 and m/r^3, 3 fma), 16 bytes of source data read from L1/L2.
#include "core/Parallel.hpp"

#include <gravlab/sim/DirectSumCpu.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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

/// The float solver's view of the sources and its sum for one target, shared by the all-body and the listed-target
/// versions so that both give the same bits. kZeroSoftening: eps = 0, so a body's own term (r^2 = 0) is selected away
/// and pairs of distinct bodies with r^2 = 0 are counted; otherwise eps^2 > 0 keeps every r^2 positive and the own term
/// is 0 * finite = 0 with no select in the loop.
class FloatSources {
public:
    FloatSources(const Bodies& bodies, const GravityParams& gravity)
        : m_x(bodies.x.data()), m_y(bodies.y.data()), m_z(bodies.z.data()), m_mass(bodies.mass.data()),
          m_count(bodies.size()), m_softening2(float(gravity.softeningLength * gravity.softeningLength)),
          m_gravitationalConstant(float(gravity.gravitationalConstant)) {}

    /// Writes target's acceleration into out; returns whether another body sits at its position (eps = 0 only).
    template <bool kZeroSoftening> bool accelerate(std::size_t target, Vec3Arrays<float>& out) const {
        const float xi = m_x[target], yi = m_y[target], zi = m_z[target];
        const float *sourceX = m_x, *sourceY = m_y, *sourceZ = m_z, *sourceMass = m_mass;
        const float softening2 = m_softening2;
        float ax = 0, ay = 0, az = 0;
        int zeroDistances = 0;
#pragma omp simd reduction(+ : ax, ay, az, zeroDistances)
        for (std::size_t j = 0; j < m_count; ++j) {
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
        out.x[target] = m_gravitationalConstant * ax;
        out.y[target] = m_gravitationalConstant * ay;
        out.z[target] = m_gravitationalConstant * az;
        return kZeroSoftening && zeroDistances > 1; // one of them is the body itself
    }

    bool zeroSoftening() const { return m_softening2 == 0.0f; }

private:
    const float *m_x, *m_y, *m_z, *m_mass;
    std::size_t m_count;
    float m_softening2;
    float m_gravitationalConstant;
};

/// Accelerates targets[k] (or k itself when targets is empty) for k < count; returns the smallest target index that
/// has a coincident partner.
template <bool kZeroSoftening>
std::optional<std::size_t> accelerateTargets(const FloatSources& sources, std::span<const std::uint32_t> targets,
                                             std::int64_t count, std::int64_t pairs, Vec3Arrays<float>& out) {
    std::int64_t firstCoincident = std::numeric_limits<std::int64_t>::max();
#pragma omp parallel for schedule(static) reduction(min : firstCoincident) if (parallel : pairs >= kMinPairsForParallel)
    for (std::int64_t k = 0; k < count; ++k) {
        const std::size_t target = targets.empty() ? std::size_t(k) : targets[std::size_t(k)];
        if (sources.accelerate<kZeroSoftening>(target, out))
            firstCoincident = std::min(firstCoincident, std::int64_t(target));
    }
    if (firstCoincident == std::numeric_limits<std::int64_t>::max())
        return std::nullopt;
    return std::size_t(firstCoincident);
}

std::optional<std::size_t> accelerateAll(const FloatSources& sources, std::span<const std::uint32_t> targets,
                                         std::int64_t count, std::int64_t pairs, Vec3Arrays<float>& out) {
    return sources.zeroSoftening() ? accelerateTargets<true>(sources, targets, count, pairs, out)
                                   : accelerateTargets<false>(sources, targets, count, pairs, out);
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
    const auto count = std::int64_t(bodies.size());
    return accelerateAll(FloatSources(bodies, gravity), {}, count, count * count, out);
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
    const auto count = std::int64_t(targets.size());
    if (count == 0)
        return std::nullopt;
    return accelerateAll(FloatSources(bodies, gravity), targets, count, count * std::int64_t(bodies.size()), out);
}

} // namespace gravlab
