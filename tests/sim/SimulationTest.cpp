// Simulation: validation at every entry, re-initialisation only for scenario / body count / seed, the report of what
// each edit implies, energy baseline, backend choice, and non-finite state reported without losing the last good
// state.
#include "SimTestSupport.hpp"
#include "core/CpuBackend.hpp"

#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/Simulation.hpp>

#include <EnergyReference.hpp>

#ifdef GRAVLAB_HAS_CUDA
#include <gravlab/sim/DeviceInfo.hpp>
#endif

#include <IdentityChecks.hpp>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

SimParams smallPlummer(std::uint64_t seed) {
    SimParams params;
    params.scenario = "plummer";
    params.bodyCount = 300;
    params.seed = seed;
    params.backend = BackendKind::Cpu;
    params.timeStep = 0.005; // the tests below count time in steps of this size
    return params;
}

using test::bodiesOf;

TEST(Simulation, StartsFromTheScenarioWithItsEnergyRecorded) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const Simulation simulation(smallPlummer(seed));
    EXPECT_EQ(simulation.bodyCount(), 300u);
    EXPECT_EQ(simulation.stepCount(), 0u);
    EXPECT_EQ(simulation.time(), 0.0);
    EXPECT_EQ(bodiesOf(simulation).x, generateScenario("plummer", 300, seed).x);
    const Diagnostics now = simulation.diagnostics();
    EXPECT_EQ(simulation.initialEnergy(), now.totalEnergy());
    EXPECT_EQ(simulation.relativeEnergyDrift(now), 0.0);
    EXPECT_NE(simulation.backend().description().find("CPU"), std::string::npos);
}

TEST(Simulation, SetParamsReinitialisesOnlyForScenarioBodyCountOrSeed) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    SimParams params = smallPlummer(seed);
    Simulation simulation(params);
    simulation.step(3);
    const Bodies afterThreeSteps = bodiesOf(simulation);
    ASSERT_NE(afterThreeSteps.x, generateScenario("plummer", 300, seed).x) << "stepping must move the bodies";

    // Time step, softening and G apply from the next step; the state and the clock go on.
    params.timeStep = 0.01;
    params.softeningLength = 0.1;
    params.gravitationalConstant = 2.0;
    simulation.setParams(params);
    EXPECT_EQ(simulation.stepCount(), 3u);
    EXPECT_EQ(bodiesOf(simulation).x, afterThreeSteps.x);
    EXPECT_DOUBLE_EQ(simulation.time(), 3 * 0.005);
    simulation.step(2);
    EXPECT_DOUBLE_EQ(simulation.time(), 3 * 0.005 + 2 * 0.01);
    // A new softening or G is a new energy function: the baseline is retaken at the next diagnostics.
    EXPECT_TRUE(std::isnan(simulation.initialEnergy()));
    const Diagnostics rebased = simulation.diagnostics();
    EXPECT_EQ(simulation.initialEnergy(), rebased.totalEnergy());

    params.seed = seed + 1;
    simulation.setParams(params);
    EXPECT_EQ(simulation.stepCount(), 0u);
    EXPECT_EQ(simulation.time(), 0.0);
    EXPECT_EQ(bodiesOf(simulation).x, generateScenario("plummer", 300, seed + 1).x);

    params.bodyCount = 257;
    simulation.setParams(params);
    EXPECT_EQ(simulation.bodyCount(), 257u);

    params.scenario = "cold-cube";
    simulation.setParams(params);
    EXPECT_EQ(bodiesOf(simulation).y, generateScenario("cold-cube", 257, seed + 1).y);
}

TEST(Simulation, InvalidParamsAreRejectedAndChangeNothing) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    Simulation simulation(smallPlummer(seed));
    simulation.step(1);
    SimParams bad = simulation.params();
    bad.timeStep = std::numeric_limits<double>::quiet_NaN();
    bad.seed = seed + 7;
    EXPECT_THROW(simulation.setParams(bad), InvalidParameterError);
    EXPECT_EQ(simulation.params().timeStep, 0.005);
    EXPECT_EQ(simulation.params().seed, seed);
    EXPECT_EQ(simulation.stepCount(), 1u);

    SimParams unknown = smallPlummer(seed);
    unknown.scenario = "nebula";
    EXPECT_THROW(Simulation{unknown}, InvalidParameterError);
}

TEST(Simulation, ChangingTheBackendKeepsTheState) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    SimParams params = smallPlummer(seed);
    params.backend = BackendKind::Auto;
    Simulation simulation(params);
    simulation.step(2);
    const Bodies before = bodiesOf(simulation);
    params.backend = BackendKind::Cpu;
    simulation.setParams(params);
    EXPECT_EQ(simulation.stepCount(), 2u);
    EXPECT_EQ(bodiesOf(simulation).x, before.x);
    EXPECT_EQ(bodiesOf(simulation).vy, before.vy);
}

