// Invariants of the device octree, checked on a host copy against fp64 recomputations, and the overlay's queries.
#include "TreeTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>

namespace gravlab::gputest {
namespace {

/// A Plummer sphere with a few groups of coincident bodies (each forces a leaf at the deepest level).
Bodies sphereWithCoincidentGroups(std::size_t count, std::uint64_t seed, std::mt19937_64& random) {
    Bodies bodies = generateScenario("plummer", count, seed);
    for (int group = 0; group < 4; ++group) {
        const std::size_t anchor = random() % count;
        for (int k = 0; k < 40; ++k) {
            const std::size_t i = random() % count;
            bodies.x[i] = bodies.x[anchor];
            bodies.y[i] = bodies.y[anchor];
            bodies.z[i] = bodies.z[anchor];
        }
    }
    return bodies;
}

struct Fp64Moments {
    double mass = 0, x = 0, y = 0, z = 0;
};

/// Moments of the bodies in tree slots range, found through the permutation.
Fp64Moments momentsOf(const Bodies& bodies, const std::vector<unsigned>& treeOrder, uint2 range) {
    Fp64Moments m;
    for (unsigned slot = range.x; slot < range.x + range.y; ++slot) {
        const unsigned i = treeOrder[slot];
        m.mass += bodies.mass[i];
        m.x += double(bodies.mass[i]) * bodies.x[i];
        m.y += double(bodies.mass[i]) * bodies.y[i];
        m.z += double(bodies.mass[i]) * bodies.z[i];
    }
    m.x /= m.mass;
    m.y /= m.mass;
    m.z /= m.mass;
    return m;
}

bool isLeaf(uint2 content) {
    return (content.y & kLeafFlag) != 0;
}

/// Walk groups: every body in exactly one group (so every acceleration is written), at most capacity each.
void expectWalkGroupsPartitionBodies(const OctreeSnapshot& tree, std::size_t bodyCount,
                                     unsigned capacity = kWalkGroupSize) {
    std::vector<int> groupsOf(bodyCount, 0);
    for (const uint2 group : tree.walkGroups) {
        ASSERT_TRUE(group.y >= 1 && group.y <= capacity) << "a group of " << group.y << " bodies";
        ASSERT_LE(std::size_t(group.x) + group.y, bodyCount);
        for (unsigned i = group.x; i < group.x + group.y; ++i)
            ++groupsOf[i];
    }
    for (std::size_t i = 0; i < bodyCount; ++i)
        ASSERT_EQ(groupsOf[i], 1) << "body " << i;
}

/// Every cell's box, in cell order (all depths, no limit).
std::vector<TreeCellBox> allCellBoxes(const CudaBackend& backend, std::size_t cellCount) {
    TreeCellQuery everything;
    everything.minDepth = 0;
    everything.maxDepth = kTreeMaxDepth;
    everything.maxCells = cellCount;
    std::vector<TreeCellBox> boxes;
    backend.visuals().collectTreeCells(everything, boxes);
    return boxes;
}

// Order: the evaluation leaves the bodies exactly as loaded, and the tree permutation (slot -> body) is a
// permutation. Structure: leaves partition the tree slots (each body in exactly one leaf, the leaf its leaf depth
// names); an inner cell's children are contiguous, one level deeper, and split its slots exactly; children lie inside
// their parent (up to fp32 rounding of the box centres, 1e-6 of the root side); every body lies inside its leaf's box
// (same tolerance), found through the permutation. Multipoles: each cell's mass is the fp64 sum of its bodies' masses
// (the summary sums in fp64 and rounds once: 1e-6 relative) and its centre of mass the fp64 one (within 1e-6 of the
// root side plus 1e-6 of the distance from the origin, the float rounding of coordinates).
TEST_F(CudaDeviceTest, TreeInvariantsOnHostCopy) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    CudaBackend backend;
    const Bodies loaded = sphereWithCoincidentGroups(30000 + random() % 10000, seed, random);
    backend.load(loaded);
    Vec3Arrays<float> accelerations;
    backend.readAccelerations(treeParams(0.5), accelerations); // builds the tree of the loaded bodies
    Bodies bodies;
    backend.readBodies(bodies);
    ASSERT_EQ(bodies.x, loaded.x);
    ASSERT_EQ(bodies.vy, loaded.vy);
    ASSERT_EQ(bodies.colorKey, loaded.colorKey);
    OctreeSnapshot tree;
    downloadTree(backend, tree);
    ASSERT_EQ(tree.treeOrder.size(), bodies.size());
    std::vector<unsigned> sortedOrder = tree.treeOrder;
    std::sort(sortedOrder.begin(), sortedOrder.end());
    for (std::size_t i = 0; i < sortedOrder.size(); ++i)
        ASSERT_EQ(sortedOrder[i], i) << "the tree order must be a permutation of the bodies";
    const std::size_t cellCount = tree.content.size();
    ASSERT_GT(cellCount, 1u);
    const std::vector<TreeCellBox> boxes = allCellBoxes(backend, cellCount);
    ASSERT_EQ(boxes.size(), cellCount);
    const double tolerance = 1e-6 * tree.frame.side;

