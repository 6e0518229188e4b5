// The distributed CPU backend under mpirun (ctest runs this binary on 1 to 4 ranks) against an independent reference:
// every rank also steps the same bodies alone in a single-process CpuBackend and compares the gathered state with it,
// body by body through the ids (the ranks' ORB domains reorder the bodies).
// Each rank's reference sees every body, so it does not depend on the exchange under test. Every collective below
// is called by all ranks, outside assertion macros.
#include "core/CpuBackend.hpp"
#include "distributed/DistributedCpuBackend.hpp"
#include "distributed/DistributedSupport.hpp"
#include "RankComparison.hpp"

#include <gravlab/sim/Communicator.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <numeric>
#include <random>

namespace gravlab {
namespace {

constexpr std::size_t kBodyCount = 2000;
constexpr int kStepCount = 20;

/// Both backends loaded with the same Plummer sphere and stepped kStepCount steps.
struct SteppedPair {
    std::uint64_t seed;
    Bodies initial;
    CpuBackend alone;
    DistributedCpuBackend spread{worldCommunicator()};
    Bodies aloneBodies;
    Bodies spreadBodies; ///< readBodies() of the distributed backend, every body on every rank, in id order
};

void stepBoth(SteppedPair& pair, const SimParams& params) {
    pair.seed = sharedSeed();
    pair.initial = generateScenario("plummer", kBodyCount, pair.seed);
    pair.alone.load(pair.initial);
    pair.spread.load(pair.initial);
    pair.alone.step(params, kStepCount);
    pair.spread.step(params, kStepCount);
    pair.alone.readBodies(pair.aloneBodies);
    Bodies spread;
    pair.spread.readBodies(spread);
    pair.spreadBodies = inIdOrder(spread);
}

TEST(DistributedCpuBackendMpi, DirectSumMatchesOneProcess) {
    SteppedPair pair;
    stepBoth(pair, rankTestParams("direct"));
    ASSERT_EQ(pair.spreadBodies.size(), kBodyCount) << "seed " << pair.seed;
    // Each target's row is a float sum over the same bodies as in one process, in the order of the ranks' domains: the
    // rounding of a sum of 2000 terms (~1e-7 relative per force), grown by 20 steps of a Plummer sphere to far below
    // 1e-5 of its size, while a stale or misplaced exchanged position moves bodies by ~dt |v| ~ 1e-2 of it.
    EXPECT_LT(largestRelativePositionDifference(pair.spreadBodies, pair.aloneBodies), 1e-5) << "seed " << pair.seed;
}

TEST(DistributedCpuBackendMpi, TreeMatchesOneProcess) {
    SteppedPair pair;
    stepBoth(pair, rankTestParams("tree"));
    ASSERT_EQ(pair.spreadBodies.size(), kBodyCount) << "seed " << pair.seed;
    // Every rank builds the tree of the same gathered set (in the ranks' order, the same octree), with each body's
    // previous acceleration carried through migration for the relative criterion: each body meets the cells of the
    // single-process walk, summed in another order. Only the rounding allowance of the direct sum is granted; the
    // tree's own error (~1e-3 of a force at theta 0.5) is not, since both runs make the same one.
    EXPECT_LT(largestRelativePositionDifference(pair.spreadBodies, pair.aloneBodies), 1e-5) << "seed " << pair.seed;
}

TEST(DistributedCpuBackendMpi, BodiesAndIdsAreConservedExactly) {
    SteppedPair pair;
    stepBoth(pair, rankTestParams("tree"));
    std::uint64_t localCount = pair.spread.localBodies().size();
    worldCommunicator().allReduceSum(std::span<std::uint64_t>(&localCount, 1));
    EXPECT_EQ(localCount, kBodyCount) << "seed " << pair.seed;
    const Bodies initial = inIdOrder(pair.initial);
    EXPECT_EQ(pair.spreadBodies.id, initial.id) << "seed " << pair.seed; // each id once: none lost, none doubled
    EXPECT_EQ(pair.spreadBodies.component, initial.component);
    EXPECT_EQ(pair.spreadBodies.mass, initial.mass);
    // What is drawn is every body's current position, without communicating, in readBodies' order.
    Bodies gathered;
    pair.spread.readBodies(gathered);
    std::vector<RenderVertex> vertices(pair.spread.visuals().vertexCount());
    pair.spread.visuals().writeVertices(vertices);
    ASSERT_EQ(vertices.size(), kBodyCount);
    for (std::size_t i = 0; i < kBodyCount; ++i)
        ASSERT_EQ(vertices[i].x, gathered.x[i]) << "body " << i;
    // Each rank holds the bodies of its domain.
    const OrbCell* domain = nullptr;
    for (const OrbCell& cell : pair.spread.rankDomains().cells)
        if (cell.isLeaf() && cell.firstDomain == std::uint32_t(worldCommunicator().rank()))
            domain = &cell;
    ASSERT_NE(domain, nullptr);
    const Bodies& local = pair.spread.localBodies();
    for (std::size_t i = 0; i < local.size(); ++i) {
        const std::array<float, 3> position{local.x[i], local.y[i], local.z[i]};
        for (std::size_t axis = 0; axis < 3; ++axis) {
            ASSERT_GE(position[axis], domain->lower[axis]) << "body " << local.id[i] << " axis " << axis;
            ASSERT_LE(position[axis], domain->upper[axis]) << "body " << local.id[i] << " axis " << axis;
        }
    }
}

TEST(DistributedCpuBackendMpi, EnergyIsConservedAsInOneProcess) {
    SteppedPair pair;
    const SimParams params = rankTestParams("direct");
    stepBoth(pair, params);
    CpuBackend start;
    start.load(pair.initial);
    const Diagnostics initial = start.diagnostics(params);
    const Diagnostics spread = pair.spread.diagnostics(params);
    const Diagnostics alone = pair.alone.diagnostics(params);
    // Same state to ~1e-6 relative: the fp64 energies agree to that, and so do the drifts from the initial energy.
    EXPECT_NEAR(spread.totalEnergy(), alone.totalEnergy(), 1e-6 * std::abs(alone.totalEnergy()))
        << "seed " << pair.seed;
    EXPECT_NEAR(spread.kineticEnergy, alone.kineticEnergy, 1e-6 * alone.kineticEnergy);
    const double driftAlone = std::abs(alone.totalEnergy() - initial.totalEnergy()) / std::abs(initial.totalEnergy());
    const double driftSpread = std::abs(spread.totalEnergy() - initial.totalEnergy()) / std::abs(initial.totalEnergy());
    EXPECT_LT(driftSpread, 1e-3) << "seed " << pair.seed; // KDK at dt 0.01 over 0.2 time units of an equilibrium
    EXPECT_NEAR(driftSpread, driftAlone, 1e-6);
    for (int axis = 0; axis < 3; ++axis)
        EXPECT_NEAR(spread.linearMomentum[std::size_t(axis)], alone.linearMomentum[std::size_t(axis)], 1e-6);
}

TEST(DistributedCpuBackendMpi, NonFiniteStepRollsBackOnEveryRank) {
    const std::uint64_t seed = sharedSeed();
    Bodies initial = generateScenario("plummer", kBodyCount, seed);
    // The last body (on the last rank) is fast enough that a drift of dt 100 leaves it at infinity.
    initial.vx.back() = 3.0e38f;
    SimParams params = rankTestParams("direct");
    params.timeStep = 100.0;
    CpuBackend alone;
    alone.load(initial);
    std::size_t aloneAffected = 0;
    try {
        alone.step(params, 1);
    } catch (const NonFiniteStateError& error) {
        aloneAffected = error.affectedBodies();
    }
    DistributedCpuBackend spread(worldCommunicator());
    spread.load(initial);
    bool thrown = false;
    std::size_t spreadAffected = 0;
    try {
        spread.step(params, 1);
    } catch (const NonFiniteStateError& error) {
        thrown = true;
        spreadAffected = error.affectedBodies();
        EXPECT_EQ(error.step(), 1u);
        EXPECT_EQ(error.bodyCount(), kBodyCount);
    }
    // Every rank threw (a rank that did not would be waiting in a later collective), with the one-process count.
    EXPECT_EQ(ranksWhere(thrown), std::uint64_t(worldCommunicator().size())) << "seed " << seed;
    EXPECT_GT(aloneAffected, 0u);
    EXPECT_EQ(spreadAffected, aloneAffected) << "seed " << seed;
    expectBodiesRestored(spread, initial, seed);
}

TEST(DistributedCpuBackendMpi, RefusesWhatItDoesNotDoYetNamingTheFlag) {
    SimParams params = rankTestParams("direct");
    params.timeSteps.mode = TimeStepMode::Hierarchical;
    try {
        requireDistributedSupport(params);
        ADD_FAILURE() << "hierarchical time steps were accepted";
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), "time-steps");
        EXPECT_NE(std::string(error.what()).find("--time-steps fixed"), std::string::npos) << error.what();
    }
    params = rankTestParams("direct");
    params.orb.domainCount = 4;
    EXPECT_THROW(requireDistributedSupport(params), InvalidParameterError);
}

TEST(DistributedCpuBackendMpi, RefusesFewerBodiesThanRanksOnEveryRank) {
    DistributedCpuBackend spread(worldCommunicator());
    expectFewerBodiesThanRanksRefused(spread);
}

} // namespace
} // namespace gravlab