TEST(Simulation, UnavailableCudaBackendIsAClearErrorAndChangesNothing) {
#ifdef GRAVLAB_HAS_CUDA
    std::string reason;
    if (cudaDeviceAvailable(reason))
        GTEST_SKIP() << "a CUDA device is present, so the CUDA backend is available";
    const std::string expected = "CUDA backend is unavailable";
#else
    const std::string expected = "no CUDA backend";
#endif
    SimParams params = smallPlummer(1);
    params.backend = BackendKind::Cuda;
    try {
        const Simulation simulation(params);
        FAIL() << "no exception";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    }
    // Asking a running simulation for it changes nothing, not even the other fields of the same request.
    Simulation simulation(smallPlummer(1));
    simulation.step(2);
    params.seed = 99;
    EXPECT_THROW(simulation.setParams(params), std::runtime_error);
    EXPECT_EQ(simulation.params().backend, BackendKind::Cpu);
    EXPECT_EQ(simulation.params().seed, 1u);
    EXPECT_EQ(simulation.stepCount(), 2u);
}

TEST(Simulation, NonFiniteStateStopsTheClockAndNamesTheStep) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    SimParams params = smallPlummer(seed);
    params.softeningLength = 1e-5;
    params.timeStep = 1.0;
    Simulation simulation(params);
    // Valid parameters cannot overflow a sane system (see CpuBackendTest), so the backend is handed one that does:
    // two 1e30 masses 1e-3 apart.
    Bodies extreme;
    extreme.resize(2);
    simtest::setBody(extreme, 0, {0, 0, 0}, {0, 0, 0}, 1e30);
    simtest::setBody(extreme, 1, {1e-3, 0, 0}, {0, 0, 0}, 1e30);
    simulation.backend().load(extreme);
    try {
        simulation.step(10);
        FAIL() << "no exception";
    } catch (const NonFiniteStateError& error) {
        EXPECT_NE(std::string(error.what()).find("step 1: "), std::string::npos) << error.what();
    }
    EXPECT_EQ(simulation.stepCount(), 0u);
    EXPECT_EQ(simulation.time(), 0.0);
    EXPECT_EQ(bodiesOf(simulation).x, extreme.x) << "the last good state is kept";
}

/// One edit from a base state and what it must report; the table below is the specification of ParamsChange.
struct EditCase {
    const char* name;
    void (*edit)(SimParams&);
    ParamsChange expected;
};

ParamsChange changeOf(std::initializer_list<bool ParamsChange::*> flags) {
    ParamsChange change;
    for (bool ParamsChange::*flag : flags)
        change.*flag = true;
    return change;
}

TEST(Simulation, SetParamsReportsWhatEachEditImplies) {
    using C = ParamsChange;
    const ParamsChange newBodies = changeOf({&C::reinitialised, &C::forcesStale, &C::treeOverlayInvalidated,
                                             &C::orbOverlayInvalidated, &C::verticesNeedRefeed});
    const ParamsChange newDomains = changeOf({&C::orbDomainsChanged, &C::forcesStale, &C::treeOverlayInvalidated,
                                              &C::orbOverlayInvalidated, &C::verticesNeedRefeed});
    const EditCase cases[] = {
        {"time step", [](SimParams& p) { p.timeStep = 0.002; }, {}},
        {"theta under the tree solver", [](SimParams& p) { p.openingAngle = 0.9; }, changeOf({&C::forcesStale})},
        {"G", [](SimParams& p) { p.gravitationalConstant = 3.0; },
         changeOf({&C::forcesStale, &C::energyFunctionChanged})},
        {"softening", [](SimParams& p) { p.softeningLength = 0.2; },
         changeOf({&C::forcesStale, &C::energyFunctionChanged})},
        {"solver", [](SimParams& p) { p.solver = "direct"; },
         changeOf({&C::forcesStale, &C::treeOverlayInvalidated, &C::verticesNeedRefeed})},
        {"ORB switched on", [](SimParams& p) { p.orb.domainCount = 8; }, newDomains},
        {"ORB balance while ORB is off", [](SimParams& p) { p.orb.balance = OrbBalance::Work; }, {}},
        {"ORB rebuild interval", [](SimParams& p) { p.orb.rebuildInterval = 3; }, {}},
        {"ORB imbalance limit", [](SimParams& p) { p.orb.imbalanceLimit = 2.0; }, {}},
        {"body count", [](SimParams& p) { p.bodyCount = 257; }, newBodies},
        {"seed", [](SimParams& p) { ++p.seed; }, newBodies},
        {"scenario", [](SimParams& p) { p.scenario = "cold-cube"; }, newBodies},
        {"backend", [](SimParams& p) { p.backend = BackendKind::Auto; },
         changeOf({&C::backendReplaced, &C::backendChoiceMayHaveChanged, &C::forcesStale, &C::treeOverlayInvalidated,
                   &C::orbOverlayInvalidated, &C::verticesNeedRefeed})},
    };
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    SimParams base = smallPlummer(seed);
    base.solver = "tree";
    for (const EditCase& edit : cases) {
        SCOPED_TRACE(edit.name);
        int backendsMade = 0;
        // Every backend is a CPU one, so that the backend switch stays on the CPU in a CUDA build too.
        Simulation simulation(base, [&backendsMade](const SimParams&) {
            ++backendsMade;
            return std::make_unique<CpuBackend>();
        });
        SimParams edited = base;
        edit.edit(edited);
        const ParamsChange change = simulation.setParams(edited);
        EXPECT_EQ(change, edit.expected);
        EXPECT_EQ(change.any(), edit.expected != ParamsChange{});
        EXPECT_EQ(backendsMade, edit.expected.backendReplaced ? 2 : 1) << "switches go through the same factory";
        EXPECT_TRUE(simulation.setParams(edited) == ParamsChange{}) << "applying the same edit again implies nothing";
    }
}

