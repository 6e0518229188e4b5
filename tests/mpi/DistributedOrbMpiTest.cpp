// ORB domains across the ranks mpirun started (1 to 4): every rank generates the same bodies, keeps a slice, and
// re-partitions; the result is checked against OrbCpu built by every rank on the whole set (cells, the ids of each
// domain, the bodies and work per rank), and for conservation: every id exactly once over all ranks, every body
// arriving with its own state, inside its rank's box.
#include "DistributedOrbTestSupport.hpp"

#include <gravlab/sim/Orb.hpp>

namespace gravlab {
namespace {

constexpr std::size_t kOrbBodyCount = 3000;

/// Repartitions slices of all (weights: work balance) across the world and compares with OrbCpu on all.
/// Collective: every rank calls it with the same bodies.
void expectDomainsOfSingleProcessOrb(const Bodies& all, const std::vector<float>& weights, OrbBalance balance,
                                     const std::vector<std::size_t>& myShare) {
    Communicator& world = worldCommunicator();
    const auto ranks = std::size_t(world.size()), rank = std::size_t(world.rank());
    Bodies local = test::pickBodies(all, myShare);
    std::vector<float> localWork = test::pickValues(weights, myShare);
    const RankDomains domains = repartitionAcrossRanks(world, local, localWork, balance);
    const std::vector<std::uint64_t> allIds = test::sortedIdsOfAllRanks(world, local);

    // The reference: the bodies in id order, so OrbCpu's index tie-break is the id order the ranks use.
    Bodies reference = all;
    std::vector<float> referenceWeights = weights;
    OrbCpu orb;
    orb.build(reference, std::uint32_t(ranks),
              balance == OrbBalance::Work ? std::span<float>(referenceWeights) : std::span<float>());
    EXPECT_TRUE(test::sameCells(domains.cells, orb.cells()));
    EXPECT_EQ(domains.balance, balance);

    std::vector<std::uint64_t> expectedIds(all.size());
    std::iota(expectedIds.begin(), expectedIds.end(), std::uint64_t{0});
    EXPECT_EQ(allIds, expectedIds) << "ids lost or duplicated";
    std::vector<std::uint64_t> myIds = local.id;
    std::sort(myIds.begin(), myIds.end());
    EXPECT_EQ(myIds, test::idsByDomain(orb.cells(), reference)[rank]) << "rank " << rank << " holds other bodies";
    EXPECT_TRUE(test::bodiesAreTheOriginals(local, localWork, all, weights));
    EXPECT_TRUE(test::insideDomainBox(domains, local, world.rank()));

    // Bodies and work per rank against the reference's leaves; the weights are multiples of 1/4 and add up exactly.
    ASSERT_EQ(domains.bodiesPerRank.size(), ranks);
    double largestWork = 0, totalWork = 0;
    for (const OrbCell& cell : orb.cells()) {
        if (!cell.isLeaf())
            continue;
        double work = cell.bodyCount();
        if (balance == OrbBalance::Work)
            work = std::accumulate(referenceWeights.begin() + cell.begin, referenceWeights.begin() + cell.end, 0.0);
        EXPECT_EQ(domains.bodiesPerRank[cell.firstDomain], cell.bodyCount()) << "rank " << cell.firstDomain;
        EXPECT_EQ(domains.workPerRank[cell.firstDomain], work) << "rank " << cell.firstDomain;
        largestWork = std::max(largestWork, domains.workPerRank[cell.firstDomain]);
        totalWork += domains.workPerRank[cell.firstDomain];
    }
    const OrbImbalance expected = orb.imbalance(balance == OrbBalance::Work ? std::span<const float>(referenceWeights)
                                                                            : std::span<const float>());
    EXPECT_LE(largestWork * double(ranks) / totalWork, expected.work * (1 + 1e-12)) << "worse balanced than OrbCpu";
}

Bodies plummer(std::uint64_t seed) {
    return generateScenario("plummer", kOrbBodyCount, seed, {});
}

/// A Plummer sphere with every coordinate c replaced by round(c scale) clamped to [-limit, limit]: a grid of
/// 2 limit + 1 whole values per axis, so many bodies share each cut plane.
Bodies plummerOnGrid(std::uint64_t seed, float scale, float limit) {
    Bodies all = plummer(seed);
    for (std::vector<float>* coordinates : {&all.x, &all.y, &all.z})
        for (float& c : *coordinates)
            c = std::clamp(std::round(c * scale), -limit, limit);
    return all;
}

TEST(DistributedOrbMpi, CountBalanceFindsTheCutsOfTheSingleProcessOrb) {
    Communicator& world = worldCommunicator();
    const std::uint64_t seed = test::agreedSeed(world);
    SCOPED_TRACE(test::seedTrace(seed));
    const Bodies all = plummer(seed);
    expectDomainsOfSingleProcessOrb(all, std::vector<float>(all.size(), 1.0f), OrbBalance::Count,
                                    test::sliceIndices(all.size(), world.rank(), world.size()));
}

TEST(DistributedOrbMpi, WorkBalanceFindsTheCutsOfTheSingleProcessOrb) {
    Communicator& world = worldCommunicator();
    const std::uint64_t seed = test::agreedSeed(world);
    SCOPED_TRACE(test::seedTrace(seed));
    const Bodies all = plummer(seed);
    expectDomainsOfSingleProcessOrb(all, test::exactWeights(all.size(), seed), OrbBalance::Work,
                                    test::sliceIndices(all.size(), world.rank(), world.size()));
}

/// Positions on a grid of 5 values per axis, so most cut planes hold many bodies and the split goes by id; every
/// body starts on the last rank (the others start empty).
TEST(DistributedOrbMpi, TiesOnCutPlanesGoByIdLikeTheSingleProcessOrb) {
    Communicator& world = worldCommunicator();
    const std::uint64_t seed = test::agreedSeed(world);
    SCOPED_TRACE(test::seedTrace(seed));
    const Bodies all = plummerOnGrid(seed, 2.0f, 2.0f);
    // In reverse id order, so a tie-break by arrival order instead of id would choose other bodies.
    std::vector<std::size_t> myShare;
    if (world.rank() == world.size() - 1)
        for (std::size_t i = all.size(); i-- > 0;)
            myShare.push_back(i);
    for (const OrbBalance balance : {OrbBalance::Count, OrbBalance::Work}) {
        SCOPED_TRACE(std::string(toString(balance)) + " balance");
        expectDomainsOfSingleProcessOrb(all, test::exactWeights(all.size(), seed), balance, myShare);
    }
}

/// Bodies that share their id and, on a grid of 3 values per axis, their position: only the rank and the arrival index
/// tell them apart, the last words of the key. Every body starts on rank 0 in input order, where that order is
/// OrbCpu's index order.
TEST(DistributedOrbMpi, BodiesEqualInIdAndPositionStillSplitLikeTheSingleProcessOrb) {
    Communicator& world = worldCommunicator();
    const std::uint64_t seed = test::agreedSeed(world);
    SCOPED_TRACE(test::seedTrace(seed));
    Bodies all = plummerOnGrid(seed, 1.0f, 1.0f);
    std::fill(all.id.begin(), all.id.end(), std::uint64_t{42});
    for (std::size_t i = 0; i < all.size(); ++i)
        all.colorKey[i] = float(i) / float(all.size());
    const std::vector<float> weights = test::exactWeights(all.size(), seed);
    for (const OrbBalance balance : {OrbBalance::Count, OrbBalance::Work}) {
        SCOPED_TRACE(std::string(toString(balance)) + " balance");
        Bodies local = world.rank() == 0 ? all : Bodies{};
        std::vector<float> work = world.rank() == 0 ? weights : std::vector<float>{};
        const RankDomains domains = repartitionAcrossRanks(world, local, work, balance);
        std::vector<std::uint64_t> total{local.size()};
        world.allReduceSum(total);
        EXPECT_EQ(total[0], all.size());

        Bodies reference = all;
        std::vector<float> referenceWeights = weights;
        OrbCpu orb;
        orb.build(reference, std::uint32_t(world.size()),
                  balance == OrbBalance::Work ? std::span<float>(referenceWeights) : std::span<float>());
        EXPECT_TRUE(test::sameCells(domains.cells, orb.cells()));
        EXPECT_EQ(domains.bodiesPerRank[std::size_t(world.rank())], local.size());
        // The bodies here are the reference domain's: the colour key, i / N, tells them apart.
        const auto sortedKeys = [](const Bodies& bodies, std::size_t begin, std::size_t end) {
            std::vector<float> keys(bodies.colorKey.begin() + std::ptrdiff_t(begin),
                                    bodies.colorKey.begin() + std::ptrdiff_t(end));
            std::sort(keys.begin(), keys.end());
            return keys;
        };
        for (const OrbCell& cell : orb.cells())
            if (cell.isLeaf() && cell.firstDomain == std::uint32_t(world.rank())) {
                EXPECT_EQ(sortedKeys(local, 0, local.size()), sortedKeys(reference, cell.begin, cell.end));
            }
    }
}

TEST(DistributedOrbMpi, ZeroWorkFallsBackToCountBalance) {
    Communicator& world = worldCommunicator();
    const std::uint64_t seed = test::agreedSeed(world);
    SCOPED_TRACE(test::seedTrace(seed));
    Bodies local = test::pickBodies(plummer(seed), test::sliceIndices(kOrbBodyCount, world.rank(), world.size()));
    std::vector<float> zeroWork(local.size(), 0.0f);
    const RankDomains domains = repartitionAcrossRanks(world, local, zeroWork, OrbBalance::Work);
    EXPECT_EQ(domains.balance, OrbBalance::Count);
    for (int r = 0; r < world.size(); ++r) // count balance: floor(N (r + 1) / K) - floor(N r / K) bodies
        EXPECT_EQ(domains.bodiesPerRank[std::size_t(r)],
                  kOrbBodyCount * std::size_t(r + 1) / std::size_t(world.size()) -
                      kOrbBodyCount * std::size_t(r) / std::size_t(world.size()));
}

} // namespace
} // namespace gravlab
