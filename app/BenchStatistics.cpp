// Medians and means of timings (BenchStatistics.hpp).
#include "BenchStatistics.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace gravlab {

double median(std::vector<double> values) {
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

namespace {

/// Each phase of the last step with reduce() of its values over the steps that reported it.
template <typename Reduce>
std::vector<PhaseTiming> reducePhases(const std::vector<std::vector<PhaseTiming>>& steps, Reduce reduce) {
    if (steps.empty())
        return {};
    std::vector<PhaseTiming> reduced = steps.back();
    for (std::size_t phase = 0; phase < reduced.size(); ++phase) {
        std::vector<double> values;
        for (const std::vector<PhaseTiming>& step : steps)
            if (phase < step.size())
                values.push_back(step[phase].milliseconds);
        reduced[phase].milliseconds = reduce(std::move(values));
    }
    return reduced;
}

} // namespace

std::vector<PhaseTiming> medianPhases(const std::vector<std::vector<PhaseTiming>>& steps) {
    return reducePhases(steps, median);
}

std::vector<PhaseTiming> meanPhases(const std::vector<std::vector<PhaseTiming>>& steps) {
    return reducePhases(steps, [](std::vector<double> values) {
        return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
    });
}

} // namespace gravlab
