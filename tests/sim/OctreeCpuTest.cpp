// Invariants of the CPU octree on uniform, clustered and degenerate inputs: every body in exactly one leaf and inside
// it, children inside their parents, masses, centres of mass and traceless quadrupoles equal to fp64 recomputations,
// opening radii as TreeMath defines them, and a build that does not depend on the thread count.
#include "tree/OctreeCpu.hpp"

#include "TreeTestSupport.hpp"
#include "tree/MortonKeys.hpp"

#include <gtest/gtest.h>
#include <omp.h>

namespace gravlab {
namespace {

using simtest::Vec3;

// Geometry is stored as float: a centre or half size decoded from a key carries one rounding, i.e. up to half a float
// ulp (6e-8) of the coordinate. Containment and octant offsets are therefore checked to 1e-6 of the root's half size
// plus 3e-7 of the coordinates' size (a few ulps). A body in the wrong leaf or a child in the wrong octant is off by a
// cell's size, which exceeds that down to depth ~19 for bodies near the origin; only coincident bodies go deeper, and
// there every cell holds the same single point, below float resolution.
double geometryTolerance(const OctreeCpu& tree, const OctreeCell& cell) {
    const double coordinates = std::max({std::abs(cell.centerX), std::abs(cell.centerY), std::abs(cell.centerZ)});
    return 1e-6 * tree.cells()[0].halfSize + 3e-7 * coordinates;
}

bool insideBox(const Vec3& point, const OctreeCell& cell, double tolerance) {
    return std::abs(point[0] - cell.centerX) <= cell.halfSize + tolerance &&
           std::abs(point[1] - cell.centerY) <= cell.halfSize + tolerance &&
           std::abs(point[2] - cell.centerZ) <= cell.halfSize + tolerance;
}

void expectLevelsAreBreadthFirst(const OctreeCpu& tree) {
    const std::vector<std::size_t>& levelBegin = tree.levelBegin();
    ASSERT_GE(levelBegin.size(), 2u);
    EXPECT_EQ(levelBegin.front(), 0u);
    EXPECT_EQ(levelBegin.back(), tree.cells().size());
    EXPECT_LE(levelBegin.size() - 2, std::size_t(kOctreeMaxDepth));
    for (std::size_t depth = 0; depth + 1 < levelBegin.size(); ++depth)
        for (std::size_t cell = levelBegin[depth]; cell < levelBegin[depth + 1]; ++cell)
            ASSERT_EQ(tree.cells()[cell].depth, int(depth)) << "cell " << cell;
}

void expectEveryBodyInExactlyOneLeaf(const OctreeCpu& tree, const Bodies& bodies, int leafCapacity) {
    std::vector<int> leavesHolding(bodies.size(), 0);
    for (const OctreeCell& cell : tree.cells()) {
        if (!cell.isLeaf()) {
            EXPECT_GT(cell.bodyCount, std::uint32_t(leafCapacity)) << "a cell within capacity was split";
            continue;
        }
        EXPECT_TRUE(cell.bodyCount <= std::uint32_t(leafCapacity) || cell.depth == kOctreeMaxDepth)
            << "leaf at depth " << cell.depth << " holds " << cell.bodyCount << " bodies";
        for (std::uint32_t slot = cell.firstBody; slot < cell.firstBody + cell.bodyCount; ++slot) {
            const std::size_t body = tree.bodyOrder()[slot];
            ASSERT_LT(body, bodies.size());
            ++leavesHolding[body];
            EXPECT_TRUE(insideBox(simtest::positionOf(bodies, body), cell, geometryTolerance(tree, cell)))
                << "body " << body << " lies outside its leaf at depth " << cell.depth;
            EXPECT_EQ(tree.orderedBodies().x[slot], bodies.x[body]);
            EXPECT_EQ(tree.orderedBodies().mass[slot], bodies.mass[body]);
        }
    }
    for (std::size_t body = 0; body < bodies.size(); ++body)
        ASSERT_EQ(leavesHolding[body], 1) << "body " << body;
}

void expectChildrenInsideParents(const OctreeCpu& tree) {
    for (const OctreeCell& parent : tree.cells()) {
        std::uint32_t nextBody = parent.firstBody;
        for (std::int32_t child = parent.firstChild; child < parent.firstChild + parent.childCount; ++child) {
            const OctreeCell& c = tree.cells()[std::size_t(child)];
            EXPECT_EQ(c.depth, parent.depth + 1);
            EXPECT_EQ(c.halfSize, 0.5f * parent.halfSize);
            for (const double offset :
                 {c.centerX - parent.centerX, c.centerY - parent.centerY, c.centerZ - parent.centerZ})
                EXPECT_NEAR(std::abs(offset), 0.5 * parent.halfSize, geometryTolerance(tree, c))
                    << "child is not an octant";
            EXPECT_GT(c.bodyCount, 0u) << "empty child cell";
            EXPECT_EQ(c.firstBody, nextBody) << "children do not split the parent's bodies";
            nextBody += c.bodyCount;
        }
        if (!parent.isLeaf()) {
            EXPECT_EQ(nextBody, parent.firstBody + parent.bodyCount);
        }
    }
}

void expectMultipolesMatchFp64(const OctreeCpu& tree, const Bodies& bodies) {
    for (std::size_t cell = 0; cell < tree.cells().size(); ++cell) {
        std::vector<std::size_t> members;
        treetest::collectBodiesBelow(tree, cell, members);
        const treetest::MomentsFp64 exact = treetest::momentsOf(bodies, members);
        const CellMultipole& m = tree.multipoles()[cell];
        const OctreeCell& c = tree.cells()[cell];
        // Float storage rounds each value once (6e-8 relative); fp64 sums over <= 10^4 bodies agree to ~1e-12.
        // A mass or centre summed over the wrong bodies is off by at least one body's share (>= 1e-4 here).
        EXPECT_NEAR(m.mass, exact.mass, 1e-6 * exact.mass) << "cell " << cell;
        const Vec3 com{m.comX, m.comY, m.comZ};
        const double positionScale = simtest::norm(exact.centerOfMass) + c.halfSize;
        EXPECT_LE(simtest::norm(simtest::sub(com, exact.centerOfMass)), 1e-6 * positionScale) << "cell " << cell;
        // Quadrupole entries are bounded by 2 sum m |x|^2; their float rounding plus the com's rounding (entering as
        // 2 M |x| dcom) stays below 1e-5 of that scale. A quadrupole about the wrong point or missing the 3 x x term
        // is off by order one.
        // The floor covers cells whose bodies all coincide, where both quadrupoles are fp64 rounding noise.
        const double qScale = exact.secondMomentTrace + exact.mass * std::pow(1e-12 * positionScale, 2);
        const double q[3][3] = {{m.qxx, m.qxy, m.qxz}, {m.qxy, m.qyy, m.qyz}, {m.qxz, m.qyz, m.qzz}};
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
                EXPECT_NEAR(q[a][b], exact.quadrupole[a][b], 1e-5 * qScale) << "cell " << cell << " Q" << a << b;
        EXPECT_LE(std::abs(m.qxx + m.qyy + m.qzz), 1e-6 * qScale) << "quadrupole of cell " << cell << " has a trace";
        EXPECT_NEAR(m.secondMoment, exact.secondMomentTrace, 1e-5 * qScale) << "cell " << cell;
        const double offset = simtest::norm(simtest::sub(com, Vec3{c.centerX, c.centerY, c.centerZ}));
        // theta is capped at 2 / sqrt(3) so that the farthest-corner condition below can hold.
        const double theta = std::min(double(tree.openingAngle()), 2.0 / std::sqrt(3.0));
        const double radius = 2 * c.halfSize / theta + offset;
        // No point of the cell may lie outside its opening radius, or a body could accept the cell holding it.
        double farthestCorner = 0;
        for (const double sx : {-1.0, 1.0})
            for (const double sy : {-1.0, 1.0})
                for (const double sz : {-1.0, 1.0})
                    farthestCorner = std::max(
                        farthestCorner,
                        simtest::norm(simtest::sub(
                            Vec3{c.centerX + sx * c.halfSize, c.centerY + sy * c.halfSize, c.centerZ + sz * c.halfSize},
                            com)));
        EXPECT_GE(std::sqrt(tree.openingRadiusSquared()[cell]), farthestCorner * (1 - 1e-6)) << "cell " << cell;
        // The summary measures the offset from the fp64 centre of mass, this test from the float one.
        EXPECT_NEAR(std::sqrt(tree.openingRadiusSquared()[cell]), radius, 1e-5 * radius + geometryTolerance(tree, c))
            << "cell " << cell;
    }
}

void expectValidTree(const Bodies& bodies, int leafCapacity, float openingAngle) {
    OctreeCpu tree;
    tree.build(bodies, leafCapacity);
    tree.summarize(openingAngle);
    ASSERT_EQ(tree.bodyCount(), bodies.size());
    ASSERT_EQ(tree.cells()[0].bodyCount, bodies.size());
    EXPECT_EQ(tree.openingAngle(), openingAngle);
    expectLevelsAreBreadthFirst(tree);
    expectEveryBodyInExactlyOneLeaf(tree, bodies, leafCapacity);
    expectChildrenInsideParents(tree);
    expectMultipolesMatchFp64(tree, bodies);
}

TEST(OctreeCpu, InvariantsHoldForUniformAndClusteredBodies) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    // Thetas up to the slider's 1.5: above 2 / sqrt(3) the radii use the cap, and the corner check must hold.
    const std::pair<int, float> cases[] = {{1, 0.3f}, {4, 0.9f}, {kOctreeLeafCapacity, 1.5f}};
    for (const auto& [leafCapacity, theta] : cases) {
        const std::size_t count = std::uniform_int_distribution<std::size_t>(1500, 4000)(random);
        SCOPED_TRACE("leaf capacity " + std::to_string(leafCapacity) + ", N = " + std::to_string(count));
        expectValidTree(simtest::randomBodies(count, random), leafCapacity, theta);
        expectValidTree(simtest::variedMassPlummer(count, random), leafCapacity, theta);
    }
}

TEST(OctreeCpu, CoincidentBodiesEndInOneLeafAtTheDepthCap) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> coordinate(-5.0, 5.0);
    const Vec3 point{coordinate(random), coordinate(random), coordinate(random)};
    Bodies bodies = simtest::randomBodies(600, random);
    for (std::size_t i = 0; i < bodies.size(); ++i)
        simtest::setBody(bodies, i, point, {}, bodies.mass[i]);
    OctreeCpu tree;
    tree.build(bodies);
    tree.summarize(0.5f);
    // One chain of single-child cells down to the depth cap, ending in one leaf that holds every body.
    ASSERT_EQ(tree.cells().size(), std::size_t(kOctreeMaxDepth + 1));
    EXPECT_TRUE(tree.cells().back().isLeaf());
    EXPECT_EQ(tree.cells().back().depth, kOctreeMaxDepth);
    EXPECT_EQ(tree.cells().back().bodyCount, 600u);
    expectEveryBodyInExactlyOneLeaf(tree, bodies, kOctreeLeafCapacity);
    expectChildrenInsideParents(tree);
    expectMultipolesMatchFp64(tree, bodies);

