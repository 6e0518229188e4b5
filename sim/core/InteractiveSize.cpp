// The step-cost model and the window's measured defaults (see InteractiveSize.hpp).
//
// Design note: the model's inverse is found by bisection on the body count rather than by a closed form, so the N log N
// law needs no Lambert function and both laws share one search; the step time is monotonic in N, so bisection is exact
// to one body in ~64 evaluations of a formula.
#include <gravlab/sim/InteractiveSize.hpp>
#include <gravlab/sim/StepBench.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace gravlab {
namespace {

/// Relative cost of one step at n bodies under the law.
double costUnits(bool allPairs, double n) {
    return allPairs ? n * n : n * std::log2(std::max(n, 2.0));
}

double medianStepSeconds(const StepTimes& times) {
    std::vector<double> seconds;
    for (const std::vector<PhaseTiming>& step : times.steps)
        seconds.push_back(1e-3 * totalMilliseconds(step));
    if (seconds.empty())
        throw std::logic_error("measureStepCost: no step was timed");
    std::nth_element(seconds.begin(), seconds.begin() + std::ptrdiff_t(seconds.size() / 2), seconds.end());
    return seconds[seconds.size() / 2];
}

/// Rounds down to two significant digits: 23456 -> 23000.
std::uint64_t twoSignificantDigits(std::uint64_t value) {
    std::uint64_t scale = 1;
    while (value / scale >= 100)
        scale *= 10;
    return value / scale * scale;
}

} // namespace

StepCostModel StepCostModel::of(const SolverInfo& solver, std::uint64_t bodies, double stepSeconds) {
    if (bodies < 2 || !(stepSeconds > 0) || !std::isfinite(stepSeconds))
        throw std::invalid_argument("step cost model: needs a measured step > 0 s at 2 or more bodies (got " +
                                    std::to_string(stepSeconds) + " s at " + std::to_string(bodies) + " bodies)");
    return {solver.allPairs, bodies, stepSeconds};
}

double StepCostModel::stepSecondsAt(std::uint64_t bodies) const {
    return measuredStepSeconds * costUnits(allPairs, double(bodies)) / costUnits(allPairs, double(measuredBodies));
}

std::uint64_t StepCostModel::largestBodiesWithin(double stepSeconds, std::uint64_t limit) const {
    std::uint64_t fits = 1;
    std::uint64_t tooMany = limit + 1;
    if (stepSecondsAt(limit) <= stepSeconds)
        return limit;
    while (tooMany - fits > 1) {
        const std::uint64_t middle = fits + (tooMany - fits) / 2;
        (stepSecondsAt(middle) <= stepSeconds ? fits : tooMany) = middle;
    }
    return fits;
}

InteractiveDefaults chooseInteractiveDefaults(const StepCostModel& model, int stepsPerFrame, std::uint64_t maxBodies) {
    const double frameStepSeconds = kStepShareOfFrame / kInteractiveFramesPerSecond;
    const std::uint64_t limit =
        std::max(maxBodies / kInteractiveBodyGranule, std::uint64_t{1}) * kInteractiveBodyGranule;
    InteractiveDefaults defaults{
        .bodyCount = kInteractiveBodyGranule, .stepsPerFrame = std::max(stepsPerFrame, 1), .model = model};
    while (defaults.stepsPerFrame > 1 &&
           model.stepSecondsAt(kInteractiveBodyGranule) * defaults.stepsPerFrame > frameStepSeconds)
        --defaults.stepsPerFrame;
    const std::uint64_t fitting = model.largestBodiesWithin(frameStepSeconds / defaults.stepsPerFrame, limit);
    defaults.bodyCount = std::max(fitting / kInteractiveBodyGranule, std::uint64_t{1}) * kInteractiveBodyGranule;
    return defaults;
}

std::uint64_t interactiveBodiesFromLiveStep(const SolverInfo& solver, std::uint64_t bodies, double stepsSeconds,
                                            int stepsPerFrame) {
    const int steps = std::max(stepsPerFrame, 1);
    if (bodies < 2 || !(stepsSeconds > 0))
        return 0;
    const StepCostModel model = StepCostModel::of(solver, bodies, stepsSeconds / steps);
    const double frameStepSeconds = kStepShareOfFrame / kInteractiveFramesPerSecond / steps;
    return twoSignificantDigits(model.largestBodiesWithin(frameStepSeconds, std::uint64_t{1} << 32));
}

StepCostModel measureStepCost(const SimParams& params, const BackendFactory& makeBackend) {
    const SolverInfo& solver = findSolver(params.solver);
    SimParams probe = params;
    // A Plummer sphere stands for every scenario: the all-pairs cost does not depend on where the bodies are, and the
    // tree's varies far less between scenarios than between machines; some scenarios also fix their body count.
    probe.scenario = "plummer";
    probe.scenarioParams = {};
    probe.initialFile.clear();
    probe.initialFileFormat.reset();
    probe.bodyCount = solver.allPairs ? 4096 : 16384;
    probe.orb.domainCount = 0;
    const StepTimes times = timeSteps(probe, makeBackend, 1, 3);
    return StepCostModel::of(solver, probe.bodyCount, medianStepSeconds(times));
}

} // namespace gravlab
