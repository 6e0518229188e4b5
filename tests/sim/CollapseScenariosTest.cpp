// The spheres that are not in equilibrium: "cold-sphere" collapses in its stated free-fall time on the CPU direct
// solver, and the "plummer" scenario's virial-ratio parameter sets the measured 2K/|W| of the generated bodies.
#include "SimTestSupport.hpp"

#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <IdentityChecks.hpp>
#include <gtest/gtest.h>
#include <numbers>

namespace gravlab {
namespace {

/// Mass-weighted mean distance from the centre of mass.
double meanRadius(const Bodies& bodies) {
    double mass = 0;
    simtest::Vec3 centre{};
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        mass += bodies.mass[i];
        centre = simtest::add(centre, simtest::scale(simtest::positionOf(bodies, i), bodies.mass[i]));
    }
    centre = simtest::scale(centre, 1.0 / mass);
    double sum = 0;
    for (std::size_t i = 0; i < bodies.size(); ++i)
        sum += bodies.mass[i] * simtest::norm(simtest::sub(simtest::positionOf(bodies, i), centre));
    return sum / mass;
}

TEST(ColdSphereScenario, CollapsesInTheFreeFallTime) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const double freeFall = std::numbers::pi / 2.0 * std::sqrt(1.0 / 2.0); // R = 1, M = 1, G = 1
    const std::vector<NamedTime> times = scenarioTimeScales("cold-sphere");
    ASSERT_FALSE(times.empty());
    EXPECT_NEAR(times[0].value, freeFall, 1e-12);
    SimParams params;
    params.scenario = "cold-sphere";
    params.bodyCount = 500;
    params.seed = seed;
    params.backend = BackendKind::Cpu;
    params.solver = "direct";
    params.softeningLength = 0.02;
    params.timeStep = 0.003;
    Simulation simulation(params);
    const double startRadius = meanRadius(test::bodiesOf(simulation));
    double smallestRadius = startRadius, collapseTime = 0;
    constexpr int kStepsPerSample = 4;
    while (simulation.time() < 1.6 * freeFall) {
        simulation.step(kStepsPerSample);
        const double radius = meanRadius(test::bodiesOf(simulation));
        if (radius < smallestRadius) {
            smallestRadius = radius;
            collapseTime = simulation.time();
        }
    }
    // A uniform sphere's mean radius is 3/4 R; at the bounce 500 bodies with softening 0.02 reach well under a
    // third of it. The moment of smallest size comes slightly after t_ff in a discrete sphere (the outer shells,
    // given Poisson noise, arrive a little late and the softened core bounces late): measured 1.03-1.08 t_ff.
    // Tolerance 15%. A sphere that starts with virial velocities never shrinks this far; one twice as dense
    // collapses at 0.71 t_ff.
    EXPECT_LT(smallestRadius, startRadius / 3.0);
    EXPECT_NEAR(collapseTime / freeFall, 1.0, 0.15);
    RecordProperty("collapse_time_over_free_fall", simtest::scientific(collapseTime / freeFall));
}

TEST(PlummerScenario, VirialRatioParameterSetsTheMeasuredTwoKOverW) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    for (const double requested : {0.3, 1.0, 1.8}) {
        const Bodies bodies = generateScenario("plummer", 20000, seed, {{"virial-ratio", requested}});
        // Softening 1e-3 leaves W within 0.5% of the point-mass value for a = 0.59.
        const Diagnostics diagnostics = computeDiagnosticsCpu(bodies, {1.0, 1e-3});
        const double measured = 2.0 * diagnostics.kineticEnergy / std::abs(diagnostics.potentialEnergy);
        // Sampling noise of K and W with 20000 bodies ~1%, the 99.9% truncation ~0.3%: tolerance 4%. Velocities
        // scaled by Q instead of sqrt(Q) miss at 0.3 and 1.8 by 45% or more.
        EXPECT_NEAR(measured / requested, 1.0, 0.04) << "requested 2K/|W| = " << requested;
    }
}

} // namespace
} // namespace gravlab
