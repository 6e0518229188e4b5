// Conservation of energy, momentum and angular momentum by leapfrog on a 1k-body Plummer sphere (CPU backend).
//
// One run of 1000 steps is shared by the three tests (it is the expensive part); diagnostics are sampled every
// kSampleInterval steps in fp64 with the same softening as the forces.
#include "SimTestSupport.hpp"
#include "core/CpuBackend.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <algorithm>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

constexpr std::size_t kBodyCount = 1000;
constexpr int kStepCount = 1000;
constexpr int kSampleInterval = 50;

struct ConservationRun {
    std::uint64_t seed = 0;
    Diagnostics initial;
    double worstEnergyError = 0;           ///< max |E - E0| / |E0| over the samples
    double worstMomentumChange = 0;        ///< max |P - P0| / sum m |v|
    double worstAngularMomentumChange = 0; ///< max |L - L0| / sum m |x| |v|
};

double momentumScale(const Bodies& bodies, bool angular) {
    double scale = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const double lever = angular ? simtest::norm(simtest::positionOf(bodies, i)) : 1.0;
        scale += bodies.mass[i] * lever * simtest::norm(simtest::velocityOf(bodies, i));
    }
    return scale;
}

double change(const std::array<double, 3>& now, const std::array<double, 3>& start) {
    return simtest::norm(simtest::sub(now, start));
}

/// A Plummer sphere with varied masses (simtest::variedMassPlummer), so that a force that mixes up m_i and m_j breaks
/// momentum conservation instead of hiding behind equal masses.
ConservationRun runPlummerSphere() {
    ConservationRun run;
    run.seed = simtest::freshSeed();
    std::mt19937_64 random(run.seed);
    Bodies bodies = simtest::variedMassPlummer(kBodyCount, random);

    SimParams params;
    params.timeStep = 0.005;
    params.softeningLength = 0.05;
    CpuBackend backend;
    backend.load(bodies);
    run.initial = backend.diagnostics(params);
    const double linearScale = momentumScale(bodies, false), angularScale = momentumScale(bodies, true);
    for (int done = 0; done < kStepCount; done += kSampleInterval) {
        backend.step(params, kSampleInterval);
        const Diagnostics now = backend.diagnostics(params);
        run.worstEnergyError = std::max(run.worstEnergyError, std::abs(now.totalEnergy() - run.initial.totalEnergy()) /
                                                                  std::abs(run.initial.totalEnergy()));
        run.worstMomentumChange =
            std::max(run.worstMomentumChange, change(now.linearMomentum, run.initial.linearMomentum) / linearScale);
        run.worstAngularMomentumChange = std::max(
            run.worstAngularMomentumChange, change(now.angularMomentum, run.initial.angularMomentum) / angularScale);
    }
    return run;
}

const ConservationRun& sharedRun() {
    static const ConservationRun run = runPlummerSphere();
    return run;
}

TEST(LeapfrogConservation, EnergyErrorOver1000StepsOfPlummerSphereIsSmall) {
    const ConservationRun& run = sharedRun();
    SCOPED_TRACE(simtest::seedTrace(run.seed));
    // dt = 0.005 is 1/560 of the crossing time 2 sqrt(2) and 1/20 of the time a body at the typical speed 0.7
    // needs to cross the softening length 0.05, so KDK's (dt / tau)^2 error stays small even for the closest pairs;
    // 60 seeds measured 1e-6 to 4.5e-6. The bound 5e-5 leaves a margin of 10; a first-order integrator (a stale
    // acceleration or a missing half kick) or a force without softening exceeds it by orders of magnitude.
    constexpr double kEnergyBound = 5e-5;
    EXPECT_LT(run.worstEnergyError, kEnergyBound);
    RecordProperty("worst_relative_energy_error", simtest::scientific(run.worstEnergyError));
}

TEST(LeapfrogConservation, TotalMomentumIsConservedToRounding) {
    const ConservationRun& run = sharedRun();
    SCOPED_TRACE(simtest::seedTrace(run.seed));
    // Pairwise forces cancel exactly in exact arithmetic; the float solver computes a_i and a_j separately, so each
    // step leaves a residual of float rounding (~1e-7 of the force scale) that random-walks over the 1000 steps.
    // 60 seeds measured 2e-8 to 1e-7 of sum m |v|; the bound is 1e-6. A force using m_i for m_j with these unequal
    // masses changes the momentum by order 1e-2 per unit time.
    constexpr double kMomentumBound = 1e-6;
    EXPECT_LT(run.worstMomentumChange, kMomentumBound);
    RecordProperty("worst_momentum_change", simtest::scientific(run.worstMomentumChange));
}

TEST(LeapfrogConservation, AngularMomentumIsConservedToRounding) {
    const ConservationRun& run = sharedRun();
    SCOPED_TRACE(simtest::seedTrace(run.seed));
    // KDK conserves angular momentum exactly for central pair forces; what remains is float rounding. Its largest
    // part is the rounding of x += v dt for the few bodies far out in the Plummer halo (r up to ~100): each step
    // moves L by up to eps_f m |x| |v|, i.e. by ~sqrt(1000) eps_f = 2e-6 of those bodies' share as a random walk and
    // at most 1000 eps_f = 6e-5 if every rounding went the same way. 60 seeds measured 3e-8 to 2e-6 of
    // sum m |x| |v|; the bound is 1e-5. A non-central force error destroys L at order one.
    constexpr double kAngularMomentumBound = 1e-5;
    EXPECT_LT(run.worstAngularMomentumChange, kAngularMomentumBound);
    RecordProperty("worst_angular_momentum_change", simtest::scientific(run.worstAngularMomentumChange));
}

} // namespace
} // namespace gravlab
