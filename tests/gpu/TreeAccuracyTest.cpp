// The CUDA tree's accelerations against the fp64 direct sum: opening angles, degenerate sets, determinism.
#include "TreeTestSupport.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <iostream>

namespace gravlab::gputest {
namespace {

// Plummer sphere of 100k bodies, 4096 random targets, theta = 0.3, 0.5, 0.7, softening in [0.01, 0.025] (see
// randomGravity). The bounds are the quadrupole expansion's truncation error, which grows like theta^3 per accepted
// cell, plus what the walk's monopole-only far cells (TreeForces.cu) add: 99th percentiles of 2.5e-4, 1e-3 and 4e-3,
// half the tree's accuracy target of 2e-3 at theta = 0.5, so that the far-cell shortcut cannot use up that headroom
// unnoticed. Measured on an H100 with the shortcut at twice its kept kappa: 0.9e-4 to 1.3e-4, 5.6e-4 to 7.7e-4, 3.2e-3
// to 3.7e-3 (groups of 96 to 32). The medians must sit well below (1e-4, 4e-4, 1.6e-3): a wrong multipole term or a
// missing cell moves the median, not only the tail. The errors must also grow with theta, or theta is not used.
TEST_F(CudaDeviceTest, TreeAccuracyAgainstFp64DirectSum) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = generateScenario("plummer", 100000, seed);
    const GravityParams gravity = randomGravity(random);
    struct Case {
        double theta, p99Bound, medianBound;
    };
    // Both walks: groups of 32 (one body per lane) and of up to 96 (three per lane, with the per-body check).
    for (const unsigned capacity : {kSmallWalkGroupSize, kWalkGroupSize}) {
        double previousMedian = 0.0;
        for (const Case c : {Case{0.3, 2.5e-4, 1e-4}, Case{0.5, 1e-3, 4e-4}, Case{0.7, 4e-3, 1.6e-3}}) {
            SCOPED_TRACE("theta " + std::to_string(c.theta) + ", walk groups of up to " + std::to_string(capacity));
            const ErrorQuantiles errors =
                treeErrorQuantiles(bodies, treeParams(c.theta, gravity), 4096, random, capacity);
            std::cout << "tree, Plummer N = 100000, groups of up to " << capacity << ", theta " << c.theta
                      << ": median relative error " << errors.median << ", 99th percentile " << errors.p99 << "\n";
            EXPECT_LE(errors.p99, c.p99Bound);
            EXPECT_LE(errors.median, c.medianBound);
            EXPECT_GT(errors.median, previousMedian);
            previousMedian = errors.median;
        }
    }
}

// A small set with theta = 0.5, also run under racecheck (both walks): fp32 arithmetic and the bound of the large test.
TEST_F(CudaDeviceTest, TreeAccuracySmallClusteredSet) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = generateScenario("galaxy-collision", 3000 + random() % 2000, seed);
    const SimParams params = treeParams(0.5, randomGravity(random));
    for (const unsigned capacity : {kSmallWalkGroupSize, kWalkGroupSize}) {
        const ErrorQuantiles errors = treeErrorQuantiles(bodies, params, 4096, random, capacity);
        std::cout << "tree, galaxy collision N = " << bodies.size() << ", groups of up to " << capacity
                  << ", theta 0.5: median " << errors.median << ", 99th percentile " << errors.p99 << "\n";
        EXPECT_LE(errors.p99, 2e-3) << "groups of up to " << capacity;
    }
}

