// Migration between re-partitions across the ranks mpirun started (1 to 4), against migrateOrbCpu on the whole set
// (the bodies that move, the cells' ranges and grown faces, the ids of each domain, work per rank); low parts of
// double precision travelling with their bodies; and invalid input on one rank refused on every rank, with the ranks
// still in step afterwards.
#include "DistributedOrbTestSupport.hpp"
#include "LowPartTags.hpp"
#include "orb/OrbMigrationCpu.hpp"

namespace gravlab {
namespace {

constexpr std::size_t kMigrationBodyCount = 3000;
/// A few steps' drift in a Plummer sphere of half-mass radius 0.77: enough to send hundreds of bodies across cuts.
constexpr double kDriftSigma = 0.05;

/// After a migration: the same bodies per domain, cells and moved count as migrateOrbCpu's on the reference, every id
/// once over all ranks, every body its own. Collective.
void expectReferenceMigration(const RankDomains& domains, const RankMigration& migration, const Bodies& local,
                              const std::vector<float>& localWork, const std::vector<OrbCell>& referenceCells,
                              const Bodies& reference, const std::vector<float>& referenceWork,
                              std::uint64_t referenceMoved, const Bodies& all, const std::vector<float>& allWork) {
    Communicator& world = worldCommunicator();
    const std::vector<std::uint64_t> allIds = test::sortedIdsOfAllRanks(world, local);
    std::vector<std::uint64_t> expectedIds(all.size());
    std::iota(expectedIds.begin(), expectedIds.end(), std::uint64_t{0});
    EXPECT_EQ(allIds, expectedIds) << "ids lost or duplicated";
    EXPECT_EQ(migration.bodiesMoved, referenceMoved);
    EXPECT_TRUE(test::sameCells(domains.cells, referenceCells));
    std::vector<std::uint64_t> myIds = local.id;
    std::sort(myIds.begin(), myIds.end());
    EXPECT_EQ(myIds, test::idsByDomain(referenceCells, reference)[std::size_t(world.rank())]);
    EXPECT_TRUE(test::bodiesAreTheOriginals(local, localWork, all, allWork));
    EXPECT_TRUE(test::insideDomainBox(domains, local, world.rank()));
    for (const OrbCell& cell : referenceCells)
        if (cell.isLeaf()) {
            EXPECT_EQ(domains.bodiesPerRank[cell.firstDomain], cell.bodyCount());
            EXPECT_EQ(domains.workPerRank[cell.firstDomain],
                      std::accumulate(referenceWork.begin() + cell.begin, referenceWork.begin() + cell.end, 0.0));
        }
}

TEST(DistributedOrbMpi, MigrationSendsLeaversWhereTheSingleProcessMigrationDoes) {
    Communicator& world = worldCommunicator();
    const std::uint64_t seed = test::agreedSeed(world);
    SCOPED_TRACE(test::seedTrace(seed));
    Bodies all = generateScenario("plummer", kMigrationBodyCount, seed, {});
    const std::vector<float> weights = test::exactWeights(all.size(), seed);
    const std::vector<std::size_t> myShare = test::sliceIndices(all.size(), world.rank(), world.size());
    Bodies local = test::pickBodies(all, myShare);
    std::vector<float> localWork = test::pickValues(weights, myShare);
    RankDomains domains = repartitionAcrossRanks(world, local, localWork, OrbBalance::Work);

    Bodies reference = all;
    std::vector<float> referenceWork = weights;
    OrbCpu orb;
    orb.build(reference, std::uint32_t(world.size()), referenceWork);
    std::vector<OrbCell> referenceCells = orb.cells();
    EXPECT_TRUE(test::sameCells(domains.cells, referenceCells)) << "the re-partition before the drift";
    // Two drifts in a row: the second migrates domains that a migration has changed (ranges, grown faces).
    for (int round = 0; round < 2; ++round) {
        SCOPED_TRACE("drift " + std::to_string(round + 1));
        const Vec3Arrays<float> drift = test::driftById(all.size(), seed + std::uint64_t(round), kDriftSigma);
        test::applyDrift(all, drift);
        test::applyDrift(local, drift);
        test::applyDrift(reference, drift);
        const RankMigration migration = migrateAcrossRanks(world, domains, local, localWork);
        const std::uint64_t referenceMoved = migrateOrbCpu(referenceCells, reference, referenceWork);
        if (world.size() > 1) {
            EXPECT_GT(referenceMoved, 0u) << "the drift moved no body across a cut: the test checks nothing";
        }
        expectReferenceMigration(domains, migration, local, localWork, referenceCells, reference, referenceWork,
                                 referenceMoved, all, weights);
    }
}

/// Double precision, every body starting on rank 0 (the others without bodies, and so without low arrays).
TEST(DistributedOrbMpi, LowPartsTravelWithTheirBodies) {
    Communicator& world = worldCommunicator();
    const std::uint64_t seed = test::agreedSeed(world);
    SCOPED_TRACE(test::seedTrace(seed));
    Bodies all = generateScenario("plummer", kMigrationBodyCount, seed, {});
    test::tagLowParts(all);
    const std::vector<float> weights = test::exactWeights(all.size(), seed);
    std::vector<std::size_t> myShare;
    if (world.rank() == 0)
        myShare = test::sliceIndices(all.size(), 0, 1);
    Bodies local = test::pickBodies(all, myShare);
    std::vector<float> localWork = test::pickValues(weights, myShare);
    RankDomains domains = repartitionAcrossRanks(world, local, localWork, OrbBalance::Count);
    EXPECT_TRUE(test::tagsFollowIds(local));
    EXPECT_TRUE(test::bodiesAreTheOriginals(local, localWork, all, weights));

    const Vec3Arrays<float> drift = test::driftById(all.size(), seed, kDriftSigma);
    test::applyDrift(all, drift);
    test::applyDrift(local, drift);
    const RankMigration migration = migrateAcrossRanks(world, domains, local, localWork);
    EXPECT_TRUE(test::tagsFollowIds(local));
    EXPECT_TRUE(test::bodiesAreTheOriginals(local, localWork, all, weights));
    EXPECT_TRUE(test::insideDomainBox(domains, local, world.rank()));
    if (world.size() > 1) {
        EXPECT_GT(migration.bodiesMoved, 0u);
    }
}

/// Runs operation on every rank; returns the message of what it threw (std::invalid_argument), or "".
template <typename Operation> std::string refusal(Operation&& operation) {
    try {
        operation();
    } catch (const std::invalid_argument& error) {
        return error.what();
    }
    return {};
}

TEST(DistributedOrbMpi, InvalidInputOnOneRankIsRefusedOnEveryRank) {
    Communicator& world = worldCommunicator();
    const std::uint64_t seed = test::agreedSeed(world);
    SCOPED_TRACE(test::seedTrace(seed));
    const Bodies all = generateScenario("plummer", kMigrationBodyCount, seed, {});
    const std::vector<std::size_t> myShare = test::sliceIndices(all.size(), world.rank(), world.size());
    const std::string lastRank = "rank " + std::to_string(world.size() - 1);

    Bodies local = test::pickBodies(all, myShare);
    std::vector<float> work(local.size(), 1.0f);
    if (world.rank() == world.size() - 1)
        work.pop_back();
    const std::string shortWork = refusal([&] { repartitionAcrossRanks(world, local, work, OrbBalance::Count); });
    EXPECT_NE(shortWork.find(lastRank), std::string::npos) << shortWork;

    work.assign(local.size(), 1.0f);
    if (world.rank() == world.size() - 1)
        work.back() = -1.0f;
    const std::string negativeWork = refusal([&] { repartitionAcrossRanks(world, local, work, OrbBalance::Work); });
    EXPECT_NE(negativeWork.find(lastRank), std::string::npos) << negativeWork;

    work.assign(local.size(), 1.0f);
    RankDomains domains = repartitionAcrossRanks(world, local, work, OrbBalance::Count);
    if (world.rank() == world.size() - 1)
        local.y.back() = std::numeric_limits<float>::quiet_NaN();
    const std::string notFinite = refusal([&] { migrateAcrossRanks(world, domains, local, work); });
    EXPECT_NE(notFinite.find(lastRank), std::string::npos) << notFinite;

    // Fewer bodies than ranks: one body short of one per rank.
    Bodies few = test::pickBodies(all, test::sliceIndices(std::size_t(world.size()) - 1, world.rank(), world.size()));
    std::vector<float> fewWork(few.size(), 1.0f);
    const std::string tooFew = refusal([&] { repartitionAcrossRanks(world, few, fewWork, OrbBalance::Count); });
    EXPECT_FALSE(tooFew.empty());

    // Every rank threw at the same collective: the ranks are still in step.
    std::vector<std::uint64_t> ranks{1};
    world.allReduceSum(ranks);
    EXPECT_EQ(ranks[0], std::uint64_t(world.size()));
}

} // namespace
} // namespace gravlab
