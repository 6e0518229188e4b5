// Speed, |a| and tree-force error per body on the CPU (BodyScalarsCpu.hpp).
#include "color/BodyScalarsCpu.hpp"

#include "color/ForceErrorSample.hpp"
#include "core/Parallel.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace gravlab {
namespace {

/// The direct-sum acceleration of body target in double: G sum_j m_j d / (|d|^2 + eps^2)^(3/2), j != target.
std::array<double, 3> directAcceleration(const Bodies& bodies, std::size_t target, double softening2, double g) {
    const double tx = bodies.x[target];
    const double ty = bodies.y[target];
    const double tz = bodies.z[target];
    double ax = 0, ay = 0, az = 0;
    for (std::size_t j = 0; j < bodies.size(); ++j) {
        const double dx = double(bodies.x[j]) - tx;
        const double dy = double(bodies.y[j]) - ty;
        const double dz = double(bodies.z[j]) - tz;
        const double r2 = dx * dx + dy * dy + dz * dz + softening2;
        // The target itself has d = 0 and adds nothing: 0 * finite for eps > 0, selected away for eps = 0.
        const double inverse = r2 > 0.0 ? 1.0 / std::sqrt(r2) : 0.0;
        const double factor = double(bodies.mass[j]) * inverse * inverse * inverse;
        ax += factor * dx;
        ay += factor * dy;
        az += factor * dz;
    }
    return {g * ax, g * ay, g * az};
}

} // namespace

void computeSpeedsCpu(const Bodies& bodies, std::vector<float>& out) {
    out.resize(bodies.size());
    const auto count = std::int64_t(bodies.size());
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        out[i] = std::sqrt(bodies.vx[i] * bodies.vx[i] + bodies.vy[i] * bodies.vy[i] + bodies.vz[i] * bodies.vz[i]);
    }
}

void computeAccelerationMagnitudesCpu(const Vec3Arrays<float>& accelerations, std::vector<float>& out) {
    out.resize(accelerations.x.size());
    const auto count = std::int64_t(out.size());
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        const float ax = accelerations.x[i], ay = accelerations.y[i], az = accelerations.z[i];
        out[i] = std::sqrt(ax * ax + ay * ay + az * az);
    }
}

std::size_t computeTreeForceErrorsCpu(const Bodies& bodies, const Vec3Arrays<float>& treeAccelerations,
                                      const GravityParams& gravity, std::vector<float>& out) {
    out.assign(bodies.size(), std::numeric_limits<float>::quiet_NaN());
    const std::vector<std::uint32_t> targets = forceErrorTargets(bodies.size(), kForceErrorAllBodiesLimitCpu);
    const double softening2 = gravity.softeningLength * gravity.softeningLength;
    const auto count = std::int64_t(targets.size());
    const bool worthForking = count * std::int64_t(bodies.size()) >= kMinPairsForParallel;
#pragma omp parallel for schedule(dynamic, 16) if (worthForking)
    for (std::int64_t k = 0; k < count; ++k) {
        const std::size_t i = targets[std::size_t(k)];
        const std::array<double, 3> direct = directAcceleration(bodies, i, softening2, gravity.gravitationalConstant);
        const double ex = double(treeAccelerations.x[i]) - direct[0];
        const double ey = double(treeAccelerations.y[i]) - direct[1];
        const double ez = double(treeAccelerations.z[i]) - direct[2];
        const double reference = std::sqrt(direct[0] * direct[0] + direct[1] * direct[1] + direct[2] * direct[2]);
        out[i] = float(std::sqrt(ex * ex + ey * ey + ez * ez) / reference);
    }
    return targets.size();
}

} // namespace gravlab
