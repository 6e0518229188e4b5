// Kick and drift of the leapfrog integrator in double precision, on float-float pairs (Precision.hpp).
//
// Design note: each coordinate is joined to a double, updated in double and split back (high = float(s), low =
// float(s - high)), so a step rounds the state to 48 bits instead of 24: the energy of an eccentric Kepler orbit then
// random-walks at the level of fp64 instead of float's 1e-7 per step. The loops are the single-precision ones with the
// join and split around the update; they stay memory-bound (24 bytes more per body and update) and O(N) next to the
// force evaluation.
#include "core/Leapfrog.hpp"
#include "core/Parallel.hpp"

#include <gravlab/sim/Precision.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace gravlab {
namespace {

void requirePairs(const Bodies& bodies, const char* what) {
    if (!bodies.hasLowParts() || !bodies.consistent())
        throw std::invalid_argument(std::string(what) + ": the bodies carry no complete low parts (" +
                                    std::to_string(bodies.xLow.size()) + " for " + std::to_string(bodies.size()) +
                                    " bodies); double precision needs them");
}

/// high + low += rate * duration, in double.
inline void advance(float& high, float& low, double rate, double duration) {
    const FloatPair sum = splitDouble(joinPair(high, low) + rate * duration);
    high = sum.high;
    low = sum.low;
}

} // namespace

void kickPairsCpu(Bodies& bodies, const Vec3Arrays<float>& accelerations, const Vec3Arrays<float>& accelerationLow,
                  double duration) {
    requirePairs(bodies, "kick");
    if (accelerations.size() != bodies.size() ||
        (accelerationLow.size() != 0 && accelerationLow.size() != bodies.size()))
        throw std::invalid_argument("kick: " + std::to_string(accelerations.size()) + " accelerations (" +
                                    std::to_string(accelerationLow.size()) + " low parts) for " +
                                    std::to_string(bodies.size()) + " bodies");
    const bool fp64Accelerations = accelerationLow.size() != 0;
    const auto count = std::int64_t(bodies.size());
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        const double ax = fp64Accelerations ? joinPair(accelerations.x[i], accelerationLow.x[i]) : accelerations.x[i];
        const double ay = fp64Accelerations ? joinPair(accelerations.y[i], accelerationLow.y[i]) : accelerations.y[i];
        const double az = fp64Accelerations ? joinPair(accelerations.z[i], accelerationLow.z[i]) : accelerations.z[i];
        advance(bodies.vx[i], bodies.vxLow[i], ax, duration);
        advance(bodies.vy[i], bodies.vyLow[i], ay, duration);
        advance(bodies.vz[i], bodies.vzLow[i], az, duration);
    }
}

void driftPairsCpu(Bodies& bodies, double duration) {
    requirePairs(bodies, "drift");
    const auto count = std::int64_t(bodies.size());
#pragma omp parallel for schedule(static) if (parallel : count >= kMinBodiesForParallelStreaming)
    for (std::int64_t k = 0; k < count; ++k) {
        const auto i = std::size_t(k);
        advance(bodies.x[i], bodies.xLow[i], joinPair(bodies.vx[i], bodies.vxLow[i]), duration);
        advance(bodies.y[i], bodies.yLow[i], joinPair(bodies.vy[i], bodies.vyLow[i]), duration);
        advance(bodies.z[i], bodies.zLow[i], joinPair(bodies.vz[i], bodies.vzLow[i]), duration);
    }
}

} // namespace gravlab