    // Half of the bodies in one point, the rest spread out.
    Bodies mixed = simtest::randomBodies(2000, random);
    for (std::size_t i = 0; i < 1000; ++i)
        simtest::setBody(mixed, i, point, {}, mixed.mass[i]);
    expectValidTree(mixed, kOctreeLeafCapacity, 0.7f);
}

TEST(OctreeCpu, OneAndTwoBodies) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies one = simtest::randomBodies(1, random);
    OctreeCpu tree;
    tree.build(one, 1);
    tree.summarize(0.5f);
    ASSERT_EQ(tree.cells().size(), 1u);
    EXPECT_TRUE(tree.cells()[0].isLeaf());
    EXPECT_GT(tree.cells()[0].halfSize, 0.0f) << "a single body needs a cube of non-zero size";
    EXPECT_EQ(tree.multipoles()[0].comX, one.x[0]);
    EXPECT_EQ(tree.multipoles()[0].mass, one.mass[0]);
    for (const int leafCapacity : {1, 2})
        expectValidTree(simtest::randomBodies(2, random), leafCapacity, 0.5f);
}

TEST(OctreeCpu, RejectsNonFinitePositionsAndBadArguments) {
    std::mt19937_64 random(simtest::freshSeed());
    Bodies bodies = simtest::randomBodies(100, random);
    bodies.y[17] = std::numeric_limits<float>::quiet_NaN();
    bodies.z[40] = std::numeric_limits<float>::infinity();
    OctreeCpu tree;
    try {
        tree.build(bodies);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("2 of 100 bodies have non-finite positions"), std::string::npos)
            << error.what();
    }
    bodies.y[17] = bodies.z[40] = 0.5f;
    EXPECT_THROW(tree.build(bodies, 0), std::invalid_argument);
    bodies.mass.pop_back();
    EXPECT_THROW(tree.build(bodies), std::invalid_argument);
}

