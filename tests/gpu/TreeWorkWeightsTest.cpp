// The CUDA tree's work weights (acceleration.w, the interactions each body's walk evaluated, which ORB balances) and
// its promise to leave the caller's arrays alone, checked through DeviceTree directly.
//
// Design note: the references are independent of the walk. With every cell opened the count is N by definition.
// Otherwise the host walks the downloaded tree again for each walk group, recursively and in fp64, with the rule the
// warp applies (TreeForces.cu): a cell is accepted whole when its centre of mass lies beyond its opening radius from
// every body of the group, unless it is a leaf of at most kTreeDirectLeafMaxBodies bodies; an opened leaf adds its
// bodies. (The warp tests the group's bounding box first and the single bodies only where the box test fails; the
// box is never farther than the nearest body, so the rule is the per-body one alone, which the recount applies to
// every cell.) A decision within 2e-6 of the radius (relative, squared) is one the GPU's fp32 distances (a
// subtraction, three products and two sums of floats: rounding below 4e-7) might take the other way; such groups are
// skipped, and must be rare.
#include "TreeTestSupport.hpp"
#include "tree/OctreeCpu.hpp"
#include "tree/TreeForcesCpu.hpp"
#include "tree/cuda/DeviceTree.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <iostream>

namespace gravlab::gputest {
namespace {

/// One DeviceTree evaluation: accelerations with their w lanes (caller's order), the tree, the body arrays after it.
struct DeviceTreeResult {
    std::vector<float4> acceleration;
    OctreeSnapshot tree;
    Bodies bodiesAfter;
};

/// walkGroupCapacity: as DeviceTree::overrideWalkGroupCapacity (0: the tree's choice by N).
DeviceTreeResult evaluateDeviceTree(const Bodies& bodies, const GravityParams& gravity, float openingAngle,
                                    unsigned walkGroupCapacity) {
    CudaStream stream;
    DeviceBodies device;
    uploadBodies(bodies, device, stream.get());
    // All bits set is a NaN in every lane: an acceleration or weight the walk does not write fails the checks.
    CUDA_CHECK(cudaMemsetAsync(device.acceleration.data(), 0xff, device.acceleration.bytes(), stream.get()));
    DeviceBuffer<float4> scratch(bodies.size());
    PhaseTimeline timeline(1);
    timeline.begin(stream.get());
    DeviceTree tree;
    tree.overrideWalkGroupCapacity(walkGroupCapacity);
    const unsigned nonFinite = tree.computeAccelerations(device, scratch, gravity, TreeOpening{openingAngle},
                                                         stream.get(), timeline, {0, 0, 0, 0, 0});
    EXPECT_EQ(nonFinite, 0u);
    DeviceTreeResult result;
    result.acceleration.resize(bodies.size());
    device.acceleration.download(result.acceleration, stream.get());
    tree.download(result.tree, stream.get());
    downloadBodies(device, result.bodiesAfter, stream.get());
    return result;
}

void expectBodiesUnchanged(const Bodies& before, const Bodies& after) {
    EXPECT_EQ(after.x, before.x);
    EXPECT_EQ(after.y, before.y);
    EXPECT_EQ(after.z, before.z);
    EXPECT_EQ(after.mass, before.mass);
    EXPECT_EQ(after.vx, before.vx);
    EXPECT_EQ(after.colorKey, before.colorKey);
}

struct Point {
    double x, y, z;
};

/// Interactions of a group with bodies at groupBodies under the walk's rule, from cell down (see the design note).
std::size_t groupInteractions(const OctreeSnapshot& tree, unsigned cell, const std::vector<Point>& groupBodies,
                              bool& borderline) {
    const float4 com = tree.monopole[cell];
    const uint2 content = tree.content[cell];
    const bool leaf = (content.y & kLeafFlag) != 0;
    const unsigned leafBodies = content.y & ~kLeafFlag;
    if (!(leaf && leafBodies <= kTreeDirectLeafMaxBodies)) {
        double distance2 = INFINITY; // to the nearest body of the group
        for (const Point& body : groupBodies)
            distance2 = std::min(distance2, (body.x - com.x) * (body.x - com.x) + (body.y - com.y) * (body.y - com.y) +
                                                (body.z - com.z) * (body.z - com.z));
        const double radius2 = tree.openingRadius2[cell];
        borderline |= std::abs(distance2 - radius2) <= 2e-6 * radius2;
        if (distance2 > radius2)
            return 1;
    }
    if (leaf)
        return leafBodies;
    std::size_t count = 0;
    for (unsigned child = content.x; child < content.x + content.y; ++child)
        count += groupInteractions(tree, child, groupBodies, borderline);
    return count;
}

// theta = 1e-7 opens every cell: the smallest cell, at depth 21, has side root / 2^21, so every opening radius exceeds
// 4.7 root sides, more than any distance inside the root cube (sqrt 3 sides). (theta = 1e-3 does not: a group in a
// Plummer halo can lie a thousand sides away from a small leaf in the core.) Each body meets all N bodies, so every
// weight is N, and the walk is a plain fp32 direct sum, whose error bound (GpuTestSupport.hpp's, doubled for the tree's
// own summation order and TreeMath's body term) each acceleration must meet at its own body's place. The bodies come
// back exactly as given.
TEST_F(CudaDeviceTest, TreeWorkWeightsAreNWhenEveryCellOpens) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = generateScenario("plummer", 3000 + random() % 2000, seed);
    const GravityParams gravity = randomGravity(random);
    const DeviceTreeResult result = evaluateDeviceTree(bodies, gravity, 1e-7f, kWalkGroupSize);
    expectBodiesUnchanged(bodies, result.bodiesAfter);

