#pragma once
// The arithmetic of hierarchical (block) time steps, shared by the CPU stepper and the CUDA kernels so both assign the
// same levels to the same accelerations.
//
// Design note: a base step dt is cut into 2^maxLevel ticks; a body on level l takes steps of dt / 2^l, i.e.
// 2^(maxLevel - l) ticks, and its steps always begin and end on multiples of that many ticks, so the levels stay nested
// (the power-of-two block steps of GADGET, pkdgrav and ChaNGa; Springel 2005, MNRAS 364, 1105, section 4). A body's
// wanted level is the smallest l whose step dt / 2^l is no longer than the criterion eta * sqrt(eps / |a|), found by
// halving (exact in binary), and its squared bound computed in double, so the CPU and the GPU agree bit for bit on
// the same acceleration. A body may move to a deeper (shorter) level whenever its step ends; to a shallower (longer)
// one only at a tick that the longer step divides, which nextTimeStepLevel finds.
// The symmetric choice (LevelChoice::Symmetric) asks the criterion at both ends of the step, as a time-symmetric
// integrator must (Hut, Makino and McMillan 1995): a level read at the start alone takes an approach on the long step
// and the departure on the short one, and many such one-sided changes add up to a steady energy drift (measured on the
// galaxy collision, docs/PERFORMANCE.md). The end's acceleration is not known before the step, so it is extrapolated
// linearly from the body's last two evaluations.
// The tidal choice (LevelChoice::Tidal) asks instead for a fraction eta of the local dynamical time 1 / omega, the
// time scale of orbital motion, which the acceleration criterion misses: it is not invariant under a uniform field and
// promises long steps wherever |a| is small, as in the centre of a cored bulge or cluster, though the orbits there are
// short (Grudic and Hopkins 2020, MNRAS 495, 4306, who take omega^2 from the tidal tensor T = da/dx). Here omega^2 is
// T's size along the body's path, read off its last step for free: the acceleration changed by da while the body
// moved by dx, so omega^2 = |da| / |dx| (exact for a harmonic core; T v / |v| on a circular orbit, whose frequency it
// gives). Without a last step (the first step, after a load, a rollback, reversed velocities or other steps) the
// acceleration criterion with the same eta stands in; eta being a fraction of a dynamical time, that step is short.
// Two limits: dx is taken in the simulation's frame, so a system moving fast through it shows a lower omega than in
// its own frame; and a history one step old comes too late where the density jumps everywhere at once, as through a
// cold collapse's bounce, where the start's choice does better (measured, docs/PERFORMANCE.md).
#include <gravlab/sim/HostDevice.hpp>
#include <gravlab/sim/LevelChoice.hpp>

#include <cmath>
#include <cstdint>