TEST(OctreeCpu, BuildDoesNotDependOnTheThreadCount) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    // Above the parallel sort's threshold (2^16 bodies), with duplicated positions so equal keys need the tie-break.
    Bodies bodies = simtest::variedMassPlummer(70000, random);
    for (std::size_t i = 0; i < 5000; ++i) {
        const std::size_t j = std::uniform_int_distribution<std::size_t>(0, bodies.size() - 1)(random);
        bodies.x[j] = bodies.x[i];
        bodies.y[j] = bodies.y[i];
        bodies.z[j] = bodies.z[i];
    }
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    OctreeCpu serial;
    serial.build(bodies);
    omp_set_num_threads(std::max(threads, 3));
    OctreeCpu parallel;
    parallel.build(bodies);
    omp_set_num_threads(threads);
    EXPECT_EQ(serial.bodyOrder(), parallel.bodyOrder());
    ASSERT_EQ(serial.cells().size(), parallel.cells().size());
    for (std::size_t cell = 0; cell < serial.cells().size(); ++cell) {
        ASSERT_EQ(serial.cells()[cell].firstBody, parallel.cells()[cell].firstBody);
        ASSERT_EQ(serial.cells()[cell].firstChild, parallel.cells()[cell].firstChild);
    }
}

TEST(MortonKeys, InterleaveRoundTripAndSortMatchesStdSort) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    // x occupies the highest bit of each group of three, then y, then z.
    EXPECT_EQ(mortonKey(1, 0, 0), 4u);
    EXPECT_EQ(mortonKey(0, 1, 0), 2u);
    EXPECT_EQ(mortonKey(0, 0, 1), 1u);
    EXPECT_EQ(mortonKey(2, 0, 0), 32u);
    std::uniform_int_distribution<std::uint32_t> coordinate(0, (1u << kMortonBitsPerAxis) - 1);
    for (int trial = 0; trial < 1000; ++trial) {
        const std::uint32_t x = coordinate(random), y = coordinate(random), z = coordinate(random);
        const std::uint64_t key = mortonKey(x, y, z);
        ASSERT_EQ(compactMortonBits(key >> 2), x);
        ASSERT_EQ(compactMortonBits(key >> 1), y);
        ASSERT_EQ(compactMortonBits(key), z);
    }
    // Many equal keys, above the parallel threshold: the order must equal std::sort's on (key, index).
    std::vector<KeyedBody> items(200000);
    std::uniform_int_distribution<std::uint64_t> fewKeys(0, 999);
    for (std::size_t i = 0; i < items.size(); ++i)
        items[i] = {fewKeys(random) << 40, std::uint32_t(items.size() - i)};
    std::vector<KeyedBody> expected = items;
    std::sort(expected.begin(), expected.end());
    sortKeyedBodies(items);
    for (std::size_t i = 0; i < items.size(); ++i)
        ASSERT_TRUE(items[i].key == expected[i].key && items[i].index == expected[i].index) << "position " << i;
}

} // namespace
} // namespace gravlab
