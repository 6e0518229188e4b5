// Medians of timings (BenchStatistics.hpp).
#include "BenchStatistics.hpp"

#include <algorithm>

namespace gravlab {

double median(std::vector<double> values) {
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

std::vector<PhaseTiming> medianPhases(const std::vector<std::vector<PhaseTiming>>& steps) {
    if (steps.empty())
        return {};
    std::vector<PhaseTiming> medians = steps.back();
    for (std::size_t phase = 0; phase < medians.size(); ++phase) {
        std::vector<double> values;
        for (const std::vector<PhaseTiming>& step : steps)
            if (phase < step.size())
                values.push_back(step[phase].milliseconds);
        medians[phase].milliseconds = median(values);
    }
    return medians;
}

} // namespace gravlab
