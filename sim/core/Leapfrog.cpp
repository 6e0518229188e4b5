// Kick and drift of the leapfrog integrator on the CPU (the KDK sequence is in Leapfrog.hpp).
//
// Design note: each is one streaming pass over the structure of arrays, parallel over bodies; they are O(N) next to
// the O(N^2) force, so they only need to be memory-bound, not clever.
#include "core/Leapfrog.hpp"

#include "core/Parallel.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace gravlab {

void kickCpu(Bodies& bodies, const Vec3Arrays<float>& accelerations, float duration) {
    if (accelerations.size() != bodies.size())
        throw std::invalid_argument("kick: " + std::to_string(accelerations.size()) + " accelerations for " +
                                    std::to_string(bodies.size()) + " bodies");
    const auto count = std::int64_t(bodies.size());
#pragma omp parallel for simd schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t i = 0; i < count; ++i) {
        bodies.vx[std::size_t(i)] += accelerations.x[std::size_t(i)] * duration;
        bodies.vy[std::size_t(i)] += accelerations.y[std::size_t(i)] * duration;
        bodies.vz[std::size_t(i)] += accelerations.z[std::size_t(i)] * duration;
    }
}

void driftCpu(Bodies& bodies, float duration) {
    const auto count = std::int64_t(bodies.size());
#pragma omp parallel for simd schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t i = 0; i < count; ++i) {
        bodies.x[std::size_t(i)] += bodies.vx[std::size_t(i)] * duration;
        bodies.y[std::size_t(i)] += bodies.vy[std::size_t(i)] * duration;
        bodies.z[std::size_t(i)] += bodies.vz[std::size_t(i)] * duration;
    }
}

} // namespace gravlab
