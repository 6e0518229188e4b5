// The GPU ORB against the CPU reference: the same bodies through OrbCpu and OrbGpu give the same cells (ranges,
// domains, axes, cuts) and the same set of bodies in every leaf; the cells' own invariants hold for the GPU result.
#include "GpuTestSupport.hpp"

#include <OrbCpu.hpp>
#include <OrbGpu.hpp>
#include <SimParams.hpp>
#include <array>

namespace gravlab::gputest {
namespace {

using BodyRecord = std::array<float, 8>;

const std::vector<float>& along(const Bodies& bodies, int axis) {
    return axis == 0 ? bodies.x : axis == 1 ? bodies.y : bodies.z;
}

std::vector<BodyRecord> leafRecords(const Bodies& bodies, const OrbCell& leaf) {
    std::vector<BodyRecord> records;
    for (std::uint32_t i = leaf.begin; i < leaf.end; ++i)
        records.push_back({bodies.x[i], bodies.y[i], bodies.z[i], bodies.vx[i], bodies.vy[i], bodies.vz[i],
                           bodies.mass[i], bodies.colorKey[i]});
    std::sort(records.begin(), records.end());
    return records;
}

/// Every inner cell's cut lies between the largest coordinate of its left child's bodies and the smallest of its
/// right child's, and the children tile the parent.
void expectValidCuts(const std::vector<OrbCell>& cells, const Bodies& bodies, const char* who) {
    SCOPED_TRACE(who);
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const OrbCell& parent = cells[c];
        if (parent.isLeaf())
            continue;
        const OrbCell& left = cells[std::size_t(parent.leftChild)];
        const OrbCell& right = cells[std::size_t(parent.leftChild) + 1];
        const int axis = parent.cutAxis;
        ASSERT_EQ(axis, longestAxis(parent)) << "cell " << c;
        const float cut = left.upper[axis];
        EXPECT_EQ(cut, right.lower[axis]) << "cell " << c;
        for (int other = 0; other < 3; ++other) {
            EXPECT_EQ(left.lower[other], parent.lower[other]) << "cell " << c;
            EXPECT_EQ(right.upper[other], parent.upper[other]) << "cell " << c;
            if (other != axis) {
                EXPECT_EQ(left.upper[other], parent.upper[other]) << "cell " << c;
                EXPECT_EQ(right.lower[other], parent.lower[other]) << "cell " << c;
            }
        }
        EXPECT_EQ(left.begin, parent.begin);
        EXPECT_EQ(left.end, right.begin);
        EXPECT_EQ(right.end, parent.end);
        const std::vector<float>& coordinate = along(bodies, axis);
        const float largestLeft = *std::max_element(coordinate.begin() + left.begin, coordinate.begin() + left.end);
        const float smallestRight = *std::min_element(coordinate.begin() + right.begin, coordinate.begin() + right.end);
        EXPECT_LE(largestLeft, cut) << "cell " << c;
        EXPECT_LE(cut, smallestRight) << "cell " << c;
    }
    for (const OrbCell& cell : cells)
        if (cell.isLeaf())
            for (std::uint32_t i = cell.begin; i < cell.end; ++i)
                for (int axis = 0; axis < 3; ++axis) {
                    EXPECT_LE(cell.lower[axis], along(bodies, axis)[i]);
                    EXPECT_LE(along(bodies, axis)[i], cell.upper[axis]);
                }
}

void expectSameAsCpu(const Bodies& input, std::uint32_t domainCount, OrbCutFinder finder) {
    SCOPED_TRACE("np = " + std::to_string(domainCount) + ", N = " + std::to_string(input.size()) + ", cut finder " +
                 (finder == OrbCutFinder::RadixSelect ? "radix select" : "bisection"));
    Bodies cpuBodies = input;
    OrbCpu cpu;
    cpu.build(cpuBodies, domainCount);

    CudaStream stream;
    DeviceBodies device;
    uploadBodies(input, device, stream.get());
    OrbGpu gpu(finder);
    gpu.build(device, domainCount, stream.get());
    const std::vector<OrbCell> cells = gpu.downloadCells(stream.get());
    Bodies gpuBodies;
    downloadBodies(device, gpuBodies, stream.get());

    const std::vector<OrbCell>& reference = cpu.cells();
    ASSERT_EQ(cells.size(), reference.size());
    EXPECT_EQ(gpu.levelBegin(), cpu.levelBegin());
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const OrbCell& a = cells[c];
        const OrbCell& b = reference[c];
        EXPECT_EQ(a.begin, b.begin) << "cell " << c;
        EXPECT_EQ(a.end, b.end) << "cell " << c;
        EXPECT_EQ(a.leftChild, b.leftChild) << "cell " << c;
        EXPECT_EQ(a.cutAxis, b.cutAxis) << "cell " << c;
        EXPECT_EQ(a.firstDomain, b.firstDomain) << "cell " << c;
        EXPECT_EQ(a.domainCount, b.domainCount) << "cell " << c;
        // Same bodies on each side and the same midpoint formula: the cuts agree exactly (+0 == -0 included).
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_EQ(a.lower[axis], b.lower[axis]) << "cell " << c << " axis " << axis;
            EXPECT_EQ(a.upper[axis], b.upper[axis]) << "cell " << c << " axis " << axis;
        }
        if (a.isLeaf() && b.isLeaf() && a.begin == b.begin && a.end == b.end) {
            EXPECT_EQ(leafRecords(gpuBodies, a), leafRecords(cpuBodies, b)) << "leaf " << c;
        }
    }
    expectValidCuts(cells, gpuBodies, "GPU");
    expectValidCuts(reference, cpuBodies, "CPU");
}

