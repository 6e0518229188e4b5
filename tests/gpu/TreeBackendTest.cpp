// The tree solver through CudaBackend: energy over many steps, non-finite states, colours, the loaded order kept.
#include "TreeTestSupport.hpp"

#include <gravlab/sim/Diagnostics.hpp>
#include <gravlab/sim/Scenarios.hpp>

#include <iostream>

namespace gravlab::gputest {
namespace {

// 1000 KDK steps of a 1k-body Plummer sphere (about 1.8 crossing times at dt = 0.005), energies from the fp64 CPU
// diagnostics every 100 steps. Leapfrog alone keeps |dE/E| near 1.4e-6 here (the direct solvers' test); the tree
// adds force errors of about 1e-4 (median at theta = 0.5), which are not the gradient of one potential, so energy can
// wander by at most about that fraction of |W| over a run of this length. Bound: 1e-4 (measured on an H100: 3e-6 to
// 7e-6). A wrong kick or a missing cell makes errors of percents.
TEST_F(CudaDeviceTest, TreeEnergyDriftOverThousandSteps) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    const Bodies start = generateScenario("plummer", 1024, seed);
    const SimParams params = treeParams(0.5);
    CudaBackend backend;
    backend.load(start);
    const double initial = computeDiagnosticsCpu(start, params.gravity()).totalEnergy();
    double worst = 0.0;
    Bodies state;
    for (int checkpoint = 0; checkpoint < 10; ++checkpoint) {
        backend.step(params, 100);
        backend.readBodies(state);
        const double energy = computeDiagnosticsCpu(state, params.gravity()).totalEnergy();
        worst = std::max(worst, std::abs(energy - initial) / std::abs(initial));
    }
    std::cout << "tree, theta 0.5: max |dE/E| over 1000 steps " << worst << "\n";
    EXPECT_LE(worst, 1e-4);
}

void expectRestoredAfterNonFinite(CudaBackend& backend, const Bodies& loaded, const SimParams& params,
                                  std::size_t minimumAffected) {
    backend.load(loaded);
    try {
        backend.step(params, 5);
        ADD_FAILURE() << "no NonFiniteStateError";
    } catch (const NonFiniteStateError& error) {
        EXPECT_EQ(error.step(), 1u);
        EXPECT_GE(error.affectedBodies(), minimumAffected);
        EXPECT_NE(std::string(error.what()).find("step 1"), std::string::npos) << error.what();
    }
    Bodies after;
    backend.readBodies(after);
    EXPECT_EQ(after.vx, loaded.vx);
    EXPECT_EQ(after.colorKey, loaded.colorKey);
    for (std::size_t i = 0; i < loaded.size(); ++i)
        ASSERT_TRUE(after.x[i] == loaded.x[i] || (std::isnan(after.x[i]) && std::isnan(loaded.x[i]))) << i;
}

// A body whose drift overflows, and a body loaded with a NaN position: the tree notices before it builds, the step
// throws naming step 1 and the count, and the loaded state comes back exactly (in the loaded order).
TEST_F(CudaDeviceTest, TreeNonFiniteStateIsReportedAndRolledBack) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const SimParams params = treeParams(0.5, {1.0, 0.05}, 1.0);
    CudaBackend backend;
    {
        SCOPED_TRACE("runaway body");
        Bodies bodies = randomBall(300, random);
        const std::size_t runaway = random() % bodies.size();
        bodies.x[runaway] = 3e38f;
        bodies.vx[runaway] = 3e38f;
        expectRestoredAfterNonFinite(backend, bodies, params, 1);
    }
    {
        SCOPED_TRACE("NaN position loaded");
        Bodies bodies = randomBall(500, random);
        bodies.y[random() % bodies.size()] = NAN;
        expectRestoredAfterNonFinite(backend, bodies, params, 1);
    }
}

