#pragma once
// The robust range of a per-body quantity: the 1st to 99th percentile of a deterministic sample of the bodies.
//
// Design note: the colour map must show the bulk of the bodies, not the one escaper at 100 times the typical speed,
// so its ends are percentiles rather than the minimum and maximum. Percentiles of a sample of up to 65536 bodies are
// within a fraction of a percentile of the full set's and cost one small sort, on both backends alike (the CUDA
// backend gathers the sample on the device and sorts it on the host). The sample is every (N / S)-th body, so the
// same state gives the same range on every call and on both devices.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gravlab {

/// Bodies sampled for a colour range.
inline constexpr std::size_t kColorRangeSampleSize = 65536;
/// Percentiles of the sample that map to colour scalars 0 and 1.
inline constexpr double kColorRangeLowPercentile = 1.0;
inline constexpr double kColorRangeHighPercentile = 99.0;

/// Index of sample k of sampleCount bodies evenly spread over bodyCount: floor(k * bodyCount / sampleCount).
inline std::size_t sampledBodyIndex(std::size_t k, std::size_t sampleCount, std::size_t bodyCount) {
    return std::size_t(std::uint64_t(k) * std::uint64_t(bodyCount) / std::uint64_t(sampleCount));
}

struct ScalarRange {
    float low = 0;
    float high = 0;
};

/// The percentiles lowPercentile and highPercentile (0..100, nearest rank) of the finite values of sample, and of only
/// the positive ones when logarithmic (a log scale cannot place the others). {0, 0} when no value qualifies.
ScalarRange percentileRange(std::vector<float> sample, bool logarithmic,
                            double lowPercentile = kColorRangeLowPercentile,
                            double highPercentile = kColorRangeHighPercentile);

} // namespace gravlab