    std::vector<int> leafOf(bodies.size(), -1);
    int deepestLeaf = 0;
    for (std::size_t c = 0; c < cellCount; ++c) {
        const uint2 content = tree.content[c], range = tree.bodyRange[c];
        const TreeCellBox& box = boxes[c];
        ASSERT_GE(c, tree.levelBegin[box.depth]);
        ASSERT_LT(c, tree.levelBegin[box.depth + 1]);
        if (isLeaf(content)) {
            ASSERT_EQ(content.x, range.x);
            ASSERT_EQ(content.y & ~kLeafFlag, range.y);
            deepestLeaf = std::max(deepestLeaf, box.depth);
            for (unsigned slot = range.x; slot < range.x + range.y; ++slot) {
                const unsigned i = tree.treeOrder[slot];
                ASSERT_EQ(leafOf[i], -1) << "body " << i << " in two leaves";
                leafOf[i] = int(c);
                ASSERT_EQ(tree.leafDepthOfBodies[i], box.depth);
                ASSERT_LE(std::abs(bodies.x[i] - box.centerX), box.halfSize + tolerance);
                ASSERT_LE(std::abs(bodies.y[i] - box.centerY), box.halfSize + tolerance);
                ASSERT_LE(std::abs(bodies.z[i] - box.centerZ), box.halfSize + tolerance);
            }
        } else {
            ASSERT_TRUE(content.y >= 1 && content.y <= 8);
            unsigned next = range.x;
            for (unsigned child = content.x; child < content.x + content.y; ++child) {
                const TreeCellBox& inner = boxes[child];
                ASSERT_EQ(inner.depth, box.depth + 1);
                ASSERT_EQ(tree.bodyRange[child].x, next) << "children must split the parent's bodies in order";
                next += tree.bodyRange[child].y;
                ASSERT_FLOAT_EQ(inner.halfSize, 0.5f * box.halfSize);
                ASSERT_LE(std::abs(inner.centerX - box.centerX) + inner.halfSize, box.halfSize + tolerance);
                ASSERT_LE(std::abs(inner.centerY - box.centerY) + inner.halfSize, box.halfSize + tolerance);
                ASSERT_LE(std::abs(inner.centerZ - box.centerZ) + inner.halfSize, box.halfSize + tolerance);
            }
            ASSERT_EQ(next, range.x + range.y);
        }
        const Fp64Moments m = momentsOf(bodies, tree.treeOrder, range);
        const float4 monopole = tree.monopole[c];
        ASSERT_NEAR(monopole.w, m.mass, 1e-6 * m.mass) << "cell " << c;
        const double where = std::abs(m.x) + std::abs(m.y) + std::abs(m.z);
        ASSERT_NEAR(monopole.x, m.x, tolerance + 1e-6 * where) << "cell " << c;
        ASSERT_NEAR(monopole.y, m.y, tolerance + 1e-6 * where) << "cell " << c;
        ASSERT_NEAR(monopole.z, m.z, tolerance + 1e-6 * where) << "cell " << c;
    }
    for (std::size_t i = 0; i < bodies.size(); ++i)
        ASSERT_NE(leafOf[i], -1) << "body " << i << " in no leaf";
    EXPECT_EQ(deepestLeaf, kTreeMaxDepth) << "the coincident groups must end in leaves at the deepest level";
    EXPECT_EQ(tree.bodyRange[0].y, bodies.size());
    expectWalkGroupsPartitionBodies(tree, bodies.size());
}

unsigned largestGroup(const OctreeSnapshot& tree) {
    unsigned largest = 0;
    for (const uint2 group : tree.walkGroups)
        largest = std::max(largest, group.y);
    return largest;
}

// Groups of up to 96 bodies fill the chip only from about two waves of such groups on (DeviceOctree.hpp): below
// kLargeWalkGroupMinBodiesPerSM bodies per multiprocessor the tree packs groups of 32, above it groups of 96, and a
// forced capacity wins over both. Every choice still partitions the bodies.
TEST_F(CudaDeviceTest, TreeWalkGroupCapacityFollowsTheBodyCount) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    int device = 0, multiprocessors = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    const std::size_t largeFrom = std::size_t(multiprocessors) * kLargeWalkGroupMinBodiesPerSM;
    struct Case {
        std::size_t bodies;
        unsigned forced, expectedCapacity;
    };
    for (const Case c : {Case{largeFrom - 1, 0, kSmallWalkGroupSize}, Case{largeFrom + 4096, 0, kWalkGroupSize},
                         Case{20000, kWalkGroupSize, kWalkGroupSize}, Case{largeFrom + 4096, 32, 32}}) {
        SCOPED_TRACE("N " + std::to_string(c.bodies) + ", forced capacity " + std::to_string(c.forced));
        const Bodies bodies = generateScenario("plummer", c.bodies, seed);
        CudaBackend backend;
        deviceTreeOf(backend).overrideWalkGroupCapacity(c.forced);
        backend.load(bodies);
        Vec3Arrays<float> accelerations;
        backend.readAccelerations(treeParams(0.5), accelerations);
        OctreeSnapshot tree;
        downloadTree(backend, tree);
        expectWalkGroupsPartitionBodies(tree, bodies.size(), c.expectedCapacity);
        EXPECT_GT(largestGroup(tree), c.expectedCapacity / 2) << "groups should fill towards the capacity";
    }
}