/// Both cut finders must give exactly the CPU reference's cells.
void expectSameAsCpu(const Bodies& input, std::uint32_t domainCount) {
    for (OrbCutFinder finder : {OrbCutFinder::RadixSelect, OrbCutFinder::Bisection})
        expectSameAsCpu(input, domainCount, finder);
}

class OrbGpuTest : public CudaDeviceTest {};

TEST_F(OrbGpuTest, MatchesCpuOnRandomBodies) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(5000, random);
    for (std::uint32_t domains : {1u, 2u, 3u, 7u, 1000u})
        expectSameAsCpu(bodies, domains);
}

TEST_F(OrbGpuTest, MatchesCpuWhenDomainsEqualBodies) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    expectSameAsCpu(randomBall(7, random), 7);
    expectSameAsCpu(randomBall(1, random), 1);
}

/// Bodies on a 4 x 4 x 4 lattice of integer points, about 30 per point, with signed zeros: almost every cut falls on
/// a plane holding hundreds of bodies, so the index tie-break decides the balance.
TEST_F(OrbGpuTest, MatchesCpuOnTieHeavyLattice) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(2000, random);
    std::uniform_int_distribution<int> point(-1, 2);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        bodies.x[i] = float(point(random));
        bodies.y[i] = float(point(random));
        bodies.z[i] = i % 3 == 0 ? -0.0f : float(point(random));
    }
    for (std::uint32_t domains : {2u, 3u, 7u, 64u, 1000u})
        expectSameAsCpu(bodies, domains);
}

TEST_F(OrbGpuTest, RefusesMoreDomainsThanBodies) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(10, random);
    CudaStream stream;
    DeviceBodies device;
    uploadBodies(bodies, device, stream.get());
    OrbGpu gpu;
    EXPECT_THROW(gpu.build(device, 11, stream.get()), InvalidParameterError);
    EXPECT_THROW(gpu.build(device, 0, stream.get()), InvalidParameterError);
    Bodies after;
    downloadBodies(device, after, stream.get());
    EXPECT_EQ(after.x, bodies.x);
}

TEST_F(OrbGpuTest, RefusesNonFinitePositions) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(100, random);
    bodies.y[37] = NAN;
    CudaStream stream;
    DeviceBodies device;
    uploadBodies(bodies, device, stream.get());
    OrbGpu gpu;
    EXPECT_THROW(gpu.build(device, 4, stream.get()), std::invalid_argument);
}

} // namespace
} // namespace gravlab::gputest
