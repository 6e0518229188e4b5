// Accuracy report: sampling, fp64 reference and nearest-rank error statistics (see AccuracyReport.hpp).
#include "core/Random.hpp"

#include <gravlab/sim/AccuracyReport.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace gravlab {
namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// The smallest error with at least percent % of the sorted sample at or below it (integer maths: no rounding).
double nearestRank(const std::vector<double>& sorted, std::size_t percent) {
    const std::size_t rank = std::max<std::size_t>(1, (percent * sorted.size() + 99) / 100);
    return sorted[rank - 1];
}

bool samePositionsAndMasses(const Bodies& a, const Bodies& b) {
    return a.x == b.x && a.y == b.y && a.z == b.z && a.mass == b.mass;
}

} // namespace

RelativeErrorStatistics summarizeRelativeErrors(std::vector<double> errors) {
    RelativeErrorStatistics statistics;
    statistics.sampleCount = errors.size();
    if (errors.empty())
        return statistics;
    for (double& error : errors)
        if (std::isnan(error))
            error = std::numeric_limits<double>::infinity();
    std::sort(errors.begin(), errors.end());
    statistics.median = nearestRank(errors, 50);
    statistics.percentile90 = nearestRank(errors, 90);
    statistics.percentile99 = nearestRank(errors, 99);
    statistics.max = errors.back();
    return statistics;
}

std::vector<std::size_t> sampleBodyIndices(std::size_t bodyCount, std::size_t sampleCount, std::uint64_t seed) {
    std::vector<std::size_t> indices;
    if (sampleCount >= bodyCount) {
        indices.resize(bodyCount);
        for (std::size_t i = 0; i < bodyCount; ++i)
            indices[i] = i;
        return indices;
    }
    // Floyd's algorithm: for j = N - k .. N - 1 draw t uniform in [0, j]; take t, or j when t is already taken.
    // Every k-subset is equally likely, with k draws.
    RandomStream random(seed, 0);
    std::unordered_set<std::size_t> chosen;
    chosen.reserve(sampleCount * 2);
    for (std::size_t j = bodyCount - sampleCount; j < bodyCount; ++j) {
        const auto t = std::min(j, std::size_t(random.uniform() * double(j + 1)));
        chosen.insert(chosen.contains(t) ? j : t);
    }
    indices.assign(chosen.begin(), chosen.end());
    std::sort(indices.begin(), indices.end());
    return indices;
}

double relativeAccelerationError(const double (&acceleration)[3], const double (&reference)[3]) {
    const double dx = acceleration[0] - reference[0], dy = acceleration[1] - reference[1],
                 dz = acceleration[2] - reference[2];
    const double difference = std::sqrt(dx * dx + dy * dy + dz * dz);
    const double magnitude =
        std::sqrt(reference[0] * reference[0] + reference[1] * reference[1] + reference[2] * reference[2]);
    if (std::isnan(difference))
        return std::numeric_limits<double>::infinity();
    if (magnitude == 0)
        return difference == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return difference / magnitude;
}

double AccuracyReference::update(const Bodies& bodies, const GravityParams& gravity) {
    const bool sameGravity = gravity.gravitationalConstant == m_gravity.gravitationalConstant &&
                             gravity.softeningLength == m_gravity.softeningLength;
    if (m_computed && sameGravity && samePositionsAndMasses(bodies, m_bodies))
        return 0.0;
    const auto start = Clock::now();
    m_computed = false;
    m_indices = sampleBodyIndices(bodies.size(), m_sampleCount, m_seed);
    computeAccelerationsFp64(bodies, gravity, m_indices, m_accelerations);
    m_bodies.x = bodies.x;
    m_bodies.y = bodies.y;
    m_bodies.z = bodies.z;
    m_bodies.mass = bodies.mass;
    m_gravity = gravity;
    m_computed = true;
    return millisecondsSince(start);
}

AccuracyMeasurement measureAccuracy(SimulationBackend& backend, const SimParams& params, AccuracyReference& reference) {
    AccuracyMeasurement measurement;
    Vec3Arrays<float> accelerations;
    const auto start = Clock::now();
    backend.readAccelerations(params, accelerations);
    measurement.solverMilliseconds = millisecondsSince(start);
    Bodies bodies;
    backend.readBodies(bodies);
    if (accelerations.size() != bodies.size())
        throw std::runtime_error("accuracy report: the backend returned " + std::to_string(accelerations.size()) +
                                 " accelerations for " + std::to_string(bodies.size()) + " bodies");
    measurement.referenceMilliseconds = reference.update(bodies, params.gravity());

    const std::vector<std::size_t>& indices = reference.sampleIndices();
    const Vec3Arrays<double>& expected = reference.accelerations();
    std::vector<double> errors(indices.size());
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const std::size_t body = indices[k];
        const double solver[3] = {accelerations.x[body], accelerations.y[body], accelerations.z[body]};
        const double exact[3] = {expected.x[k], expected.y[k], expected.z[k]};
        errors[k] = relativeAccelerationError(solver, exact);
    }
    measurement.errors = summarizeRelativeErrors(std::move(errors));
    return measurement;
}

} // namespace gravlab
