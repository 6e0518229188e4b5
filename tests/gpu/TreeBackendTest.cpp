// The tree solver through CudaBackend: energy over many steps, non-finite states, colours, the body permutation.
#include "TreeTestSupport.hpp"

#include <Diagnostics.hpp>
#include <Scenarios.hpp>
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
    const double initial = computeDiagnosticsCpu(start, gravityOf(params)).totalEnergy();
    double worst = 0.0;
    Bodies state;
    for (int checkpoint = 0; checkpoint < 10; ++checkpoint) {
        backend.step(params, 100);
        backend.readBodies(state);
        const double energy = computeDiagnosticsCpu(state, gravityOf(params)).totalEnergy();
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
// a Plummer sphere; positions are the bodies'. Component colours are the colour keys. Without a tree (direct solver)
// LeafDepth falls back to the colour keys.
TEST_F(CudaDeviceTest, TreeLeafDepthColours) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    CudaBackend backend;
    backend.load(generateScenario("plummer", 30000, seed));
    backend.step(treeParams(0.5), 2);
    Bodies bodies;
    backend.readBodies(bodies);
    OctreeSnapshot tree;
    backend.downloadTree(tree);
    std::vector<RenderVertex> vertices(bodies.size(), RenderVertex{NAN, NAN, NAN, NAN});
    backend.setColorMode(ColorMode::LeafDepth);
    backend.writeRenderVertices(vertices);
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

    backend.setColorMode(ColorMode::Component);
    backend.writeRenderVertices(vertices);
    for (std::size_t i = 0; i < bodies.size(); ++i)
        ASSERT_EQ(vertices[i].colorScalar, bodies.colorKey[i]);

    SimParams direct = treeParams(0.5);
    direct.solver = SolverKind::Direct;
    backend.setColorMode(ColorMode::LeafDepth);
    backend.step(direct, 1);
    backend.readBodies(bodies);
    backend.writeRenderVertices(vertices);
    for (std::size_t i = 0; i < bodies.size(); ++i)
        ASSERT_EQ(vertices[i].colorScalar, bodies.colorKey[i]);
}

// The tree order permutes positions, velocities, masses and colour keys together. Colour keys are made unique, so
// they name each body's original index; after one short step every body must sit where its own position and
// velocity put it (|a| dt^2 with dt = 1e-4 is far below the 1e-6 tolerance) with its own mass and velocity.
TEST_F(CudaDeviceTest, TreeOrderKeepsBodiesTogether) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies start = randomBall(5000, random);
    for (std::size_t i = 0; i < start.size(); ++i)
        start.colorKey[i] = float(i) / float(start.size());
    const double timeStep = 1e-4;
    CudaBackend backend;
    backend.load(start);
    backend.step(treeParams(0.5, {1.0, 0.05}, timeStep), 1);
    Bodies after;
    backend.readBodies(after);
    ASSERT_EQ(after.size(), start.size());
    std::vector<int> seen(start.size(), 0);
    bool reordered = false;
    for (std::size_t j = 0; j < after.size(); ++j) {
        const auto i = std::size_t(std::lround(double(after.colorKey[j]) * double(start.size())));
        ASSERT_LT(i, start.size());
        ASSERT_EQ(after.colorKey[j], start.colorKey[i]);
        ++seen[i];
        reordered |= i != j;
        ASSERT_EQ(after.mass[j], start.mass[i]);
        ASSERT_NEAR(after.x[j], start.x[i] + timeStep * start.vx[i], 1e-6);
        ASSERT_NEAR(after.y[j], start.y[i] + timeStep * start.vy[i], 1e-6);
        ASSERT_NEAR(after.z[j], start.z[i] + timeStep * start.vz[i], 1e-6);
        ASSERT_NEAR(after.vx[j], start.vx[i], 1e-3);
    }
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int count) { return count == 1; }));
    EXPECT_TRUE(reordered) << "tree order should differ from the random input order";
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