// N = 1 and 2: one body feels nothing (exactly zero: its own term is 0 * finite); two bodies feel the softened pair
// force, which the tree evaluates directly (one leaf), so fp32 rounding alone separates it from fp64: 1e-6.
TEST_F(CudaDeviceTest, TreeOneAndTwoBodies) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    for (const std::size_t count : {std::size_t{1}, std::size_t{2}}) {
        SCOPED_TRACE("N = " + std::to_string(count));
        const Bodies bodies = randomBall(count, random);
        const SimParams params = treeParams(0.5, randomGravity(random));
        CudaBackend backend;
        backend.load(bodies);
        const OrderedAccelerations tree = treeAccelerations(backend, params);
        Vec3Arrays<double> reference;
        computeAccelerationsFp64(tree.bodies, params.gravity(), reference);
        for (std::size_t i = 0; i < count; ++i) {
            const double size = std::hypot(reference.x[i], reference.y[i], reference.z[i]);
            const double error =
                std::hypot(tree.accelerations.x[i] - reference.x[i], tree.accelerations.y[i] - reference.y[i],
                           tree.accelerations.z[i] - reference.z[i]);
            if (count == 1)
                EXPECT_EQ(error, 0.0);
            else
                EXPECT_LE(error, 1e-6 * size);
        }
        EXPECT_NO_THROW(backend.step(params, 5));
    }
}

// All bodies in one point: the tree ends in one leaf at the deepest level holding all of them (no endless
// splitting), and every acceleration is exactly zero (all separations are zero). Half of them in one point and the
// rest spread out: the build caps the depth for the point and the accelerations keep the accuracy of theta = 0.5.
TEST_F(CudaDeviceTest, TreeCoincidentBodies) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const SimParams params = treeParams(0.5, randomGravity(random));
    Bodies bodies = randomBall(3000, random);
    const float px = bodies.x[0], py = bodies.y[0], pz = bodies.z[0];
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        bodies.x[i] = px;
        bodies.y[i] = py;
        bodies.z[i] = pz;
    }
    {
        CudaBackend backend;
        backend.load(bodies);
        const OrderedAccelerations tree = treeAccelerations(backend, params);
        for (std::size_t i = 0; i < bodies.size(); ++i)
            ASSERT_TRUE(tree.accelerations.x[i] == 0.0f && tree.accelerations.y[i] == 0.0f &&
                        tree.accelerations.z[i] == 0.0f)
                << "body " << i;
        OctreeSnapshot snapshot;
        downloadTree(backend, snapshot);
        ASSERT_FALSE(snapshot.content.empty());
        const uint2 deepest = snapshot.content.back();
        EXPECT_EQ(snapshot.levelBegin[kTreeMaxDepth + 1] - snapshot.levelBegin[kTreeMaxDepth], 1u);
        EXPECT_EQ(deepest.y, unsigned(bodies.size()) | kLeafFlag);
        EXPECT_NO_THROW(backend.step(params, 3));
    }
    Bodies half = randomBall(4000, random);
    for (std::size_t i = 0; i < half.size() / 2; ++i) {
        half.x[i] = px;
        half.y[i] = py;
        half.z[i] = pz;
    }
    const ErrorQuantiles errors = treeErrorQuantiles(half, params, 4000, random);
    std::cout << "tree, half of 4000 bodies in one point, theta 0.5: median " << errors.median << ", 99th percentile "
              << errors.p99 << "\n";
    // Half the bodies sit in one point and share one acceleration, so the median and the 99th percentile are that
    // point's error, a single draw rather than a distribution: it depends on where the point falls in the cells of
    // the spread half (seen up to 3.6e-3 on the GPU, 1.9e-3 on the CPU tree, whose test bounds it at 1e-2 too). A lost
    // body or a broken depth cap gives errors of order one.
    EXPECT_LE(errors.p99, 1e-2);
}

// The build and the walk are deterministic: two backends give bit-identical accelerations, and both leave the bodies
// in the loaded order.
TEST_F(CudaDeviceTest, TreeIsDeterministic) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const Bodies bodies = generateScenario("plummer", 20000, seed);
    const SimParams params = treeParams(0.6);
    CudaBackend first, second;
    first.load(bodies);
    second.load(bodies);
    const OrderedAccelerations a = treeAccelerations(first, params);
    const OrderedAccelerations b = treeAccelerations(second, params);
    EXPECT_EQ(a.bodies.x, bodies.x);
    EXPECT_EQ(b.bodies.x, bodies.x);
    EXPECT_EQ(a.accelerations.x, b.accelerations.x);
    EXPECT_EQ(a.accelerations.y, b.accelerations.y);
    EXPECT_EQ(a.accelerations.z, b.accelerations.z);
}

} // namespace
} // namespace gravlab::gputest
