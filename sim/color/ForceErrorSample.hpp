#pragma once
// Which bodies the tree-force error map checks against the direct sum, and how often.
//
// Design note: the error of body i needs its direct-sum acceleration, N interactions. Up to a limit L (16384 on the
// CPU, 262144 on the GPU) every body is checked: L^2 interactions, about 0.3 s on 16 cores or 2 s on an H100. Above
// it a deterministic sample of L^2 / N bodies (every (N / S)-th one, at least kMinForceErrorSample) keeps the cost at
// that budget; the other bodies have no value and are drawn dim grey (kUnsampledColorScalar), so the map never
// pretends to know an error it did not compute. While the state changes the map is recomputed at most every
// kForceErrorRefreshSeconds, or sooner when it is cheap (ScalarColoring.hpp), so a running simulation stays
// interactive.
#include "color/ScalarRange.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gravlab {

inline constexpr std::size_t kForceErrorAllBodiesLimitCpu = 16384;
inline constexpr std::size_t kForceErrorAllBodiesLimitCuda = 262144;
inline constexpr std::size_t kMinForceErrorSample = 1024;
inline constexpr double kForceErrorRefreshSeconds = 0.5;

/// Bodies checked out of bodyCount with the given all-bodies limit (see the design note).
inline std::size_t forceErrorSampleCount(std::size_t bodyCount, std::size_t allBodiesLimit) {
    if (bodyCount <= allBodiesLimit)
        return bodyCount;
    const std::uint64_t budget = std::uint64_t(allBodiesLimit) * std::uint64_t(allBodiesLimit);
    return std::max<std::size_t>(kMinForceErrorSample, std::size_t(budget / bodyCount));
}

/// The indices of the checked bodies, ascending.
inline std::vector<std::uint32_t> forceErrorTargets(std::size_t bodyCount, std::size_t allBodiesLimit) {
    const std::size_t count = forceErrorSampleCount(bodyCount, allBodiesLimit);
    std::vector<std::uint32_t> targets(count);
    for (std::size_t k = 0; k < count; ++k)
        targets[k] = std::uint32_t(sampledBodyIndex(k, count, bodyCount));
    return targets;
}

} // namespace gravlab
