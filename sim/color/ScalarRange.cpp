// Percentiles of a colour quantity's sample (ScalarRange.hpp).
#include "color/ScalarRange.hpp"

#include <algorithm>
#include <cmath>

namespace gravlab {

ScalarRange percentileRange(std::vector<float> sample, bool logarithmic, double lowPercentile, double highPercentile) {
    std::erase_if(sample, [logarithmic](float v) { return !std::isfinite(v) || (logarithmic && v <= 0.0f); });
    if (sample.empty())
        return {};
    const auto rank = [&](double percentile) {
        const double position = std::clamp(percentile / 100.0, 0.0, 1.0) * double(sample.size() - 1);
        return std::size_t(std::lround(position));
    };
    const std::size_t lowRank = rank(lowPercentile);
    const std::size_t highRank = rank(highPercentile);
    std::nth_element(sample.begin(), sample.begin() + std::ptrdiff_t(lowRank), sample.end());
    const float low = sample[lowRank];
    std::nth_element(sample.begin(), sample.begin() + std::ptrdiff_t(highRank), sample.end());
    return {low, sample[highRank]};
}

} // namespace gravlab