// The overlay's queries: a depth range gives exactly the cells of those depths, shallowest first, cut at maxCells;
// a point gives the cells containing it from the root down to its leaf (one per depth); a point outside the root
// gives nothing; no tree (a direct-solver step) gives nothing.
TEST_F(CudaDeviceTest, TreeCellQueriesForTheOverlay) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CudaBackend backend;
    backend.load(generateScenario("galaxy-collision", 20000, seed));
    backend.step(treeParams(0.5), 1);
    OctreeSnapshot tree;
    downloadTree(backend, tree);

    TreeCellQuery levels;
    levels.minDepth = 2;
    levels.maxDepth = 4;
    std::vector<TreeCellBox> boxes;
    backend.visuals().collectTreeCells(levels, boxes);
    ASSERT_EQ(boxes.size(), tree.levelBegin[5] - tree.levelBegin[2]);
    for (std::size_t k = 0; k < boxes.size(); ++k) {
        ASSERT_TRUE(boxes[k].depth >= 2 && boxes[k].depth <= 4);
        if (k > 0) {
            ASSERT_GE(boxes[k].depth, boxes[k - 1].depth);
        }
    }
    levels.maxCells = 10;
    backend.visuals().collectTreeCells(levels, boxes);
    EXPECT_EQ(boxes.size(), 10u);

    Bodies bodies;
    backend.readBodies(bodies);
    const std::size_t picked = std::size_t(seed % bodies.size());
    TreeCellQuery path;
    path.minDepth = 0;
    path.maxDepth = kTreeMaxDepth;
    path.containingPoint = std::array<float, 3>{bodies.x[picked], bodies.y[picked], bodies.z[picked]};
    backend.visuals().collectTreeCells(path, boxes);
    ASSERT_FALSE(boxes.empty());
    for (std::size_t k = 0; k < boxes.size(); ++k) {
        EXPECT_EQ(boxes[k].depth, int(k));
        EXPECT_LE(std::abs(bodies.x[picked] - boxes[k].centerX), boxes[k].halfSize);
    }
    EXPECT_EQ(boxes.back().depth, int(tree.leafDepthOfBodies[picked]));

    path.containingPoint = std::array<float, 3>{tree.frame.lowX - 1.0f, tree.frame.lowY, tree.frame.lowZ};
    backend.visuals().collectTreeCells(path, boxes);
    EXPECT_TRUE(boxes.empty());

    SimParams direct = treeParams(0.5);
    direct.solver = "direct";
    backend.step(direct, 1);
    backend.visuals().collectTreeCells(levels, boxes);
    EXPECT_TRUE(boxes.empty());
}

} // namespace
} // namespace gravlab::gputest
