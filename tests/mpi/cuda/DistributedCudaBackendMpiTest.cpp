// The distributed CUDA backend under mpirun, one GPU per rank (scripts/gpu_check.sh runs this binary on as many ranks
// as the machine has GPUs), against an independent reference: every rank also steps the same bodies alone in a
// single-GPU CudaBackend on its own GPU and compares the gathered state with it, body by body through the ids. The
// reference sees every body, so it does not depend on the NCCL exchange under test. Without a GPU for every rank all
// ranks skip, printing why. Every collective below is called by all ranks, outside assertion macros.
#include "../RankComparison.hpp"
#include "device/cuda/CudaBackend.hpp"
#include "distributed/cuda/DistributedCudaBackend.hpp"
#include "distributed/cuda/RankDevice.hpp"
#include "orb/OrbCpu.hpp"

#include <gravlab/sim/Communicator.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <numeric>
#include <string>
#include <vector>

namespace gravlab {
namespace {

constexpr std::size_t kGpuBodyCount = 8192;
/// More than the default --orb-every (16), so every run re-partitions mid-call, previous accelerations carried.
constexpr int kGpuStepCount = 20;

/// Why this run's ranks cannot step on GPUs (empty when they can); decided once, by all ranks together.
const std::string& whyNoGpuRanks() {
    static const std::string reason = selectRankDevice(worldCommunicator());
    return reason;
}

#define SKIP_WITHOUT_GPU_RANKS()                                                                                       \
    if (!whyNoGpuRanks().empty())                                                                                      \
    GTEST_SKIP() << "GPU ranks unavailable: " << whyNoGpuRanks()

struct SteppedGpuPair {
    std::uint64_t seed = 0;
    Bodies initial;
    Bodies aloneBodies;
    Bodies spreadBodies; ///< every body on every rank, in id order
    Diagnostics aloneDiagnostics, spreadDiagnostics;
    RankSlice slice;
    std::vector<std::uint64_t> bodiesPerRank;
};

SteppedGpuPair stepBoth(const SimParams& params, int steps = kGpuStepCount) {
    SteppedGpuPair pair;
    pair.seed = sharedSeed();
    pair.initial = generateScenario("plummer", kGpuBodyCount, pair.seed);
    CudaBackend alone;
    alone.load(pair.initial);
    alone.step(params, steps);
    alone.readBodies(pair.aloneBodies);
    pair.aloneDiagnostics = alone.diagnostics(params);
    DistributedCudaBackend spread(worldCommunicator());
    spread.load(pair.initial);
    spread.step(params, steps);
    Bodies gathered;
    spread.readBodies(gathered);
    pair.spreadBodies = inIdOrder(gathered);
    pair.spreadDiagnostics = spread.diagnostics(params);
    pair.slice = spread.slice();
    pair.bodiesPerRank = spread.rankDomains().bodiesPerRank;
    return pair;
}

TEST(DistributedCudaBackendMpi, DirectSumMatchesOneGpu) {
    SKIP_WITHOUT_GPU_RANKS();
    const SteppedGpuPair pair = stepBoth(rankTestParams("direct"));
    ASSERT_EQ(pair.spreadBodies.size(), kGpuBodyCount) << "seed " << pair.seed;
    // Each local row sums the same 8192 bodies as on one GPU in the same tiles; a stale or misplaced exchanged
    // position would move bodies by ~dt |v| ~ 1e-2 of the system's size.
    EXPECT_LT(largestRelativePositionDifference(pair.spreadBodies, inIdOrder(pair.aloneBodies)), 1e-5)
        << "seed " << pair.seed;
}

TEST(DistributedCudaBackendMpi, TreeMatchesOneGpuUnderBothCriteria) {
    SKIP_WITHOUT_GPU_RANKS();
    for (const OpeningCriterion criterion : {OpeningCriterion::Geometric, OpeningCriterion::Relative}) {
        SimParams params = rankTestParams("tree");
        params.openingCriterion = criterion;
        const SteppedGpuPair pair = stepBoth(params);
        ASSERT_EQ(pair.spreadBodies.size(), kGpuBodyCount) << "seed " << pair.seed;
        // Every rank builds the octree of the same gathered set and walks the groups holding its bodies, as one GPU
        // walks them all; under the relative criterion the previous accelerations are exchanged too (a missing one
        // would change which cells open). The tree's own error (~1e-3 of a force) is not granted: both make it.
        EXPECT_LT(largestRelativePositionDifference(pair.spreadBodies, inIdOrder(pair.aloneBodies)), 1e-5)
            << "seed " << pair.seed << ", criterion " << int(criterion);
    }
}

TEST(DistributedCudaBackendMpi, BodiesAndIdsAreConservedExactly) {
    SKIP_WITHOUT_GPU_RANKS();
    const SteppedGpuPair pair = stepBoth(rankTestParams("tree"));
    std::uint64_t localCount = pair.slice.count;
    worldCommunicator().allReduceSum(std::span<std::uint64_t>(&localCount, 1));
    EXPECT_EQ(localCount, kGpuBodyCount) << "seed " << pair.seed;
    ASSERT_EQ(pair.bodiesPerRank.size(), std::size_t(worldCommunicator().size()));
    const Bodies initial = inIdOrder(pair.initial);
    EXPECT_EQ(pair.spreadBodies.id, initial.id) << "seed " << pair.seed; // each id once: none lost, none doubled
    EXPECT_EQ(pair.spreadBodies.component, initial.component);
    EXPECT_EQ(pair.spreadBodies.mass, initial.mass);
    EXPECT_EQ(pair.spreadBodies.colorKey, initial.colorKey);
}

TEST(DistributedCudaBackendMpi, LoadPutsEveryRanksBodiesInItsDomainAndDrawsThemAll) {
    SKIP_WITHOUT_GPU_RANKS();
    const std::uint64_t seed = sharedSeed();
    const Bodies initial = generateScenario("plummer", kGpuBodyCount, seed);
    DistributedCudaBackend spread(worldCommunicator());
    spread.load(initial);
    Bodies gathered;
    spread.readBodies(gathered);
    std::vector<RenderVertex> vertices(spread.visuals().vertexCount());
    spread.visuals().writeVertices(vertices);
    ASSERT_EQ(vertices.size(), kGpuBodyCount);
    for (std::size_t i = 0; i < kGpuBodyCount; ++i)
        ASSERT_EQ(vertices[i].x, gathered.x[i]) << "body " << i;
    const OrbCell* domain = nullptr;
    for (const OrbCell& cell : spread.rankDomains().cells)
        if (cell.isLeaf() && cell.firstDomain == std::uint32_t(worldCommunicator().rank()))
            domain = &cell;
    ASSERT_NE(domain, nullptr);
    const RankSlice slice = spread.slice();
    for (std::size_t i = slice.begin; i < slice.begin + slice.count; ++i) {
        const std::array<float, 3> position{gathered.x[i], gathered.y[i], gathered.z[i]};
        for (std::size_t axis = 0; axis < 3; ++axis) {
            ASSERT_GE(position[axis], domain->lower[axis]) << "body " << gathered.id[i] << " axis " << axis;
            ASSERT_LE(position[axis], domain->upper[axis]) << "body " << gathered.id[i] << " axis " << axis;
        }
    }
}

TEST(DistributedCudaBackendMpi, EnergyMatchesOneGpu) {
    SKIP_WITHOUT_GPU_RANKS();
    const SteppedGpuPair pair = stepBoth(rankTestParams("direct"));
    const Diagnostics& alone = pair.aloneDiagnostics;
    const Diagnostics& spread = pair.spreadDiagnostics;
    EXPECT_NEAR(spread.totalEnergy(), alone.totalEnergy(), 1e-6 * std::abs(alone.totalEnergy()))
        << "seed " << pair.seed;
    EXPECT_NEAR(spread.kineticEnergy, alone.kineticEnergy, 1e-6 * alone.kineticEnergy);
    for (std::size_t axis = 0; axis < 3; ++axis)
        EXPECT_NEAR(spread.linearMomentum[axis], alone.linearMomentum[axis], 1e-6);
}

TEST(DistributedCudaBackendMpi, NonFiniteStepRollsBackOnEveryRank) {
    SKIP_WITHOUT_GPU_RANKS();
    // Found by the force evaluation after the drift, or (a re-cut after every step) by the re-cut before it.
    for (const std::uint32_t recutEvery : {16u, 1u}) {
        const std::uint64_t seed = sharedSeed();
        Bodies initial = generateScenario("plummer", kGpuBodyCount, seed);
        initial.vx.back() = 3.0e38f; // a drift of dt 100 leaves this body at infinity
        SimParams params = rankTestParams("direct");
        params.timeStep = 100.0;
        params.orb.rebuildInterval = recutEvery;
        DistributedCudaBackend spread(worldCommunicator());
        spread.load(initial);
        bool thrown = false;
        try {
            spread.step(params, 3);
        } catch (const NonFiniteStateError& error) {
            thrown = true;
            EXPECT_EQ(error.bodyCount(), kGpuBodyCount);
            // The re-cut counts the body at infinity; the force evaluation, every body its force reached.
            if (recutEvery == 1)
                EXPECT_EQ(error.affectedBodies(), 1u);
            else
                EXPECT_GT(error.affectedBodies(), 0u);
        }
        EXPECT_EQ(ranksWhere(thrown), std::uint64_t(worldCommunicator().size()))
            << "seed " << seed << ", re-cut every " << recutEvery;
        expectBodiesRestored(spread, initial, seed);
        // Stepping goes on after the rollback with a sane time step.
        params.timeStep = 0.001;
        initial.vx.back() = 0.0f;
        spread.load(initial);
        EXPECT_NO_THROW(spread.step(params, 2));
    }
}

TEST(DistributedCudaBackendMpi, DomainsAreOrbCpusCellsOfTheWholeSet) {
    SKIP_WITHOUT_GPU_RANKS();
    // Every rank cuts on its own GPU; under count balance the cuts must be the host ORB's over all bodies, and every
    // rank's bodies that ORB's leaf of the rank.
    const std::uint64_t seed = sharedSeed();
    const Bodies initial = generateScenario("plummer", kGpuBodyCount, seed);
    DistributedCudaBackend spread(worldCommunicator());
    spread.load(initial);
    Bodies reference = initial;
    OrbCpu orb;
    orb.build(reference, std::uint32_t(worldCommunicator().size()));
    const std::vector<OrbCell>& cells = spread.rankDomains().cells;
    ASSERT_EQ(cells.size(), orb.cells().size()) << "seed " << seed;
    Bodies gathered;
    spread.readBodies(gathered);
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const OrbCell &a = cells[c], &b = orb.cells()[c];
        EXPECT_EQ(a.begin, b.begin) << "cell " << c << ", seed " << seed;
        EXPECT_EQ(a.end, b.end) << "cell " << c;
        EXPECT_EQ(a.cutAxis, b.cutAxis) << "cell " << c;
        for (std::size_t axis = 0; axis < 3; ++axis) {
            EXPECT_EQ(a.lower[axis], b.lower[axis]) << "cell " << c << " axis " << axis;
            EXPECT_EQ(a.upper[axis], b.upper[axis]) << "cell " << c << " axis " << axis;
        }
        if (!a.isLeaf() || a.end != b.end)
            continue;
        std::vector<std::uint64_t> spreadIds(gathered.id.begin() + a.begin, gathered.id.begin() + a.end);
        std::vector<std::uint64_t> referenceIds(reference.id.begin() + b.begin, reference.id.begin() + b.end);
        std::sort(spreadIds.begin(), spreadIds.end());
        std::sort(referenceIds.begin(), referenceIds.end());
        EXPECT_EQ(spreadIds, referenceIds) << "domain " << a.firstDomain << ", seed " << seed;
    }
    const RankSlice slice = spread.slice();
    for (const OrbCell& cell : cells)
        if (cell.isLeaf() && cell.firstDomain == std::uint32_t(worldCommunicator().rank())) {
            EXPECT_EQ(slice.begin, cell.begin);
            EXPECT_EQ(slice.count, cell.end - cell.begin);
        }
}

TEST(DistributedCudaBackendMpi, WorkBalancedRecutsEqualiseTheRanksWork) {
    SKIP_WITHOUT_GPU_RANKS();
    // A clustered set (two disk galaxies): the tree's interaction counts differ from body to body, so
    // equal work is not equal counts. Each domain boundary lies within half a body's weight of its target, and one
    // body's weight is under 1e-3 of a rank's share here, so every rank's work is within 1% of the mean.
    const std::uint64_t seed = sharedSeed();
    const Bodies initial = generateScenario("galaxy-collision", kGpuBodyCount, seed);
    SimParams params = rankTestParams("tree");
    params.orb.balance = OrbBalance::Work;
    params.orb.rebuildInterval = 2;
    DistributedCudaBackend spread(worldCommunicator());
    spread.load(initial);
    EXPECT_EQ(spread.rankDomains().balance, OrbBalance::Count); // nothing weighed before the first evaluation
    spread.step(params, 3);
    const RankDomains& domains = spread.rankDomains();
    EXPECT_EQ(domains.balance, OrbBalance::Work) << "seed " << seed;
    const double total = std::accumulate(domains.workPerRank.begin(), domains.workPerRank.end(), 0.0);
    ASSERT_GT(total, 0.0);
    const double mean = total / double(domains.workPerRank.size());
    for (std::size_t rank = 0; rank < domains.workPerRank.size(); ++rank)
        EXPECT_NEAR(domains.workPerRank[rank], mean, 0.01 * mean) << "rank " << rank << ", seed " << seed;
    std::uint64_t bodies = 0;
    for (const std::uint64_t count : domains.bodiesPerRank)
        bodies += count;
    EXPECT_EQ(bodies, kGpuBodyCount);
}

TEST(DistributedCudaBackendMpi, RefusesFewerBodiesThanRanksOnEveryRank) {
    SKIP_WITHOUT_GPU_RANKS();
    DistributedCudaBackend spread(worldCommunicator());
    expectFewerBodiesThanRanksRefused(spread);
}

TEST(DistributedCudaBackendMpi, EveryRankReachesTheSameVerdictOnGpuRanks) {
    // Runs with or without GPUs: the ranks must agree on whether they step on GPUs (their reasons may differ in words).
    const std::string& reason = whyNoGpuRanks();
    const std::vector<char> mine(reason.begin(), reason.end());
    std::vector<std::size_t> lengths;
    (void)allGather(worldCommunicator(), std::span<const char>(mine), &lengths);
    for (std::size_t rank = 0; rank < lengths.size(); ++rank)
        EXPECT_EQ(lengths[rank] == 0, reason.empty()) << "rank " << rank << " disagrees: " << reason;
}

TEST(DistributedCudaBackendMpi, RefusesSofteningZeroNamingTheFlag) {
    SimParams params = rankTestParams("direct");
    params.softeningLength = 0;
    try {
        DistributedCudaBackend::requireSupported(params);
        ADD_FAILURE() << "softening 0 was accepted";
    } catch (const InvalidParameterError& error) {
        EXPECT_EQ(error.field(), "softening");
    }
}

} // namespace
} // namespace gravlab
