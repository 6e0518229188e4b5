// GPU migration between ORB domains against the CPU migration (OrbMigrationCpu), and the CUDA backend keeping domains
// by migration through a 1000-step collapse: no body lost or duplicated, every body inside its domain's cell, and the
// same trajectories as a run without ORB (the tree orders bodies by position, so array order must not matter).
// Identity travels in colorKey (OrbDomainChecks.hpp).
#include "orb/cuda/OrbMigrationGpu.hpp"

#include "GpuTestSupport.hpp"
#include "device/cuda/CudaBackend.hpp"
#include "orb/OrbCpu.hpp"
#include "orb/OrbMigrationCpu.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <OrbDomainChecks.hpp>
#include <set>

namespace gravlab::gputest {
namespace {

using test::cellsDescribeBodies;
using test::labelBodiesByIndex;
using test::labelsArePermutation;

/// Labels of each domain's bodies, as sets: the GPU's arrivals come in atomic order, the CPU's in index order.
std::vector<std::set<float>> labelsByDomain(const std::vector<OrbCell>& cells, const Bodies& bodies) {
    std::vector<std::set<float>> out(cells.front().domainCount);
    for (const OrbCell& cell : cells)
        if (cell.isLeaf())
            for (std::uint32_t i = cell.begin; i < cell.end; ++i)
                out[cell.firstDomain].insert(bodies.colorKey[i]);
    return out;
}

class OrbMigrationGpu : public CudaDeviceTest {};

TEST_F(OrbMigrationGpu, MovesTheSameBodiesToTheSameDomainsAsTheCpu) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(50000, random);
    labelBodiesByIndex(bodies);
    OrbCpu orb;
    orb.build(bodies, 37);
    std::vector<OrbCell> cells = orb.cells();
    // A drift: every body moves by up to 0.05 per axis, a few far out of the root box.
    std::uniform_real_distribution<float> kick(-0.05f, 0.05f);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        bodies.x[i] += kick(random);
        bodies.y[i] += kick(random);
        bodies.z[i] += i % 5000 == 0 ? 3.0f : kick(random);
    }

    CudaStream stream;
    DeviceBodies device;
    uploadBodies(bodies, device, stream.get());
    DeviceBuffer<OrbCell> deviceCells(cells.size());
    deviceCells.upload(cells, stream.get());
    std::vector<std::uint32_t> domainBegin(38), leafOfDomain(37);
    for (std::uint32_t c = 0; c < cells.size(); ++c)
        if (cells[c].isLeaf()) {
            domainBegin[cells[c].firstDomain] = cells[c].begin;
            leafOfDomain[cells[c].firstDomain] = c;
        }
    domainBegin[37] = std::uint32_t(bodies.size());
    DeviceBuffer<std::uint32_t> deviceBegin(38), deviceLeaf(37);
    deviceBegin.upload(domainBegin, stream.get());
    deviceLeaf.upload(leafOfDomain, stream.get());
    DeviceBuffer<float4> scratch(bodies.size());
    gravlab::OrbMigrationGpu migration;
    migration.reserve(bodies.size(), 37);
    migration.migrate(device, scratch, deviceCells.data(), std::uint32_t(cells.size()), deviceBegin.data(),
                      deviceLeaf.data(), 37, stream.get());
    std::uint32_t movedOnGpu = 0;
    CUDA_CHECK(cudaMemcpyAsync(&movedOnGpu, migration.movedCount(), sizeof movedOnGpu, cudaMemcpyDeviceToHost,
                               stream.get()));
    std::vector<OrbCell> gpuCells(cells.size());
    deviceCells.download(gpuCells, stream.get());
    Bodies gpuBodies;
    downloadBodies(device, gpuBodies, stream.get());

    std::vector<float> noWork;
    const std::uint64_t movedOnCpu = migrateOrbCpu(cells, bodies, noWork);
    ASSERT_GT(movedOnCpu, 1000u) << "the drift must move bodies across cuts";
    EXPECT_EQ(movedOnGpu, movedOnCpu);
    EXPECT_TRUE(labelsArePermutation(gpuBodies));
    EXPECT_TRUE(cellsDescribeBodies(gpuCells, gpuBodies));
    for (std::size_t c = 0; c < cells.size(); ++c) {
        EXPECT_EQ(gpuCells[c].begin, cells[c].begin) << "cell " << c;
        EXPECT_EQ(gpuCells[c].end, cells[c].end) << "cell " << c;
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_EQ(gpuCells[c].lower[axis], cells[c].lower[axis]) << "cell " << c;
            EXPECT_EQ(gpuCells[c].upper[axis], cells[c].upper[axis]) << "cell " << c;
        }
    }
    EXPECT_EQ(labelsByDomain(gpuCells, gpuBodies), labelsByDomain(cells, bodies));
}

TEST_F(OrbMigrationGpu, TheBackendKeepsEveryBodyOnceThroughA1000StepCollapse) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    Bodies cube = generateScenario("cold-cube", 20000, seed);
    labelBodiesByIndex(cube);
    SimParams params;
    params.scenario = "cold-cube";
    params.bodyCount = cube.size();
    params.solver = "tree";
    params.timeStep = 0.005;
    params.orb.domainCount = 200;
    params.orb.rebuildInterval = 300;
    params.orb.imbalanceLimit = 100; // only the interval rebuilds: migration must carry the collapse
    CudaBackend withOrb, without;
    withOrb.load(cube);
    without.load(cube);
    const std::uint64_t migrated = test::expectDomainsKeepEveryBodyOnce(withOrb, without, params, 1000, 50);
    EXPECT_EQ(withOrb.visuals().orbStatus().rebuilds, 4u); // steps 1, 301, 601 and 901
    EXPECT_GT(migrated, cube.size() / 10) << "the collapse must move bodies across cells";
}

} // namespace
} // namespace gravlab::gputest