TEST(Simulation, OrbEditsReportNewDomainsOnlyWhenThePartitionChanges) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    SimParams params = smallPlummer(seed);
    params.orb.domainCount = 8;
    Simulation simulation(params);
    params.orb.domainCount = 5;
    EXPECT_TRUE(simulation.setParams(params).orbDomainsChanged);
    EXPECT_EQ(simulation.visuals().orbStatus().domainCount, 5u) << "a paused view shows the new domains at once";
    params.orb.balance = OrbBalance::Work;
    EXPECT_TRUE(simulation.setParams(params).orbOverlayInvalidated);
    params.orb.rebuildInterval = 7;
    EXPECT_FALSE(simulation.setParams(params).any()) << "the interval steers later steps only";
    params.seed = seed + 1;
    EXPECT_TRUE(simulation.setParams(params).orbDomainsChanged) << "new bodies are partitioned from scratch";
    params.orb.domainCount = 0;
    const ParamsChange off = simulation.setParams(params);
    EXPECT_TRUE(off.orbDomainsChanged && off.orbOverlayInvalidated && off.verticesNeedRefeed);
    EXPECT_EQ(simulation.visuals().orbStatus().domainCount, 0u);
}

TEST(Simulation, ChangeReportsCombineAnEditWithItsUndo) {
    ParamsChange edit;
    edit.reinitialised = true;
    ParamsChange undo;
    undo.backendReplaced = true;
    edit |= undo;
    EXPECT_TRUE(edit.reinitialised && edit.backendReplaced);
    EXPECT_FALSE(edit.energyFunctionChanged);
    EXPECT_TRUE(edit.any());
    EXPECT_FALSE(ParamsChange{}.any());
}

TEST(Simulation, EnergyBaselineKeepsTheDiagnosticsThatRecordedIt) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    SimParams params = smallPlummer(seed);
    Simulation simulation(params);
    ASSERT_TRUE(simulation.energyBaseline().has_value());
    const EnergyBaseline& baseline = *simulation.energyBaseline();
    EXPECT_EQ(baseline.stepCount, 0u);
    EXPECT_GE(baseline.computeSeconds, 0.0);
    EXPECT_EQ(baseline.diagnostics.totalEnergy(), simulation.initialEnergy());
    // Against plain fp64 loops over the scenario's bodies: the same floats summed in another order, so they agree to
    // rounding (~1e-14 relative for 45,000 pairs); a float accumulation or a wrong term would be off by 1e-7 or more.
    const Bodies initial = generateScenario("plummer", 300, seed);
    const test::EnergyFp64 reference = test::energyFp64(initial, params.gravitationalConstant, params.softeningLength);
    EXPECT_NEAR(baseline.diagnostics.potentialEnergy, reference.potential, 1e-10 * std::abs(reference.potential));
    EXPECT_NEAR(baseline.diagnostics.kineticEnergy, reference.kinetic, 1e-10 * reference.kinetic);

    simulation.step(2);
    params.gravitationalConstant = 2.0;
    simulation.setParams(params);
    EXPECT_FALSE(simulation.energyBaseline().has_value()) << "a new energy function drops E0";
    const Diagnostics rebased = simulation.diagnostics();
    ASSERT_TRUE(simulation.energyBaseline().has_value());
    EXPECT_EQ(simulation.energyBaseline()->stepCount, 2u);
    EXPECT_EQ(simulation.energyBaseline()->diagnostics.totalEnergy(), rebased.totalEnergy());
}

TEST(Simulation, LargeSystemsTakeTheEnergyBaselineLazily) {
    SimParams params;
    params.scenario = "cold-cube";
    params.bodyCount = kEagerEnergyBaselineMaxBodies + 1;
    params.backend = BackendKind::Cpu;
    const Simulation simulation(params);
    EXPECT_TRUE(std::isnan(simulation.initialEnergy()));
    EXPECT_TRUE(std::isnan(simulation.relativeEnergyDrift(Diagnostics{})));
}

} // namespace
} // namespace gravlab
