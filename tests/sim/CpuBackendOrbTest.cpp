// ORB domains through the Simulation and the CPU backend as the app uses them: domains exist as soon as they are
// asked for (a paused view), colours follow the domain whose box holds each body, switching ORB off restores the
// scenario's colours, and the step timings report the ORB phase.
#include "SimTestSupport.hpp"
#include "core/CpuBackend.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <OrbDomainChecks.hpp>
#include <algorithm>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

SimParams orbParams(std::uint32_t domains) {
    SimParams params;
    params.scenario = "plummer";
    params.bodyCount = 4000;
    params.seed = simtest::freshSeed();
    params.backend = BackendKind::Cpu;
    params.solver = "tree";
    params.orb.domainCount = domains;
    return params;
}

bool boxHolds(const OrbCell& cell, const RenderVertex& v) {
    const float p[3] = {v.x, v.y, v.z};
    for (int axis = 0; axis < 3; ++axis)
        if (p[axis] < cell.lower[axis] || p[axis] > cell.upper[axis])
            return false;
    return true;
}

TEST(CpuBackendOrb, DomainsExistBeforeAnyStepAndDescribeTheBodies) {
    const SimParams params = orbParams(13);
    SCOPED_TRACE(simtest::seedTrace(params.seed));
    Simulation simulation(params);
    std::vector<OrbCell> cells;
    simulation.visuals().collectOrbCells(cells);
    ASSERT_EQ(cells.size(), 2u * 13 - 1);
    Bodies bodies;
    simulation.backend().readBodies(bodies);
    EXPECT_TRUE(test::cellsDescribeBodies(cells, bodies));
    EXPECT_EQ(simulation.visuals().orbStatus().domainCount, 13u);
    EXPECT_LE(simulation.visuals().orbStatus().imbalance.memory, 1.0 + 13.0 / 4000.0);
}

TEST(CpuBackendOrb, DomainColoursFollowTheBoxThatHoldsEachBody) {
    const SimParams params = orbParams(9);
    SCOPED_TRACE(simtest::seedTrace(params.seed));
    Simulation simulation(params);
    simulation.step(3);
    simulation.visuals().setColorMode(ColorMode::OrbDomain);
    std::vector<RenderVertex> vertices(simulation.bodyCount());
    simulation.visuals().writeVertices(vertices);
    std::vector<OrbCell> cells;
    simulation.visuals().collectOrbCells(cells);
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        const bool someHolderMatches = std::any_of(cells.begin(), cells.end(), [&](const OrbCell& cell) {
            return cell.isLeaf() && boxHolds(cell, vertices[i]) &&
                   vertices[i].colorScalar == orbDomainColorScalar(cell.firstDomain);
        });
        ASSERT_TRUE(someHolderMatches) << "body " << i << " has colour " << vertices[i].colorScalar;
    }
}

TEST(CpuBackendOrb, SwitchingOrbOffRestoresTheScenarioColours) {
    SimParams params = orbParams(5);
    SCOPED_TRACE(simtest::seedTrace(params.seed));
    Simulation simulation(params);
    simulation.step(2);
    params.orb.domainCount = 0;
    simulation.setParams(params);
    std::vector<OrbCell> cells;
    simulation.visuals().collectOrbCells(cells);
    EXPECT_TRUE(cells.empty());
    EXPECT_EQ(simulation.visuals().orbStatus().domainCount, 0u);
    simulation.visuals().setColorMode(ColorMode::OrbDomain);
    std::vector<RenderVertex> vertices(simulation.bodyCount());
    simulation.visuals().writeVertices(vertices);
    Bodies bodies;
    simulation.backend().readBodies(bodies);
    for (std::size_t i = 0; i < vertices.size(); ++i)
        ASSERT_EQ(vertices[i].colorScalar, bodies.colorKey[i]) << "body " << i;
}

TEST(CpuBackendOrb, StepTimingsNameTheOrbPhaseOnlyWhileOrbIsOn) {
    SimParams params = orbParams(4);
    SCOPED_TRACE(simtest::seedTrace(params.seed));
    Simulation simulation(params);
    simulation.step(1);
    const auto hasOrbPhase = [&] {
        const auto timings = simulation.backend().lastStepTimings();
        return std::any_of(timings.begin(), timings.end(), [](const PhaseTiming& t) { return t.phase == "orb"; });
    };
    EXPECT_TRUE(hasOrbPhase());
    params.orb.domainCount = 0;
    simulation.setParams(params);
    simulation.step(1);
    EXPECT_FALSE(hasOrbPhase());
}

} // namespace
} // namespace gravlab

namespace gravlab {
namespace {

/// Work and memory imbalance after a few steps of a Plummer sphere whose domains are re-partitioned every step.
OrbImbalance imbalanceAfterSteps(OrbBalance balance, std::uint64_t seed) {
    SimParams params = orbParams(16);
    params.seed = seed;
    params.orb.balance = balance;
    params.orb.rebuildInterval = 1;
    Simulation simulation(params);
    simulation.step(3);
    return simulation.visuals().orbStatus().imbalance;
}

TEST(CpuBackendOrb, WorkBalanceEvensOutTheTreeWalkAtTheCostOfMemoryBalance) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    // A Plummer core's bodies open more cells than its halo's, so equal counts mean unequal work, and equal work
    // unequal counts. The weights of the step after a re-partition differ from those it balanced: a body's weight is
    // its walk group's list length, and the groups are packed anew every step, so one sphere's excesses scatter: over
    // 400 seeds count balance left a work excess below 0.1 on 6, and on one work balance left 0.94 of count's. Three
    // spheres summed compare the balances rather than one sphere's luck (their ratio lies between the single ones'),
    // and a bound of 0.9 on it still fails a balance that ignored the work.
    double countWorkExcess = 0, workWorkExcess = 0, workMemoryExcess = 0;
    for (std::uint64_t sphere = 0; sphere < 3; ++sphere) {
        const OrbImbalance byCount = imbalanceAfterSteps(OrbBalance::Count, seed + sphere);
        const OrbImbalance byWork = imbalanceAfterSteps(OrbBalance::Work, seed + sphere);
        EXPECT_LE(byCount.memory, 1.0 + 16.0 / 4000.0) << "sphere " << sphere;
        countWorkExcess += byCount.work - 1.0;
        workWorkExcess += byWork.work - 1.0;
        workMemoryExcess += byWork.memory - 1.0;
    }
    EXPECT_GT(countWorkExcess, 3 * 0.1);
    EXPECT_LT(workWorkExcess, 0.9 * countWorkExcess);
    EXPECT_GT(workMemoryExcess, 3 * 0.1);
}

} // namespace
} // namespace gravlab
