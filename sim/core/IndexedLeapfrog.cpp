// The leapfrog kick for a list of bodies (see IndexedLeapfrog.hpp).
//
// Design note: one gather-scatter pass over the list, parallel over its entries when it is long; O(list) next to the
// force evaluation of the same bodies.
#include "core/IndexedLeapfrog.hpp"

#include "core/Parallel.hpp"

#include <stdexcept>
#include <string>

namespace gravlab {

void kickListCpu(Bodies& bodies, const Vec3Arrays<float>& accelerations, std::span<const std::uint32_t> indices,
                 float duration) {
    if (accelerations.size() != bodies.size())
        throw std::invalid_argument("kick: " + std::to_string(accelerations.size()) + " accelerations for " +
                                    std::to_string(bodies.size()) + " bodies");
    const auto count = std::int64_t(indices.size());
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const std::size_t i = indices[std::size_t(k)];
        bodies.vx[i] += accelerations.x[i] * duration;
        bodies.vy[i] += accelerations.y[i] * duration;
        bodies.vz[i] += accelerations.z[i] * duration;
    }
}

} // namespace gravlab
