// ORB migration on the CPU: single moves against hand-placed expectations, and a collapsing cluster stepped 1000
// times with domains kept by migration, where no body may be lost or duplicated and every body must lie in its
// domain's cell after every step. Identity travels in colorKey (OrbDomainChecks.hpp).
#include "orb/OrbMigrationCpu.hpp"

#include "SimTestSupport.hpp"
#include "core/CpuBackend.hpp"
#include "orb/OrbCpu.hpp"
#include "orb/OrbSchedule.hpp"

#include <OrbDomainChecks.hpp>
#include <gtest/gtest.h>
#include <random>

namespace gravlab {
namespace {

using test::cellsDescribeBodies;
using test::labelBodiesByIndex;
using test::labelsArePermutation;

/// The domain whose leaf range holds slot i.
std::uint32_t domainOfSlot(const std::vector<OrbCell>& cells, std::uint32_t i) {
    for (const OrbCell& cell : cells)
        if (cell.isLeaf() && cell.begin <= i && i < cell.end)
            return cell.firstDomain;
    ADD_FAILURE() << "slot " << i << " is in no leaf";
    return ~0u;
}

std::uint32_t slotOfLabel(const Bodies& bodies, float label) {
    for (std::uint32_t i = 0; i < bodies.size(); ++i)
        if (bodies.colorKey[i] == label)
            return i;
    ADD_FAILURE() << "label " << label << " is gone";
    return ~0u;
}

struct Partitioned {
    Bodies bodies;
    std::vector<OrbCell> cells;
};

Partitioned partition(std::size_t count, std::uint32_t domains, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    Partitioned result{simtest::randomBodies(count, random), {}};
    labelBodiesByIndex(result.bodies);
    OrbCpu orb;
    orb.build(result.bodies, domains);
    result.cells = orb.cells();
    return result;
}

TEST(OrbMigrationCpu, BodiesThatStayInTheirCellsMoveNowhere) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    Partitioned p = partition(3000, 7, seed);
    const Bodies before = p.bodies;
    std::vector<float> work;
    EXPECT_EQ(migrateOrbCpu(p.cells, p.bodies, work), 0u);
    EXPECT_EQ(p.bodies.colorKey, before.colorKey);
    EXPECT_TRUE(cellsDescribeBodies(p.cells, p.bodies));
}

TEST(OrbMigrationCpu, ABodyMovedIntoAnotherCellJoinsThatDomainAndCarriesItsState) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    Partitioned p = partition(4000, 16, seed);
    std::vector<float> work(p.bodies.size());
    for (std::size_t i = 0; i < work.size(); ++i)
        work[i] = 1000.0f + p.bodies.colorKey[i]; // distinct, so the check sees whether weights travel with bodies
    // Move the first body of domain 0 to the centre of domain 11's box.
    const OrbCell* target = nullptr;
    for (const OrbCell& cell : p.cells)
        if (cell.isLeaf() && cell.firstDomain == 11)
            target = &cell;
    ASSERT_NE(target, nullptr);
    const std::uint32_t moved = 0; // domain 0's first body
    const float label = p.bodies.colorKey[moved], weight = work[moved], speed = p.bodies.vx[moved];
    p.bodies.x[moved] = 0.5f * (target->lower[0] + target->upper[0]);
    p.bodies.y[moved] = 0.5f * (target->lower[1] + target->upper[1]);
    p.bodies.z[moved] = 0.5f * (target->lower[2] + target->upper[2]);

    EXPECT_EQ(migrateOrbCpu(p.cells, p.bodies, work), 1u);
    EXPECT_TRUE(labelsArePermutation(p.bodies));
    EXPECT_TRUE(cellsDescribeBodies(p.cells, p.bodies));
    const std::uint32_t slot = slotOfLabel(p.bodies, label);
    EXPECT_EQ(domainOfSlot(p.cells, slot), 11u);
    EXPECT_EQ(work[slot], weight);
    EXPECT_EQ(p.bodies.vx[slot], speed);
    for (std::size_t i = 0; i < work.size(); ++i) // every weight still beside its own body
        EXPECT_EQ(work[i], 1000.0f + p.bodies.colorKey[i]) << "slot " << i;
}