// LeafDepth colours: each vertex's scalar is its body's leaf depth / kMaxTreeDepthForColor, in [0, 1], varying over
// a Plummer sphere; positions are the bodies'. For a sample of bodies the depth is also the one of the deepest cell
// the overlay's path query finds around the body's position (cells found from keys, not from the permutation). The
// host path stages the vertices in the scratch array that held the tree-order positions during the step. Component
// colours are the colour keys. Without a tree (direct solver) LeafDepth falls back to the colour keys.
TEST_F(CudaDeviceTest, TreeLeafDepthColours) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CudaBackend backend;
    backend.load(generateScenario("plummer", 30000, seed));
    backend.step(treeParams(0.5), 2);
    EXPECT_TRUE(backend.visuals().drawsTreeCells());
    Bodies bodies;
    backend.readBodies(bodies);
    OctreeSnapshot tree;
    downloadTree(backend, tree);
    std::vector<RenderVertex> vertices(bodies.size(), RenderVertex{NAN, NAN, NAN, NAN});
    backend.visuals().setColorMode(ColorMode::LeafDepth);
    backend.visuals().writeVertices(vertices);
    float lowest = 1.0f, highest = 0.0f;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const float expected = std::min(float(tree.leafDepthOfBodies[i]) / float(kMaxTreeDepthForColor), 1.0f);
        ASSERT_FLOAT_EQ(vertices[i].colorScalar, expected) << "body " << i;
        ASSERT_TRUE(vertices[i].colorScalar >= 0.0f && vertices[i].colorScalar <= 1.0f);
        ASSERT_EQ(vertices[i].x, bodies.x[i]);
        ASSERT_EQ(vertices[i].z, bodies.z[i]);
        lowest = std::min(lowest, vertices[i].colorScalar);
        highest = std::max(highest, vertices[i].colorScalar);
    }
    EXPECT_LT(lowest, highest) << "leaf depths of a Plummer sphere vary between core and halo";
    for (std::size_t k = 0; k < 32; ++k) {
        const std::size_t i = (seed + k * 7919) % bodies.size();
        TreeCellQuery path;
        path.minDepth = 0;
        path.maxDepth = kTreeMaxDepth;
        path.containingPoint = std::array<float, 3>{bodies.x[i], bodies.y[i], bodies.z[i]};
        std::vector<TreeCellBox> cells;
        backend.visuals().collectTreeCells(path, cells);
        ASSERT_FALSE(cells.empty());
        const float expected = std::min(float(cells.back().depth) / float(kMaxTreeDepthForColor), 1.0f);
        ASSERT_FLOAT_EQ(vertices[i].colorScalar, expected) << "body " << i;
    }

    backend.visuals().setColorMode(ColorMode::Component);
    backend.visuals().writeVertices(vertices);
    for (std::size_t i = 0; i < bodies.size(); ++i)
        ASSERT_EQ(vertices[i].colorScalar, bodies.colorKey[i]);

    SimParams direct = treeParams(0.5);
    direct.solver = "direct";
    backend.visuals().setColorMode(ColorMode::LeafDepth);
    backend.step(direct, 1);
    EXPECT_FALSE(backend.visuals().drawsTreeCells()) << "the direct solver builds no tree";
    backend.readBodies(bodies);
    backend.visuals().writeVertices(vertices);
    for (std::size_t i = 0; i < bodies.size(); ++i)
        ASSERT_EQ(vertices[i].colorScalar, bodies.colorKey[i]);
}

// The bodies keep the loaded order through tree steps (the solver permutes a copy of the positions, never the
// bodies; ORB keeps its domains contiguous on that). After a few short steps body i must be where its own position
// and velocity put it (|a| t^2 with t = 3e-4 and |a| of order one is far below the tolerance: 1e-6 plus the float
// rounding of coordinates, 1e-6 relative) with its own mass and colour key, exactly, and the accelerations read
// afterwards must be its own: the fp64 direct sum at its position, on a sample. The generator's order is random in
// space, so an acceleration scattered to the wrong body is off by order one; the bounds are loose (median 1e-3, 99th
// percentile 1e-2, against 2e-3 at the 99th percentile for theta 0.5 at large N) because only that is the point here.
TEST_F(CudaDeviceTest, TreeStepsKeepTheLoadedOrder) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies start = generateScenario("plummer", 5000 + random() % 1000, seed);
    const double timeStep = 1e-4;
    const SimParams params = treeParams(0.5, {1.0, 0.05}, timeStep);
    CudaBackend backend;
    backend.load(start);
    backend.step(params, 3);
    Bodies after;
    backend.readBodies(after);
    ASSERT_EQ(after.size(), start.size());
    for (std::size_t i = 0; i < after.size(); ++i) {
        ASSERT_EQ(after.colorKey[i], start.colorKey[i]) << "body " << i;
        ASSERT_EQ(after.mass[i], start.mass[i]) << "body " << i;
        ASSERT_NEAR(after.x[i], start.x[i] + 3 * timeStep * start.vx[i], 1e-6 * (1 + std::abs(start.x[i])))
            << "body " << i;
        ASSERT_NEAR(after.y[i], start.y[i] + 3 * timeStep * start.vy[i], 1e-6 * (1 + std::abs(start.y[i])))
            << "body " << i;
        ASSERT_NEAR(after.z[i], start.z[i] + 3 * timeStep * start.vz[i], 1e-6 * (1 + std::abs(start.z[i])))
            << "body " << i;
        ASSERT_NEAR(after.vx[i], start.vx[i], 1e-3) << "body " << i;
    }
    Vec3Arrays<float> accelerations;
    backend.readAccelerations(params, accelerations); // the last step's, for the positions read above
    const std::vector<std::size_t> targets = sampleTargets(after.size(), 1000, random);
    Vec3Arrays<double> reference;
    computeAccelerationsFp64(after, params.gravity(), targets, reference);
    const std::vector<double> errors = relativeErrors(accelerations, targets, reference);
    EXPECT_LE(quantile(errors, 0.5), 1e-3);
    EXPECT_LE(quantile(errors, 0.99), 1e-2);
}

TEST_F(CudaDeviceTest, TreeStepTimingsNameEveryPhase) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CudaBackend backend;
    backend.load(generateScenario("plummer", 50000, seed));
    backend.step(treeParams(0.5), 2);
    const std::vector<PhaseTiming> timings = backend.lastStepTimings();
    const std::vector<std::string> expected = {"box", "build", "summary", "sort", "force", "integrate"};
    ASSERT_EQ(timings.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        EXPECT_EQ(timings[k].phase, expected[k]);
        EXPECT_GT(timings[k].milliseconds, 0.0) << expected[k];
    }
}

} // namespace
} // namespace gravlab::gputest