    const std::size_t count = bodies.size();
    const std::vector<std::size_t> targets = allIndices(count);
    Vec3Arrays<double> reference;
    computeAccelerationsFp64(bodies, gravity, targets, reference);
    const std::vector<double> scale = magnitudeSums(bodies, gravity, targets);
    const double bound = 2.0 * fp32DirectSumBound(count);
    for (std::size_t i = 0; i < count; ++i) {
        const float4 a = result.acceleration[i];
        ASSERT_EQ(a.w, float(count)) << "body " << i;
        const double error = std::hypot(a.x - reference.x[i], a.y - reference.y[i], a.z - reference.z[i]);
        ASSERT_LE(error, bound * scale[i]) << "body " << i;
    }
}

// theta = 0.5 on a Plummer sphere: the bodies of one walk group share one weight (one interaction list), and it is
// the host's recount of the group's list; every weight lies in [1, N]. The group criterion is stricter than the CPU
// tree's per-body one, so the mean weight must be at least the CPU tree's and, for groups of nearby bodies, within a
// small factor of it (8, measured 1.6 on an H100; a count per lane instead of per warp would be 32 times too large).
void expectWeightsMatchTheGroupWalk(const Bodies& bodies, const GravityParams& gravity, unsigned walkGroupCapacity) {
    SCOPED_TRACE("walk groups of up to " + std::to_string(walkGroupCapacity));
    const DeviceTreeResult result = evaluateDeviceTree(bodies, gravity, 0.5f, walkGroupCapacity);
    expectBodiesUnchanged(bodies, result.bodiesAfter);
    const OctreeSnapshot& tree = result.tree;
    ASSERT_EQ(tree.treeOrder.size(), bodies.size());

    std::size_t borderlineGroups = 0;
    double gpuTotal = 0;
    for (const uint2 group : tree.walkGroups) {
        std::vector<Point> groupBodies;
        const float weight = result.acceleration[tree.treeOrder[group.x]].w;
        for (unsigned slot = group.x; slot < group.x + group.y; ++slot) {
            const unsigned i = tree.treeOrder[slot];
            ASSERT_EQ(result.acceleration[i].w, weight) << "body " << i << " of the group at slot " << group.x;
            groupBodies.push_back({bodies.x[i], bodies.y[i], bodies.z[i]});
        }
        ASSERT_TRUE(weight >= 1.0f && weight <= float(bodies.size())) << weight;
        gpuTotal += double(weight) * group.y;
        bool borderline = false;
        const std::size_t expected = groupInteractions(tree, 0, groupBodies, borderline);
        if (borderline) {
            ++borderlineGroups;
            continue;
        }
        ASSERT_EQ(weight, float(expected)) << "group at slot " << group.x << " of " << group.y << " bodies";
    }
    EXPECT_LE(borderlineGroups, tree.walkGroups.size() / 100 + 1);

    OctreeCpu cpuTree;
    cpuTree.build(bodies);
    cpuTree.summarize(0.5f);
    Vec3Arrays<float> cpuAccelerations;
    std::vector<float> cpuWork;
    // The CPU tree walked per body (groups of one): the least work theta 0.5 allows each body.
    TreeForceParams perBody{gravity.gravitationalConstant, gravity.softeningLength};
    perBody.walkGroupCapacity = 1;
    computeTreeAccelerationsCpu(cpuTree, perBody, cpuAccelerations, &cpuWork);
    double cpuTotal = 0;
    for (const float work : cpuWork)
        cpuTotal += work;
    const double gpuMean = gpuTotal / double(bodies.size()), cpuMean = cpuTotal / double(bodies.size());
    std::cout << "tree work weights, Plummer N = " << bodies.size() << ", groups of up to " << walkGroupCapacity
              << ", theta 0.5: mean " << gpuMean << " (CPU tree, per body: " << cpuMean << "), " << borderlineGroups
              << " of " << tree.walkGroups.size() << " groups borderline\n";
    EXPECT_GE(gpuMean, cpuMean);
    EXPECT_LE(gpuMean, 8.0 * cpuMean);
}

TEST_F(CudaDeviceTest, TreeWorkWeightsMatchTheGroupWalkOnTheHost) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = generateScenario("plummer", 20000 + random() % 10000, seed);
    const GravityParams gravity = randomGravity(random);
    for (const unsigned capacity : {kSmallWalkGroupSize, kWalkGroupSize})
        expectWeightsMatchTheGroupWalk(bodies, gravity, capacity);
}

} // namespace
} // namespace gravlab::gputest