namespace gravlab {

/// What the level criterion reads besides the acceleration.
struct TimeStepCriterion {
    double baseStep;  ///< dt, the step of level 0
    double softening; ///< eps, the Plummer softening length
    double accuracy;  ///< eta
    std::uint32_t maxLevel;
    LevelChoice choice = LevelChoice::Start;
};

/// Ticks of one step of level: 2^(maxLevel - level).
GRAVLAB_HOST_DEVICE std::uint32_t levelStepTicks(std::uint32_t level, std::uint32_t maxLevel) {
    return std::uint32_t{1} << (maxLevel - level);
}

/// The smallest level whose step's square is at most allowedSquared, at most criterion.maxLevel; found by halving the
/// base step, which is exact in binary.
GRAVLAB_HOST_DEVICE std::uint32_t levelOfSquaredStep(double allowedSquared, const TimeStepCriterion& criterion) {
    double step = criterion.baseStep;
    std::uint32_t level = 0;
    while (level < criterion.maxLevel && step * step > allowedSquared) {
        step *= 0.5;
        ++level;
    }
    return level;
}

/// The level eta * sqrt(eps / |a|) asks for, a2 = |a|^2: 0 for a zero or non-finite acceleration (a non-finite one is
/// reported by the step's finiteness check, not hidden by a deep level), at most criterion.maxLevel.
GRAVLAB_HOST_DEVICE std::uint32_t wantedTimeStepLevel(float ax, float ay, float az,
                                                      const TimeStepCriterion& criterion) {
    const double a2 = double(ax) * double(ax) + double(ay) * double(ay) + double(az) * double(az);
    if (!(a2 > 0.0) || !(a2 < 1e300))
        return 0;
    // step^2 <= eta^2 eps / |a|, without taking the step's root.
    return levelOfSquaredStep(criterion.accuracy * criterion.accuracy * criterion.softening / std::sqrt(a2), criterion);
}

/// How much longer than tau(start) the end's tau may count in the symmetric choice: an extrapolated |a| near zero
/// would otherwise promise an unbounded step; with 4 a step is at most 2.5 tau(start).
inline constexpr double kSymmetricEndCap = 4.0;

/// a * b + c with two roundings on both sides: nvcc would fuse it into one, and the CPU and the GPU must pick the same
/// level for the same acceleration and slope (the host build targets x86-64 without FMA, so it rounds twice).
GRAVLAB_HOST_DEVICE double multiplyAddUnfused(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
    return __dadd_rn(__dmul_rn(a, b), c);
#else
    return a * b + c;
#endif
}

/// The level of the symmetric choice: the smallest whose step h satisfies h <= (tau(a) + tau(a + slope h)) / 2, with
/// tau(a) = eta sqrt(eps / |a|) and slope = da/dt from the body's last two evaluations (zero without them, which makes
/// the rule wantedTimeStepLevel's h <= tau(a)). 0 for a zero or non-finite acceleration, at most criterion.maxLevel.
GRAVLAB_HOST_DEVICE std::uint32_t wantedSymmetricLevel(float ax, float ay, float az, const double slope[3],
                                                       const TimeStepCriterion& criterion) {
    const double a[3] = {ax, ay, az};
    const double start = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    if (!(start > 0.0) || !(start < 1e150))
        return 0;
    const double tauStart = criterion.accuracy * std::sqrt(criterion.softening / start);
    double step = criterion.baseStep;
    std::uint32_t level = 0;
    while (level < criterion.maxLevel) {
        double end = 0.0;
        for (int k = 0; k < 3; ++k) {
            const double atEnd = multiplyAddUnfused(slope[k], step, a[k]);
            end = multiplyAddUnfused(atEnd, atEnd, end);
        }
        end = std::sqrt(end);
        const double tauEnd = end > 0.0 ? criterion.accuracy * std::sqrt(criterion.softening / end) : 1e300;
        if (step <= 0.5 * (tauStart + std::fmin(tauEnd, kSymmetricEndCap * tauStart)))
            break;
        step *= 0.5;
        ++level;
    }
    return level;
}

/// A body's acceleration before its last evaluation and the time between the two, from which the symmetric choice
/// takes its slope and the tidal one its change of acceleration; interval 0 when there is none (after a load, a
/// rollback, reversed velocities or other steps).
struct EarlierAcceleration {
    float x = 0.0f, y = 0.0f, z = 0.0f;
    float interval = 0.0f;
};

/// The level of the tidal choice: the smallest whose step h satisfies h <= eta / omega, omega^2 = |da| / |dx|, where
/// da = a - earlier is the change of the acceleration over the body's last step (earlier.interval long) and dx the
/// distance it drifted meanwhile, (v - a interval / 2) interval: v is its velocity after that step's closing half-kick,
/// which the subtraction undoes. With no last step, or one that did not move the body or did not change its
/// acceleration, the acceleration criterion (wantedTimeStepLevel) stands in; a changed acceleration of a body that did
/// not move is a field changing in time, which no path length measures. 0 for a non-finite input, at most
/// criterion.maxLevel.
GRAVLAB_HOST_DEVICE std::uint32_t wantedTidalLevel(float ax, float ay, float az, const EarlierAcceleration& earlier,
                                                   float vx, float vy, float vz, const TimeStepCriterion& criterion) {
    if (!(earlier.interval > 0.0f))
        return wantedTimeStepLevel(ax, ay, az, criterion);
    const double interval = earlier.interval;
    const double a[3] = {ax, ay, az}, before[3] = {earlier.x, earlier.y, earlier.z}, v[3] = {vx, vy, vz};
    double change = 0.0, distance = 0.0;
    for (int k = 0; k < 3; ++k) {
        const double da = a[k] - before[k];
        const double dx = multiplyAddUnfused(-0.5 * interval, a[k], v[k]) * interval;
        change = multiplyAddUnfused(da, da, change);
        distance = multiplyAddUnfused(dx, dx, distance);
    }
    if (!(change < 1e300) || !(distance < 1e300))
        return 0;
    if (!(change > 0.0) || !(distance > 0.0))
        return wantedTimeStepLevel(ax, ay, az, criterion);
    // step^2 <= eta^2 / omega^2 = eta^2 |dx| / |da|.
    return levelOfSquaredStep(criterion.accuracy * criterion.accuracy * std::sqrt(distance / change), criterion);
}

/// The level the criterion asks for, on either backend, for a body with acceleration a, velocity v (after its last
/// closing half-kick) and the acceleration before its last evaluation (interval 0 when it has none): the start's rule,
/// the symmetric one with the slope (a - earlier) / interval, or the tidal one.
GRAVLAB_HOST_DEVICE std::uint32_t chosenTimeStepLevel(float ax, float ay, float az, const EarlierAcceleration& earlier,
                                                      float vx, float vy, float vz,
                                                      const TimeStepCriterion& criterion) {
    if (criterion.choice == LevelChoice::Tidal)
        return wantedTidalLevel(ax, ay, az, earlier, vx, vy, vz, criterion);
    if (criterion.choice == LevelChoice::Start)
        return wantedTimeStepLevel(ax, ay, az, criterion);
    double slope[3] = {0.0, 0.0, 0.0};
    if (earlier.interval > 0.0f) {
        const double interval = earlier.interval;
        slope[0] = (double(ax) - double(earlier.x)) / interval;
        slope[1] = (double(ay) - double(earlier.y)) / interval;
        slope[2] = (double(az) - double(earlier.z)) / interval;
    }
    return wantedSymmetricLevel(ax, ay, az, slope, criterion);
}

/// The shallowest level whose step ends at tick (every deeper level's ends there too); maxLevel's always does.
GRAVLAB_HOST_DEVICE std::uint32_t shallowestLevelEndingAt(std::uint32_t tick, std::uint32_t maxLevel) {
    std::uint32_t level = 0;
    while (level < maxLevel && tick % levelStepTicks(level, maxLevel) != 0)
        ++level;
    return level;
}

/// The level a body whose step ends at tick takes next: wanted when it is at least as deep as current, otherwise the
/// shallowest level from wanted down to current whose steps tick is a multiple of (current always is: its step ended).
GRAVLAB_HOST_DEVICE std::uint32_t nextTimeStepLevel(std::uint32_t current, std::uint32_t wanted, std::uint32_t tick,
                                                    std::uint32_t maxLevel) {
    std::uint32_t level = wanted;
    while (level < current && tick % levelStepTicks(level, maxLevel) != 0)
        ++level;
    return level;
}

} // namespace gravlab