TEST(OrbMigrationCpu, ABodyLeavingTheRootBoxStaysInTheOuterDomainAndTheRootGrows) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    Partitioned p = partition(2000, 5, seed);
    const float oldUpper = p.cells[0].upper[0];
    // The body with the largest x sits in a domain touching the root's upper x face; push it far beyond.
    std::uint32_t outermost = 0;
    for (std::uint32_t i = 1; i < p.bodies.size(); ++i)
        if (p.bodies.x[i] > p.bodies.x[outermost])
            outermost = i;
    const std::uint32_t domainBefore = domainOfSlot(p.cells, outermost);
    const float label = p.bodies.colorKey[outermost];
    p.bodies.x[outermost] = oldUpper + 50.0f;
    std::vector<float> work;

    EXPECT_EQ(migrateOrbCpu(p.cells, p.bodies, work), 0u);
    EXPECT_EQ(domainOfSlot(p.cells, slotOfLabel(p.bodies, label)), domainBefore);
    EXPECT_EQ(p.cells[0].upper[0], oldUpper + 50.0f);
    EXPECT_TRUE(cellsDescribeBodies(p.cells, p.bodies));
}

TEST(OrbSchedule, RebuildsEveryKStepsAndWhenTheImbalancePassesTheLimit) {
    OrbParams params;
    params.domainCount = 8;
    params.rebuildInterval = 3;
    params.imbalanceLimit = 1.5;
    OrbSchedule schedule;
    using Action = OrbSchedule::Action;
    EXPECT_EQ(schedule.next(params, 100), Action::Rebuild); // nothing built yet
    schedule.rebuilt(params, 100, 1.0, {});
    EXPECT_EQ(schedule.next(params, 100), Action::Migrate);
    EXPECT_FALSE(schedule.migrated(params, 4, {1.2, 1.2}));
    EXPECT_EQ(schedule.next(params, 100), Action::Migrate);
    EXPECT_FALSE(schedule.migrated(params, 4, {1.2, 1.2}));
    EXPECT_EQ(schedule.next(params, 100), Action::Rebuild); // the third step after the rebuild
    schedule.rebuilt(params, 100, 1.0, {});
    EXPECT_EQ(schedule.next(params, 100), Action::Migrate);
    EXPECT_TRUE(schedule.migrated(params, 9, {1.6, 1.0})); // count balance watches memory imbalance
    params.balance = OrbBalance::Work;
    EXPECT_EQ(schedule.next(params, 100), Action::Rebuild); // the balance changed
    schedule.rebuilt(params, 100, 1.0, {});
    EXPECT_FALSE(schedule.migrated(params, 9, {1.6, 1.0})); // work balance watches work imbalance
    EXPECT_EQ(schedule.next(params, 101), Action::Rebuild); // the body count changed
    params.domainCount = 0;
    EXPECT_EQ(schedule.next(params, 100), Action::Off);
    EXPECT_FALSE(schedule.active());
}

TEST(OrbMigrationCpu, ACollapsingClusterKeepsEveryBodyOnceOver1000Steps) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    Bodies cube = generateScenario("cold-cube", 1000, seed);
    labelBodiesByIndex(cube);
    SimParams params;
    params.scenario = "cold-cube";
    params.bodyCount = cube.size();
    params.solver = "tree";
    params.timeStep = 0.005; // 1000 steps: through the collapse (free fall ~1.1 time units for this cube) and after
    params.orb.domainCount = 24;
    params.orb.rebuildInterval = 250;
    params.orb.imbalanceLimit = 100; // only the interval rebuilds: migration must carry the collapse
    CpuBackend withOrb, without;
    withOrb.load(cube);
    without.load(cube);
    const std::uint64_t migrated = test::expectDomainsKeepEveryBodyOnce(withOrb, without, params, 1000, 10);
    EXPECT_EQ(withOrb.visuals().orbStatus().rebuilds, 4u); // steps 1, 251, 501 and 751
    EXPECT_GT(migrated, cube.size() / 10) << "the collapse must move bodies across cells";
}

} // namespace
} // namespace gravlab
