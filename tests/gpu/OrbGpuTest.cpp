// The GPU ORB against independent references. Count balance: the same bodies through OrbCpu and OrbGpu give the same
// cells (ranges, domains, axes, cuts) and the same set of bodies in every leaf, for the full build and the
// positions-only build. Work balance (not bit-identical to OrbCpu by design): the cells' invariants and Orb.hpp's
// bound, every leaf weight within one largest body weight of W / np, with every body moved whole (all three arrays
// and its weight together). Imbalance: against sums over the downloaded leaves. Errors leave the bodies untouched.
#include "orb/cuda/OrbGpu.hpp"

#include "GpuTestSupport.hpp"
#include "orb/OrbCpu.hpp"

#include <gravlab/sim/SimParams.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>

namespace gravlab::gputest {
namespace {

using BodyRecord = std::array<float, 8>;

/// How a GPU build finds its cuts: the cut finder and, for radix select, how the scatter learns its tile offsets, and
/// how many blocks walk the tiles of the kernels that most splits skip (0: as many as the device holds).
struct OrbMethod {
    OrbCutFinder finder;
    OrbTileOffsets offsets;
    std::uint32_t chunkedBlocks = 0;
    std::string name() const {
        if (finder == OrbCutFinder::Bisection)
            return "bisection";
        std::string name = offsets == OrbTileOffsets::FromLastPass
                               ? "radix select, offsets from the last pass, children's first pass in the scatter"
                               : "radix select, offsets by look-back";
        if (chunkedBlocks > 0)
            name += ", first and count passes walked by " + std::to_string(chunkedBlocks) + " blocks";
        return name;
    }
    OrbGpu gpu() const { return OrbGpu(finder, offsets, chunkedBlocks); }
};
/// Both ways to the scatter's offsets are forced, whatever the size: Automatic picks by the level's tile count. With
/// offsets from the last pass the cuts are placed before the scatter, which then also takes the children's first radix
/// pass, so every test run under both methods checks that path against its reference too. The first pass below the
/// root and the count pass walk chunks of tiles, one tile per block where the level's tiles fit the device at once,
/// as they do on small inputs; three blocks make them walk chunks of many tiles and several splits.
constexpr std::array<OrbMethod, 4> kRadixMethods = {
    OrbMethod{OrbCutFinder::RadixSelect, OrbTileOffsets::FromLastPass},
    OrbMethod{OrbCutFinder::RadixSelect, OrbTileOffsets::LookBack},
    OrbMethod{OrbCutFinder::RadixSelect, OrbTileOffsets::FromLastPass, 3},
    OrbMethod{OrbCutFinder::RadixSelect, OrbTileOffsets::LookBack, 3}};
constexpr std::array<OrbMethod, 5> kAllMethods = {kRadixMethods[0], kRadixMethods[1], kRadixMethods[2],
                                                  kRadixMethods[3],
                                                  OrbMethod{OrbCutFinder::Bisection, OrbTileOffsets::Automatic}};
/// Offsets from the last pass, whose selection decides work balance's ties from the match slots (and the count pass
/// where they overflow), with one tile per block and in chunks.
constexpr std::array<OrbMethod, 2> kFromLastPass = {kRadixMethods[0], kRadixMethods[2]};

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
        if (left.begin == left.end || right.begin == right.end)
            continue; // work balance may leave a side empty; the cut is then the parent's corner
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

/// acceleration = (original index, 0, 0, weight) per body: after a build, x tells where each body came from.
void uploadIndexAndWeights(DeviceBodies& device, const std::vector<float>& weights, cudaStream_t stream) {
    std::vector<float4> acceleration(weights.size());
    for (std::size_t i = 0; i < weights.size(); ++i)
        acceleration[i] = float4{float(i), 0.0f, 0.0f, weights[i]};
    device.acceleration.upload(acceleration, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
}

std::vector<float4> downloadAcceleration(const DeviceBodies& device, cudaStream_t stream) {
    std::vector<float4> acceleration(device.size());
    device.acceleration.download(acceleration, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return acceleration;
}

/// After a build, with acceleration = (original index, 0, 0, weight) uploaded before it: every body appears once and
/// every array of it (position, velocity, mass, colour, id, weight and, when present, the low parts) moved with it.
void expectEveryBodyWhole(const Bodies& input, const std::vector<float>& weights, const Bodies& moved,
                          const std::vector<float4>& acceleration) {
    const std::size_t count = input.size();
    const auto movedStates = pairedArrays(moved), inputStates = pairedArrays(input);
    const auto movedLows = lowPartArrays(moved), inputLows = lowPartArrays(input);
    std::vector<bool> seen(count, false);
    for (std::size_t j = 0; j < count; ++j) {
        const std::size_t origin = std::size_t(acceleration[j].x);
        ASSERT_LT(origin, count) << "position " << j;
        ASSERT_FALSE(seen[origin]) << "body " << origin << " appears twice";
        seen[origin] = true;
        for (std::size_t k = 0; k < movedStates.size(); ++k) {
            ASSERT_EQ((*movedStates[k])[j], (*inputStates[k])[origin]) << "body " << origin << ", array " << k;
            if (input.hasLowParts()) {
                ASSERT_EQ((*movedLows[k])[j], (*inputLows[k])[origin]) << "body " << origin << ", low part " << k;
            }
        }
        ASSERT_EQ(moved.mass[j], input.mass[origin]);
        ASSERT_EQ(moved.colorKey[j], input.colorKey[origin]);
        ASSERT_EQ(moved.id[j], input.id[origin]);
        ASSERT_EQ(acceleration[j].w, weights[origin]);
    }
}

/// The same cells, cut for cut: ranges and boxes.
void expectSameCells(const std::vector<OrbCell>& actual, const std::vector<OrbCell>& expected) {
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t c = 0; c < actual.size(); ++c) {
        const OrbCell &a = actual[c], &b = expected[c];
        EXPECT_EQ(a.begin, b.begin) << "cell " << c;
        EXPECT_EQ(a.end, b.end) << "cell " << c;
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_EQ(a.lower[axis], b.lower[axis]) << "cell " << c << " axis " << axis;
            EXPECT_EQ(a.upper[axis], b.upper[axis]) << "cell " << c << " axis " << axis;
        }
    }
}

/// balance Work is only used here with all-zero weights, which must fall back to count balance.
void expectSameAsCpu(const Bodies& input, std::uint32_t domainCount, const OrbMethod& method,
                     OrbBalance balance = OrbBalance::Count) {
    SCOPED_TRACE("np = " + std::to_string(domainCount) + ", N = " + std::to_string(input.size()) + ", " +
                 method.name());
    Bodies cpuBodies = input;
    OrbCpu cpu;
    cpu.build(cpuBodies, domainCount);

    CudaStream stream;
    DeviceBodies device;
    uploadBodies(input, device, stream.get());
    uploadIndexAndWeights(device, std::vector<float>(input.size(), 0.0f), stream.get());
    OrbGpu gpu = method.gpu();
    gpu.build(device, domainCount, balance, stream.get());
    const std::vector<OrbCell> cells = gpu.downloadCells(stream.get());
    Bodies gpuBodies;
    downloadBodies(device, gpuBodies, stream.get());

    const std::vector<OrbCell>& reference = cpu.cells();
    ASSERT_EQ(cells.size(), reference.size());
    EXPECT_EQ(gpu.levelBegin(), cpu.levelBegin());
    // Same bodies on each side and the same midpoint formula: the cuts agree exactly (+0 == -0 included).
    expectSameCells(cells, reference);
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const OrbCell& a = cells[c];
        const OrbCell& b = reference[c];
        EXPECT_EQ(a.leftChild, b.leftChild) << "cell " << c;
        EXPECT_EQ(a.cutAxis, b.cutAxis) << "cell " << c;
        EXPECT_EQ(a.firstDomain, b.firstDomain) << "cell " << c;
        EXPECT_EQ(a.domainCount, b.domainCount) << "cell " << c;
        if (a.isLeaf() && b.isLeaf() && a.begin == b.begin && a.end == b.end) {
            EXPECT_EQ(leafRecords(gpuBodies, a), leafRecords(cpuBodies, b)) << "leaf " << c;
        }
    }
    // Count balance, or work balance with every weight 0: what was balanced is the count of the CPU's leaves.
    const OrbGpu::DomainLoads loads = gpu.domainLoads(stream.get());
    EXPECT_FALSE(loads.weighted);
    ASSERT_EQ(loads.bodies.size(), domainCount);
    for (const OrbCell& leaf : reference)
        if (leaf.isLeaf()) {
            EXPECT_EQ(loads.bodies[leaf.firstDomain], double(leaf.bodyCount())) << "domain " << leaf.firstDomain;
            EXPECT_EQ(loads.weights[leaf.firstDomain], double(leaf.bodyCount())) << "domain " << leaf.firstDomain;
        }
    expectValidCuts(cells, gpuBodies, "GPU");
    expectValidCuts(reference, cpuBodies, "CPU");
}

/// Every method must give exactly the CPU reference's cells.
void expectSameAsCpu(const Bodies& input, std::uint32_t domainCount) {
    for (const OrbMethod& method : kAllMethods)
        expectSameAsCpu(input, domainCount, method);
}

/// Work balance: every body moved whole (its three arrays and its weight together), the same tree shape as OrbCpu's,
/// the cells' invariants, leaves in domain order tiling [0, N), and Orb.hpp's bound: every leaf weight within one
/// largest body weight of W / np (plus 1e-9 W for the fixed-point weights and the double sums here).
void expectWorkBalanced(const Bodies& input, const std::vector<float>& weights, std::uint32_t domainCount,
                        const OrbMethod& method) {
    SCOPED_TRACE("work balance, np = " + std::to_string(domainCount) + ", N = " + std::to_string(input.size()) + ", " +
                 method.name());
    const std::size_t count = input.size();
    CudaStream stream;
    DeviceBodies device;
    uploadBodies(input, device, stream.get());
    uploadIndexAndWeights(device, weights, stream.get());
    OrbGpu gpu = method.gpu();
    gpu.build(device, domainCount, OrbBalance::Work, stream.get());
    const std::vector<OrbCell> cells = gpu.downloadCells(stream.get());
    Bodies moved;
    downloadBodies(device, moved, stream.get());
    const std::vector<float4> acceleration = downloadAcceleration(device, stream.get());

    ASSERT_NO_FATAL_FAILURE(expectEveryBodyWhole(input, weights, moved, acceleration));

    Bodies cpuBodies = input;
    OrbCpu shape;
    shape.build(cpuBodies, domainCount);
    ASSERT_EQ(cells.size(), shape.cells().size());
    EXPECT_EQ(gpu.levelBegin(), shape.levelBegin());
    for (std::size_t c = 0; c < cells.size(); ++c) {
        EXPECT_EQ(cells[c].leftChild, shape.cells()[c].leftChild) << "cell " << c;
        EXPECT_EQ(cells[c].firstDomain, shape.cells()[c].firstDomain) << "cell " << c;
        EXPECT_EQ(cells[c].domainCount, shape.cells()[c].domainCount) << "cell " << c;
    }
    EXPECT_EQ(cells[0].begin, 0u);
    EXPECT_EQ(cells[0].end, count);
    expectValidCuts(cells, moved, "GPU, work balance");

    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    const double largest = *std::max_element(weights.begin(), weights.end());
    std::vector<const OrbCell*> leaves(domainCount, nullptr);
    for (const OrbCell& cell : cells)
        if (cell.isLeaf())
            leaves[cell.firstDomain] = &cell;
    // The loads the build reports from its own fixed-point sums, against the weights summed here.
    const OrbGpu::DomainLoads loads = gpu.domainLoads(stream.get());
    EXPECT_TRUE(loads.weighted);
    ASSERT_EQ(loads.weights.size(), domainCount);
    std::uint32_t next = 0;
    for (std::uint32_t domain = 0; domain < domainCount; ++domain) {
        ASSERT_NE(leaves[domain], nullptr) << "domain " << domain;
        EXPECT_EQ(leaves[domain]->begin, next) << "domain " << domain;
        next = leaves[domain]->end;
        double weight = 0;
        for (std::uint32_t i = leaves[domain]->begin; i < leaves[domain]->end; ++i)
            weight += acceleration[i].w;
        EXPECT_NEAR(weight, total / domainCount, largest + 1e-9 * total) << "domain " << domain;
        EXPECT_NEAR(loads.weights[domain], weight, 1e-9 * total) << "domain " << domain;
        EXPECT_EQ(loads.bodies[domain], double(leaves[domain]->bodyCount())) << "domain " << domain;
    }
    EXPECT_EQ(next, count);
}

void expectWorkBalanced(const Bodies& input, const std::vector<float>& weights, std::uint32_t domainCount) {
    for (const OrbMethod& method : kAllMethods)
        expectWorkBalanced(input, weights, domainCount, method);
}

/// One work-balanced build of these weighted bodies: its cells, and whether its radix passes summed the weights in 32
/// bits (integers below 2^20 at one scale).
struct WorkBuild {
    std::vector<OrbCell> cells;
    bool summedNarrow = false;
};
WorkBuild buildWorkBalanced(const Bodies& input, const std::vector<float>& weights, std::uint32_t domainCount,
                            OrbMethod method = {OrbCutFinder::RadixSelect, OrbTileOffsets::Automatic}) {
    CudaStream stream;
    DeviceBodies device;
    uploadBodies(input, device, stream.get());
    uploadIndexAndWeights(device, weights, stream.get());
    OrbGpu gpu = method.gpu();
    gpu.build(device, domainCount, OrbBalance::Work, stream.get());
    return {gpu.downloadCells(stream.get()), gpu.lastBuildSummedNarrowWeights()};
}

/// Work balance by radix select (this method) and by bisection, whose 64-bit sums and count pass are the reference:
/// the same cells, cut for cut. Returns both builds for further checks.
struct RadixAndBisection {
    WorkBuild radix, bisection;
};
RadixAndBisection
expectRadixCellsOfBisection(const Bodies& bodies, const std::vector<float>& weights, std::uint32_t domainCount,
                            OrbMethod radix = {OrbCutFinder::RadixSelect, OrbTileOffsets::Automatic}) {
    SCOPED_TRACE("np = " + std::to_string(domainCount) + ", " + radix.name());
    RadixAndBisection builds{
        buildWorkBalanced(bodies, weights, domainCount, radix),
        buildWorkBalanced(bodies, weights, domainCount, {OrbCutFinder::Bisection, OrbTileOffsets::Automatic})};
    expectSameCells(builds.radix.cells, builds.bisection.cells);
    return builds;
}

/// Work balance on bodies weighted uniformly in [0, 10) (fractions, so summed in 64-bit fixed point) into 64 domains,
/// under each radix-select method.
void expectWorkBalancedUnderUniformWeights(const Bodies& bodies, std::mt19937_64& random) {
    std::uniform_real_distribution<float> weight(0.0f, 10.0f);
    std::vector<float> weights(bodies.size());
    for (float& w : weights)
        w = weight(random);
    for (const OrbMethod& method : kRadixMethods)
        expectWorkBalanced(bodies, weights, 64, method);
}

/// Work balance over a fresh random ball of bodyCount bodies weighted by weightOf(index, random), into each of
/// domainCounts; and whether the radix passes summed those weights in 32 bits must be summedIn32Bits.
template <typename WeightOf>
void expectWorkBalancedOnRandomBall(std::size_t bodyCount, WeightOf&& weightOf,
                                    std::initializer_list<std::uint32_t> domainCounts, bool summedIn32Bits) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(bodyCount, random);
    std::vector<float> weights(bodies.size());
    for (std::size_t i = 0; i < weights.size(); ++i)
        weights[i] = weightOf(i, random);
    for (std::uint32_t domains : domainCounts)
        expectWorkBalanced(bodies, weights, domains);
    EXPECT_EQ(buildWorkBalanced(bodies, weights, 64).summedNarrow, summedIn32Bits);
}

Bodies allArrays(const DeviceBodies& device, cudaStream_t stream) {
    Bodies bodies;
    downloadBodies(device, bodies, stream);
    return bodies;
}

/// Bit for bit, so that a NaN left in place compares equal to itself.
void expectSameBodies(const Bodies& a, const Bodies& b) {
    const auto sameBits = [](const std::vector<float>& u, const std::vector<float>& v) {
        return u.size() == v.size() && std::memcmp(u.data(), v.data(), u.size() * sizeof(float)) == 0;
    };
    EXPECT_TRUE(sameBits(a.x, b.x));
    EXPECT_TRUE(sameBits(a.y, b.y));
    EXPECT_TRUE(sameBits(a.z, b.z));
    EXPECT_TRUE(sameBits(a.vx, b.vx));
    EXPECT_TRUE(sameBits(a.vy, b.vy));
    EXPECT_TRUE(sameBits(a.vz, b.vz));
    EXPECT_TRUE(sameBits(a.mass, b.mass));
    EXPECT_TRUE(sameBits(a.colorKey, b.colorKey));
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

/// Radix select measures keys from each cell's lower side and takes as few passes as the cell's key range needs: a box
/// just across 1.0 on x (18 bits: two passes, though the keys of 0.99 and 1.01 share only 8 leading bits), a few
/// hundred units in the last place of 3.0 on y (one pass), and a thin slab across 0 on z (32 bits), with ties on y.
TEST_F(OrbGpuTest, MatchesCpuOnNarrowKeyRanges) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(6000, random);
    std::uniform_real_distribution<float> acrossOne(0.99f, 1.01f), acrossZero(-1e-3f, 1e-3f);
    std::uniform_int_distribution<int> ulps(-200, 200);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        bodies.x[i] = acrossOne(random);
        const int units = ulps(random);
        bodies.y[i] = 3.0f;
        for (int step = 0; step < std::abs(units); ++step)
            bodies.y[i] = std::nextafter(bodies.y[i], units < 0 ? 0.0f : 4.0f);
        bodies.z[i] = acrossZero(random);
    }
    for (std::uint32_t domains : {2u, 7u, 64u, 1000u})
        expectSameAsCpu(bodies, domains);
    expectWorkBalancedUnderUniformWeights(bodies, random);
}

/// A child whose longest side the scatter mispredicts. The scatter counts the children's first digits along the longest
/// side of each child's box with the cut at the pivot, but the cut lies halfway between the pivot and the largest key
/// below it. The root (x in [0, 2], y in [0, 0.9], z in [0, 0.1]) is cut at x = 0.75, between the left half of the
/// bodies (x in [0, 0.5]) and the right half (x from 1.0, the pivot, to 2.0): with the cut at the pivot the left
/// child's longest side would be x (1.0 against 0.9), but it is y (0.75 against 0.9). That child takes its own first
/// pass, its sibling the scatter's; the cells must still be the CPU's. Where the scatter looks back, a fresh builder
/// launches no first pass below the root, so its first build is void and runs again with them; the next expects them.
TEST_F(OrbGpuTest, MatchesCpuWhenTheCutChangesAChildsLongestSide) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(40000, random);
    std::uniform_real_distribution<float> leftX(0.0f, 0.5f), rightX(1.0f, 2.0f), across(0.0f, 0.9f), thin(0.0f, 0.1f);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        bodies.x[i] = i % 2 == 0 ? leftX(random) : rightX(random);
        bodies.y[i] = across(random);
        bodies.z[i] = thin(random);
    }
    // The extremes: the boxes, the largest left x and the pivot (the smallest right x).
    bodies.x[0] = 0.0f;
    bodies.x[2] = 0.5f;
    bodies.x[1] = 1.0f;
    bodies.x[3] = 2.0f;
    bodies.y[0] = 0.0f;
    bodies.y[2] = 0.9f;
    Bodies cpuBodies = bodies;
    OrbCpu cpu;
    cpu.build(cpuBodies, 4);
    ASSERT_EQ(cpu.cells()[0].cutAxis, 0);
    ASSERT_EQ(cpu.cells()[1].upper[0], 0.75f);
    ASSERT_EQ(cpu.cells()[1].cutAxis, 1) << "the left child's longest side should be y once the cut is placed";
    for (const OrbMethod& method : kRadixMethods)
        for (std::uint32_t domains : {4u, 7u, 64u})
            expectSameAsCpu(bodies, domains, method);
    expectWorkBalancedUnderUniformWeights(bodies, random);
    CudaStream stream;
    DeviceBodies device;
    uploadBodies(bodies, device, stream.get());
    OrbGpu gpu = kRadixMethods[1].gpu();
    for (const bool ranAgain : {true, false}) {
        gpu.build(device, 4, OrbBalance::Count, stream.get());
        EXPECT_EQ(gpu.lastBuildRanAgain(), ranAgain);
        expectSameCells(gpu.downloadCells(stream.get()), cpu.cells());
    }
}

/// 400,000 bodies: 98 tiles in the root cell, so a tile's look-back for the counts of the tiles before it spans up to
/// four windows of 32, and most splits hold tens of tiles; cells, leaves and the work bound as on the small inputs.
/// Two balls: one about the origin, whose key range spans both signs (all 32 bits), and one in [2.5, 3.5]^3, whose
/// range lies in one power of two (23 bits, so the last pass fixes a single bit).
TEST_F(OrbGpuTest, MatchesCpuWithManyTilesPerCell) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    for (const float offset : {0.0f, 3.0f}) {
        SCOPED_TRACE("ball centre " + std::to_string(offset));
        Bodies bodies = randomBall(400000, random, offset > 0 ? 0.5 : 1.0);
        for (std::vector<float>* axis : {&bodies.x, &bodies.y, &bodies.z})
            for (float& coordinate : *axis)
                coordinate += offset;
        for (const OrbMethod& method : kRadixMethods)
            for (std::uint32_t domains : {3u, 64u})
                expectSameAsCpu(bodies, domains, method);
        expectWorkBalancedUnderUniformWeights(bodies, random);
    }
}

/// Ties with the root's pivot spread over its 98 tiles: 400,000 bodies stretched along x, every k-th of them moved onto
/// the plane x = 0, where the root's median falls, so the index order splits the ties across tiles. With k = 200 each
/// tile holds about 20 of them, which its slots for the last pass's matches take (offsets from the last pass); with
/// k = 50 about 80, which they do not (the scatter looks back instead).
TEST_F(OrbGpuTest, MatchesCpuWithTiesSpreadOverTiles) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    for (const std::size_t every : {200u, 50u}) {
        SCOPED_TRACE("every " + std::to_string(every) + "th body on x = 0");
        Bodies bodies = randomBall(400000, random);
        for (std::size_t i = 0; i < bodies.size(); ++i)
            bodies.x[i] = i % every == 0 ? 0.0f : 3.0f * bodies.x[i];
        for (const OrbMethod& method : kRadixMethods)
            for (std::uint32_t domains : {2u, 3u, 64u})
                expectSameAsCpu(bodies, domains, method);
    }
}

/// One OrbGpu rebuilding the same device bodies again and again, under both balances and several domain counts, in
/// single and double precision: each build gathers every body array into the buffer another array left, and the
/// buffers change owners afterwards, so over the builds every array passes through every buffer (and every cached
/// graph runs). After each build every body must still be whole (all its arrays, low parts and id together, traced
/// by its original index in acceleration.x) and the count-balanced cells must be OrbCpu's.
TEST_F(OrbGpuTest, RepeatedBuildsKeepEveryBodyWhole) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    for (const bool doublePrecision : {false, true}) {
        SCOPED_TRACE(doublePrecision ? "double precision" : "single precision");
        Bodies input = randomBall(20000, random);
        std::uniform_real_distribution<float> small(-1e-8f, 1e-8f);
        for (std::size_t i = 0; i < input.size(); ++i) {
            input.id[i] = 1000000 + 7 * i;
            if (doublePrecision)
                for (std::vector<float>* low : lowPartArrays(input))
                    low->push_back(small(random));
        }
        std::vector<float> weights(input.size());
        for (float& w : weights)
            w = 1.0f + float(random() % 100);
        CudaStream stream;
        DeviceBodies device;
        uploadBodies(input, device, stream.get());
        uploadIndexAndWeights(device, weights, stream.get());
        OrbGpu gpu;
        const std::uint32_t domainCounts[] = {7, 64, 7, 3};
        for (int build = 0; build < 10; ++build) {
            const std::uint32_t domains = domainCounts[build % 4];
            const OrbBalance balance = build % 3 == 2 ? OrbBalance::Work : OrbBalance::Count;
            SCOPED_TRACE("build " + std::to_string(build) + ", np = " + std::to_string(domains));
            gpu.build(device, domains, balance, stream.get());
            Bodies moved;
            downloadBodies(device, moved, stream.get());
            const std::vector<float4> acceleration = downloadAcceleration(device, stream.get());
            ASSERT_EQ(moved.hasLowParts(), doublePrecision);
            ASSERT_NO_FATAL_FAILURE(expectEveryBodyWhole(input, weights, moved, acceleration));
            if (balance == OrbBalance::Count) {
                Bodies cpuBodies = input;
                OrbCpu cpu;
                cpu.build(cpuBodies, domains);
                const std::vector<OrbCell> cells = gpu.downloadCells(stream.get());
                ASSERT_EQ(cells.size(), cpu.cells().size());
                for (std::size_t c = 0; c < cells.size(); ++c) {
                    EXPECT_EQ(cells[c].end, cpu.cells()[c].end) << "cell " << c;
                    EXPECT_EQ(cells[c].upper[0], cpu.cells()[c].upper[0]) << "cell " << c;
                    EXPECT_EQ(cells[c].lower[1], cpu.cells()[c].lower[1]) << "cell " << c;
                }
            }
        }
    }
}

/// One builder on the same bodies and domain count, build after build, alternating what the scatters take: under
/// count balance and narrow weights each scatter takes its children's first pass and marks them
/// (OrbSplit::preselected); under fractional weights none does, so such a build must find no mark that the build before
/// left. Each build's cells must be a fresh build's on the same bodies: OrbCpu's under count balance, bisection's under
/// work balance.
TEST_F(OrbGpuTest, OneBuilderAlternatingBalancesAndWeightsMatchesFreshBuilds) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies input = randomBall(30000, random);
    std::vector<float> narrow(input.size()), fractional(input.size());
    std::uniform_real_distribution<float> fraction(0.0f, 10.0f);
    for (std::size_t i = 0; i < input.size(); ++i) {
        narrow[i] = 1.0f + float(random() % 100);
        fractional[i] = fraction(random);
    }
    struct Build {
        OrbBalance balance;
        const std::vector<float>* weights;
    };
    const Build builds[] = {{OrbBalance::Count, &narrow},
                            {OrbBalance::Work, &fractional},
                            {OrbBalance::Work, &narrow},
                            {OrbBalance::Work, &fractional},
                            {OrbBalance::Count, &narrow}};
    const OrbMethod bisection{OrbCutFinder::Bisection, OrbTileOffsets::Automatic};
    for (const OrbMethod& method : kRadixMethods) {
        SCOPED_TRACE(method.name());
        CudaStream stream;
        DeviceBodies device;
        uploadBodies(input, device, stream.get());
        OrbGpu gpu = method.gpu();
        for (std::size_t b = 0; b < std::size(builds); ++b) {
            SCOPED_TRACE("build " + std::to_string(b));
            // The weights go to the bodies in the order the build before left them, as the reference gets them.
            uploadIndexAndWeights(device, *builds[b].weights, stream.get());
            const Bodies current = allArrays(device, stream.get());
            gpu.build(device, 64, builds[b].balance, stream.get());
            const std::vector<OrbCell> cells = gpu.downloadCells(stream.get());
            if (builds[b].balance == OrbBalance::Count) {
                Bodies cpuBodies = current;
                OrbCpu cpu;
                cpu.build(cpuBodies, 64);
                expectSameCells(cells, cpu.cells());
            } else {
                expectSameCells(cells, buildWorkBalanced(current, *builds[b].weights, 64, bisection).cells);
            }
        }
    }
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
    uploadIndexAndWeights(device, std::vector<float>(bodies.size(), 1.0f), stream.get());
    const std::vector<float4> accelerationBefore = downloadAcceleration(device, stream.get());
    OrbGpu gpu;
    EXPECT_THROW(gpu.build(device, 4, stream.get()), std::invalid_argument);
    EXPECT_THROW(gpu.build(device, 4, OrbBalance::Work, stream.get()), std::invalid_argument);
    expectSameBodies(allArrays(device, stream.get()), bodies);
    const std::vector<float4> accelerationAfter = downloadAcceleration(device, stream.get());
    for (std::size_t i = 0; i < bodies.size(); ++i)
        EXPECT_EQ(accelerationAfter[i].x, accelerationBefore[i].x) << "body " << i;
}

TEST_F(OrbGpuTest, RefusesInvalidWeightsUnderWorkBalance) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(3000, random);
    for (const float bad : {-1.0f, NAN, INFINITY}) {
        std::vector<float> weights(bodies.size(), 1.0f);
        weights[1234] = bad;
        CudaStream stream;
        DeviceBodies device;
        uploadBodies(bodies, device, stream.get());
        uploadIndexAndWeights(device, weights, stream.get());
        OrbGpu gpu;
        EXPECT_THROW(gpu.build(device, 16, OrbBalance::Work, stream.get()), std::invalid_argument) << bad;
        expectSameBodies(allArrays(device, stream.get()), bodies);
        // Count balance ignores the weights.
        EXPECT_NO_THROW(gpu.build(device, 16, OrbBalance::Count, stream.get()));
    }
}

TEST_F(OrbGpuTest, WorkBalanceWithRandomWeights) {
    std::exponential_distribution<float> interactions(1.0f);
    // Random floats have digits far below the point: the radix passes need their 64-bit sums.
    expectWorkBalancedOnRandomBall(
        20000, [&](std::size_t, std::mt19937_64& random) { return interactions(random); }, {2u, 3u, 7u, 64u, 1000u},
        false);
}

/// Integer weights (interaction counts, as the force solvers report them) are summed in 32 bits by the radix passes;
/// the cuts must keep the same bound, over cells of many tiles and of one.
TEST_F(OrbGpuTest, WorkBalanceWithIntegerInteractionCounts) {
    std::uniform_int_distribution<int> interactions(1, 5000);
    expectWorkBalancedOnRandomBall(
        50000, [&](std::size_t, std::mt19937_64& random) { return float(interactions(random)); }, {3u, 64u, 1000u},
        true);
}

/// The 32-bit sums, shifted into fixed point, are the 64-bit sums exactly: radix select on integer weights (the 32-bit
/// path) must give the cells that bisection (always 64 bits) gives, cut for cut, also with ties on cut planes.
TEST_F(OrbGpuTest, WorkBalanceIn32BitsGivesTheCellsOf64BitSums) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(30000, random);
    for (std::size_t i = 0; i < bodies.size(); i += 5) // a fifth of the bodies on a few planes: ties with the pivots
        bodies.x[i] = float(i % 4) * 0.25f - 0.5f;
    std::uniform_int_distribution<int> interactions(1, 3000);
    std::vector<float> weights(bodies.size());
    for (float& weight : weights)
        weight = float(interactions(random));
    for (std::uint32_t domains : {7u, 64u, 500u}) {
        const RadixAndBisection builds = expectRadixCellsOfBisection(bodies, weights, domains);
        EXPECT_TRUE(builds.radix.summedNarrow);
        EXPECT_FALSE(builds.bisection.summedNarrow);
    }
}

/// Where the scatter looks back, work balance's counting passes add each bin's count and narrow weight to the cell's as
/// one 64-bit word (count above kOrbPackedWeightBits of weight). Integer weights just below 2^kOrbNarrowWeightBits on
/// 60,000 bodies put the cells' weight sums near 2^35, beyond the low 32 bits that one tile's sum fills, and bodies on
/// a few planes put many on one bin: the cells must be bisection's (separate 64-bit sums), cut for cut, also where the
/// selection ends at a bin's edge.
TEST_F(OrbGpuTest, WorkBalanceWithCountsAndWeightsInOneWordPerBin) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(60000, random);
    for (std::size_t i = 0; i < bodies.size(); i += 7)
        bodies.y[i] = float(i % 3) * 0.125f;
    std::uniform_int_distribution<std::uint32_t> heavy((1u << (kOrbNarrowWeightBits - 1)),
                                                       (1u << kOrbNarrowWeightBits) - 1);
    std::vector<float> weights(bodies.size());
    double total = 0.0;
    for (float& weight : weights) {
        weight = float(heavy(random));
        total += weight;
    }
    ASSERT_GT(total, 8.0 * double(1ull << 32)) << "the cells' weights should need more than 32 bits";
    for (const OrbMethod& method : {kRadixMethods[1], kRadixMethods[3]})
        for (std::uint32_t domains : {2u, 13u, 64u}) {
            const RadixAndBisection builds = expectRadixCellsOfBisection(bodies, weights, domains, method);
            EXPECT_TRUE(builds.radix.summedNarrow);
        }
}

/// Ties on a pivot under work balance where the last radix pass counts the tiles: several bodies on the pivot's plane
/// need the weight rule applied to the ties in index order, which the selection after the last pass does from the
/// tiles' match slots (their places give the ties' weights) when each tile's matches fit its slots, and the count pass
/// does when they do not. The cells must be bisection's, cut for cut. 400,000 bodies
/// stretched along x, every k-th of them on the plane x = 0 and ten times as heavy, so that the root's target falls
/// among them (the root's cut is then 0), with integer weights (32-bit sums) and float weights (64-bit): with k = 200
/// each of the root's 98 tiles holds about 20 ties (within the slots), with k = 50 about 80 (beyond them).
TEST_F(OrbGpuTest, WorkBalanceSplitsTiesOnAPivotWithOffsetsFromTheLastPass) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<int> interactions(1, 3000);
    for (const std::size_t every : {200u, 50u}) {
        SCOPED_TRACE("every " + std::to_string(every) + "th body on x = 0");
        Bodies bodies = randomBall(400000, random);
        for (std::size_t i = 0; i < bodies.size(); ++i)
            bodies.x[i] = i % every == 0 ? 0.0f : 3.0f * bodies.x[i];
        for (const bool integers : {true, false}) {
            SCOPED_TRACE(integers ? "integer weights" : "float weights");
            std::vector<float> weights(bodies.size());
            for (std::size_t i = 0; i < weights.size(); ++i)
                weights[i] = float(interactions(random)) * (i % every == 0 ? 10.0f : 1.0f) * (integers ? 1.0f : 0.001f);
            for (const OrbMethod& method : kFromLastPass)
                for (std::uint32_t domains : {2u, 64u}) {
                    const std::vector<OrbCell> cells =
                        expectRadixCellsOfBisection(bodies, weights, domains, method).radix.cells;
                    ASSERT_EQ(cells[0].cutAxis, 0);
                    EXPECT_EQ(cells[1].upper[0], 0.0f) << "the root's target should fall among the ties";
                }
            expectWorkBalanced(bodies, weights, 64, {OrbCutFinder::RadixSelect, OrbTileOffsets::FromLastPass});
        }
    }
}

/// Where the scatter's offsets come by look-back, work balance launches no count pass unless the last build's ties
/// needed it: a build that meets several ties with a target left guesses them, leaves the bodies untouched and runs
/// again with the count pass. One builder, build after build: bodies with ties on the root's pivot (every 50th on
/// x = 0, ten times heavier), again, then a fresh ball with none, then ties again. Each build must give bisection's
/// cells and the same bodies in every leaf (a void build that had moved the bodies would change which ties go left),
/// and keep every body whole within the work bound; the builds whose ties were not expected must run again.
TEST_F(OrbGpuTest, WorkBalanceOrdersTiesWithTheCountPassWhereOffsetsComeByLookBack) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<int> interactions(1, 3000);
    const auto weighed = [&](const Bodies& bodies, std::size_t heavyEvery) {
        std::vector<float> weights(bodies.size());
        for (std::size_t i = 0; i < weights.size(); ++i)
            weights[i] = float(interactions(random)) * (i % heavyEvery == 0 ? 10.0f : 1.0f);
        return weights;
    };
    Bodies tied = randomBall(400000, random);
    for (std::size_t i = 0; i < tied.size(); ++i)
        tied.x[i] = i % 50 == 0 ? 0.0f : 3.0f * tied.x[i];
    const std::vector<float> tiedWeights = weighed(tied, 50);
    // A cube on distinct coordinates (a shuffled grid per axis, far coarser than a float's spacing): no tie anywhere.
    Bodies untied = randomBall(400000, random);
    for (std::vector<float>* axis : {&untied.x, &untied.y, &untied.z}) {
        for (std::size_t i = 0; i < axis->size(); ++i)
            (*axis)[i] = (float(i) + 0.5f) / float(axis->size()) - 0.5f;
        std::shuffle(axis->begin(), axis->end(), random);
    }
    const std::vector<float> untiedWeights = weighed(untied, 50);
    struct Build {
        const Bodies* bodies;
        const std::vector<float>* weights;
        bool tiesExpected;
    };
    const Build builds[] = {{&tied, &tiedWeights, false},
                            {&tied, &tiedWeights, true},
                            {&untied, &untiedWeights, true},
                            {&tied, &tiedWeights, false}};
    const OrbMethod bisection{OrbCutFinder::Bisection, OrbTileOffsets::Automatic};
    for (const OrbMethod& method : {kRadixMethods[1], kRadixMethods[3]}) {
        SCOPED_TRACE(method.name());
        OrbGpu gpu = method.gpu();
        for (std::size_t b = 0; b < std::size(builds); ++b) {
            SCOPED_TRACE("build " + std::to_string(b));
            const Bodies& input = *builds[b].bodies;
            const std::vector<float>& weights = *builds[b].weights;
            CudaStream stream;
            DeviceBodies device, bisected;
            for (DeviceBodies* bodies : {&device, &bisected}) {
                uploadBodies(input, *bodies, stream.get());
                uploadIndexAndWeights(*bodies, weights, stream.get());
            }
            gpu.build(device, 64, OrbBalance::Work, stream.get());
            OrbGpu reference = bisection.gpu();
            reference.build(bisected, 64, OrbBalance::Work, stream.get());
            if (!builds[b].tiesExpected) {
                EXPECT_TRUE(gpu.lastBuildRanAgain());
            }
            const std::vector<OrbCell> cells = gpu.downloadCells(stream.get());
            expectSameCells(cells, reference.downloadCells(stream.get()));
            Bodies moved, expected;
            downloadBodies(device, moved, stream.get());
            downloadBodies(bisected, expected, stream.get());
            ASSERT_NO_FATAL_FAILURE(
                expectEveryBodyWhole(input, weights, moved, downloadAcceleration(device, stream.get())));
            for (std::size_t c = 0; c < cells.size(); ++c)
                if (cells[c].isLeaf()) {
                    EXPECT_EQ(leafRecords(moved, cells[c]), leafRecords(expected, cells[c])) << "leaf " << c;
                }
        }
        expectWorkBalanced(tied, tiedWeights, 64, method);
    }
}

/// Both guesses of work balance where the scatter looks back, on a fresh builder: that no ties need their weights in
/// index order (no count pass), and that the scatters take every first pass below the root. Here the root
/// (x in [-1, 1], y in [0, 1.8], z in [0, 0.1]) is cut at x = 0 among heavy ties, so the first run is void; each child
/// is cut along y at its heaviest body (y = 0.9; the others lie in [0, 0.5] or, a few more, from 1.2 to 1.8), which
/// goes left (its target lies in the upper part of its weight), so the cut lies halfway up to 1.2, and the lower
/// grandchild's longest side is y (about 1.05 against 1), not the x its scatter counted with the cut at the pivot
/// (0.9): it takes its own first pass. The first build runs again (a third time where the run after the ties' meets
/// that pass before it is expected), the next expects both; each must give bisection's cells with every body whole.
TEST_F(OrbGpuTest, WorkBalanceBuildsWithTiesAtTheRootAndAMispredictedAxisBelow) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> low(0.0f, 0.5f), high(1.2f, 1.8f), side(0.0f, 1.0f), thin(0.0f, 0.1f);
    std::uniform_int_distribution<int> interactions(1, 3);
    constexpr std::size_t kBodies = 400000;
    Bodies bodies = randomBall(kBodies, random);
    std::vector<float> weights(kBodies);
    double sideWeight = 0.0;
    for (std::size_t i = 0; i < kBodies; ++i) {
        const bool tie = i % 50 == 0;
        bodies.x[i] = tie ? 0.0f : (i % 2 == 0 ? -side(random) : side(random));
        bodies.y[i] = (i / 2) % 40 < 19 ? low(random) : high(random);
        bodies.z[i] = thin(random);
        weights[i] = float(interactions(random)) * (tie ? 10.0f : 1.0f);
        sideWeight += weights[i] / 2.0;
    }
    // The extremes of the root's box, and on each side of x = 0 the heaviest body, between the lower and upper bodies:
    // a tenth of the side's weight, which puts the side's target about 70% of the way into it. Every weight is a small
    // integer, so that the builder expects narrow weights, under which alone it guesses the first passes.
    bodies.x[1] = -1.0f;
    bodies.x[3] = 1.0f;
    bodies.y[5] = 0.0f;
    bodies.y[7] = 1.8f;
    for (const std::size_t heavy : {std::size_t(9), std::size_t(11)}) {
        bodies.x[heavy] = heavy == 9 ? -0.5f : 0.5f;
        bodies.y[heavy] = 0.9f;
        weights[heavy] = std::round(float(sideWeight / 10.0));
    }
    const std::vector<OrbCell> reference =
        buildWorkBalanced(bodies, weights, 64, {OrbCutFinder::Bisection, OrbTileOffsets::Automatic}).cells;
    for (const OrbMethod& method : {kRadixMethods[1], kRadixMethods[3]}) {
        SCOPED_TRACE(method.name());
        OrbGpu gpu = method.gpu();
        for (const bool runsAgain : {true, false}) {
            CudaStream stream;
            DeviceBodies device;
            uploadBodies(bodies, device, stream.get());
            uploadIndexAndWeights(device, weights, stream.get());
            ASSERT_NO_THROW(gpu.build(device, 64, OrbBalance::Work, stream.get()));
            EXPECT_EQ(gpu.lastBuildRanAgain(), runsAgain);
            const std::vector<OrbCell> cells = gpu.downloadCells(stream.get());
            expectSameCells(cells, reference);
            ASSERT_EQ(cells[0].cutAxis, 0);
            EXPECT_EQ(cells[1].upper[0], 0.0f) << "the root's target should fall among the ties";
            EXPECT_EQ(cells[1].cutAxis, 1);
            const OrbCell& lower = cells[std::size_t(cells[1].leftChild)];
            EXPECT_GT(lower.upper[1], 1.0f) << "the cut should lie halfway from the heaviest body up to the next";
            EXPECT_EQ(lower.cutAxis, 1) << "the lower grandchild's longest side should be y";
            Bodies moved;
            downloadBodies(device, moved, stream.get());
            ASSERT_NO_FATAL_FAILURE(
                expectEveryBodyWhole(bodies, weights, moved, downloadAcceleration(device, stream.get())));
        }
    }
}

/// A resolved split whose last pass overflows a tile's match slots, under work balance with offsets from the last
/// pass: its scatter looks back, and the cut and the children follow from the count below the pivot that the last
/// pass summed over the cell's tiles plus its bins below the final digit (the earlier passes count nothing). 400,000
/// bodies about x = 1, stretched along x; the first 100 (one tile) on distinct keys just above 1, within one block of
/// 2^10 keys, and heavy enough (50,000 each, the others at most 3000) that the root's target falls among them: one
/// body on the pivot, 100 matches in that tile. Bisection, whose count pass counts every tile, must give the same
/// cells.
TEST_F(OrbGpuTest, WorkBalanceWithMatchSlotsOverflowingOnAResolvedSplit) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(400000, random);
    constexpr std::uint32_t kHeavy = 100;
    const std::uint32_t oneKey = std::bit_cast<std::uint32_t>(1.0f); // a multiple of 2^10
    for (std::size_t i = 0; i < bodies.size(); ++i)
        bodies.x[i] = i < kHeavy ? std::bit_cast<float>(oneKey + std::uint32_t(i)) : 1.0f + 3.0f * bodies.x[i];
    std::uniform_int_distribution<int> interactions(1, 3000);
    std::vector<float> weights(bodies.size());
    for (std::size_t i = 0; i < weights.size(); ++i)
        weights[i] = i < kHeavy ? 50000.0f : float(interactions(random));
    for (const OrbMethod& method : kFromLastPass)
        for (std::uint32_t domains : {2u, 64u}) {
            const std::vector<OrbCell> cells =
                expectRadixCellsOfBisection(bodies, weights, domains, method).radix.cells;
            ASSERT_EQ(cells[0].cutAxis, 0);
            const float cut = cells[1].upper[0];
            EXPECT_GE(cut, 1.0f) << "the root's target should fall among the heavy bodies";
            EXPECT_LE(cut, std::bit_cast<float>(oneKey + kHeavy - 1));
        }
    expectWorkBalanced(bodies, weights, 64, {OrbCutFinder::RadixSelect, OrbTileOffsets::FromLastPass});
}

/// Weights in 64ths below one half, every seventh -0 (a valid weight of 0): integers at the scale 2^6, so summed in 32
/// bits. A -0 taken by its bits as the largest weight made the fixed-point scale 1, which rounded every weight to 0,
/// so the build fell back to count balance.
TEST_F(OrbGpuTest, WorkBalanceWithSmallDyadicWeightsAndNegativeZeros) {
    std::uniform_int_distribution<int> sixtyFourths(1, 31);
    expectWorkBalancedOnRandomBall(
        20000,
        [&](std::size_t i, std::mt19937_64& random) {
            return i % 7 == 0 ? -0.0f : float(sixtyFourths(random)) / 64.0f;
        },
        {5u, 64u}, true);
}

/// A dense cluster (a sphere of radius 0.2 around a random point) carries 1000 times the weight per body: the
/// domains must shrink around it.
TEST_F(OrbGpuTest, WorkBalanceWithClusteredWeights) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(30000, random);
    std::uniform_real_distribution<float> centre(-0.5f, 0.5f);
    const float cx = centre(random), cy = centre(random), cz = centre(random);
    std::vector<float> weights(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const float dx = bodies.x[i] - cx, dy = bodies.y[i] - cy, dz = bodies.z[i] - cz;
        weights[i] = dx * dx + dy * dy + dz * dz < 0.04f ? 1000.0f : 1.0f;
    }
    for (std::uint32_t domains : {5u, 64u, 333u})
        expectWorkBalanced(bodies, weights, domains);
}

/// Three bodies each heavier than a domain's share: some domains must stay empty, and the bound still holds.
TEST_F(OrbGpuTest, WorkBalanceWithBodiesHeavierThanADomain) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(3000, random);
    std::vector<float> weights(bodies.size(), 1e-3f);
    weights[17] = weights[1500] = weights[2999] = 1e4f;
    for (std::uint32_t domains : {7u, 100u})
        expectWorkBalanced(bodies, weights, domains);
}

/// A cell lighter than its own target, whose cut is found in the pass of the last digit: three bodies on x only, all
/// keys within one block of 2^10 (so every cell's first pass is its last), into 3 domains. The root sends A (weight 10)
/// and the first of two ties at x = V (weight 0) left and the second tie (weight 20) right, since the middle of its
/// weight does not lie below the target 2 W / 3 = 20; the cut is V. The left cell's target W / 3 = 10 equals its whole
/// weight, so no bin of its last pass holds it: every body goes left, and the cut is the cell's upper corner. V's final
/// digit is the largest, 0x3ff, the one a key rebuilt from that pass's placeholder pivot (~0u) would confuse with it.
TEST_F(OrbGpuTest, WorkBalanceWithACellLighterThanItsTarget) {
    Bodies bodies;
    bodies.resize(3);
    bodies.x = {std::bit_cast<float>(std::uint32_t(0x447a0100)), std::bit_cast<float>(std::uint32_t(0x447a03ff)),
                std::bit_cast<float>(std::uint32_t(0x447a03ff))}; // 1000.0156, then V = 1000.0624 twice
    std::fill(bodies.mass.begin(), bodies.mass.end(), 1.0f);
    bodies.numberSequentially();
    for (const OrbMethod& method : kAllMethods)
        expectWorkBalanced(bodies, {10.0f, 0.0f, 20.0f}, 3, method);
}

/// Work balance with every weight zero falls back to count balance: exactly OrbCpu's cells, also on tied planes.
TEST_F(OrbGpuTest, WorkBalanceWithZeroWeightsIsCountBalance) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(4000, random);
    std::uniform_int_distribution<int> point(-1, 2);
    for (std::size_t i = 0; i < bodies.size(); i += 2)
        bodies.x[i] = float(point(random));
    for (const OrbMethod& method : kAllMethods)
        for (std::uint32_t domains : {3u, 64u})
            expectSameAsCpu(bodies, domains, method, OrbBalance::Work);
}

/// Integer (summed in 32 bits) and fractional weights for bodies: each gives radix select bisection's cells, cut for
/// cut, and every leaf its share within the bound, into 5 and 64 domains.
void expectWorkBalancedUnderBothWeightPaths(const Bodies& bodies, std::mt19937_64& random) {
    std::vector<float> integers(bodies.size()), fractions(bodies.size());
    std::uniform_real_distribution<float> fraction(0.0f, 10.0f);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        integers[i] = 1.0f + float(random() % 1000);
        fractions[i] = fraction(random);
    }
    for (const std::vector<float>* weights : {&integers, &fractions}) {
        SCOPED_TRACE(weights == &integers ? "integer weights" : "fractional weights");
        for (std::uint32_t domains : {5u, 64u}) {
            expectWorkBalanced(bodies, *weights, domains);
            for (const OrbMethod& method : kRadixMethods)
                expectRadixCellsOfBisection(bodies, *weights, domains, method);
        }
    }
}

/// Under radix select the root's first pass sums the weights and takes its target from that total. Here every body
/// lies at one point, so the root's key range holds one key and it takes no pass: its layout sums the weights instead.
TEST_F(OrbGpuTest, WorkBalanceWithEveryBodyAtOnePoint) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(20000, random);
    std::fill(bodies.x.begin(), bodies.x.end(), 0.3f);
    std::fill(bodies.y.begin(), bodies.y.end(), -0.2f);
    std::fill(bodies.z.begin(), bodies.z.end(), 0.1f);
    expectWorkBalancedUnderBothWeightPaths(bodies, random);
}

/// Roots whose key ranges need one radix pass (x over 300 units in the last place of 3.0) and two (2^18 units): the
/// root's first pass, which sums the weights, is then the level's last pass or the one before it.
TEST_F(OrbGpuTest, WorkBalanceOnRootsOfOneAndTwoRadixPasses) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::uint32_t three = std::bit_cast<std::uint32_t>(3.0f);
    for (const std::uint32_t units : {300u, 1u << 18}) {
        SCOPED_TRACE("x over " + std::to_string(units) + " units in the last place");
        Bodies bodies = randomBall(20000, random);
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            // y and z over fewer units, so that x is the longest side and the root's cut axis
            bodies.x[i] = std::bit_cast<float>(three + std::uint32_t(random() % units));
            bodies.y[i] = std::bit_cast<float>(three + std::uint32_t(random() % (units / 4)));
            bodies.z[i] = std::bit_cast<float>(three + std::uint32_t(random() % (units / 4)));
        }
        expectWorkBalancedUnderBothWeightPaths(bodies, random);
    }
}

/// Bodies whose root is cut along x at a chosen key: x is 1.0 plus offsets[i] units in the last place (a key range of
/// 30 bits, so three radix passes whose second leaves bins of 256 keys), y and z within a few units of 1.0, and the
/// bodies in a random order.
Bodies bodiesAtKeyOffsets(const std::vector<std::uint32_t>& offsets, std::mt19937_64& random) {
    Bodies bodies = randomBall(offsets.size(), random);
    std::vector<std::uint32_t> shuffled = offsets;
    std::shuffle(shuffled.begin(), shuffled.end(), random);
    const std::uint32_t one = std::bit_cast<std::uint32_t>(1.0f);
    for (std::size_t i = 0; i < shuffled.size(); ++i) {
        bodies.x[i] = std::bit_cast<float>(one + shuffled[i]);
        bodies.y[i] = std::bit_cast<float>(one + std::uint32_t(random() % 16));
        bodies.z[i] = std::bit_cast<float>(one + std::uint32_t(random() % 16));
    }
    return bodies;
}

/// Offsets drawn from [low, high).
void addOffsets(std::vector<std::uint32_t>& offsets, std::size_t count, std::uint32_t low, std::uint32_t high,
                std::mt19937_64& random) {
    for (std::size_t k = 0; k < count; ++k)
        offsets.push_back(low + std::uint32_t(random() % (high - low)));
}

/// Where the scatter looks back, a selection ends before its last digit when an edge of the chosen bin is the split
/// (no rank or target left in the bin, or under work balance a bin of one body), and the pivot becomes that edge's key.
/// Bodies on exactly that key go right, and the cut must still fall midway between the largest key on the left and
/// the smallest on the right. The edge D = 2^29 + 2^12 units is a bin edge after the second pass but not after the
/// first, whose bin also holds left bodies (so the second pass decides). Count balance into 2 domains: the median
/// rank falls on two bodies exactly at D (ties), then more in D's bin; the cells must be OrbCpu's. Work balance:
/// the target falls in a bin holding one heavy body at D + 7, which goes left (the middle of its weight below the
/// target) with a body exactly at the next edge D + 256, or right; the cells must be bisection's, cut for cut.
TEST_F(OrbGpuTest, SelectionsEndingAtABinEdgeMatchTheReferences) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    constexpr std::uint32_t kEdge = (1u << 29) + (1u << 12);
    {
        SCOPED_TRACE("count balance, the median on two bodies at the edge");
        std::vector<std::uint32_t> offsets{0};
        addOffsets(offsets, 2000, 1, 1u << 28, random);
        addOffsets(offsets, 99, 1u << 29, kEdge, random); // the edge's first-pass bin, left of it
        offsets.insert(offsets.end(), {kEdge, kEdge, kEdge + 9, kEdge + 255});
        addOffsets(offsets, 2100 - 4, kEdge + 256, (1u << 29) + (1u << 28), random);
        for (std::uint32_t domains : {2u, 5u, 64u})
            expectSameAsCpu(bodiesAtKeyOffsets(offsets, random), domains);
    }
    for (const bool pivotGoesLeft : {true, false}) {
        SCOPED_TRACE(pivotGoesLeft ? "work balance, a heavy pivot alone in its bin goes left"
                                   : "work balance, a heavy pivot alone in its bin goes right");
        // 1000 left bodies of weight 1, the pivot of weight 500, then `right` bodies of weight 1: the target is half
        // the total, 1400 (left: 1000 + 250 < 1400) or 1200 (right: 1250 >= 1200).
        const std::size_t right = pivotGoesLeft ? 1300 : 900;
        std::vector<std::uint32_t> offsets{0};
        addOffsets(offsets, 900, 1, 1u << 28, random);
        addOffsets(offsets, 99, 1u << 29, kEdge, random);
        offsets.push_back(kEdge + 7);
        offsets.push_back(kEdge + 256);
        addOffsets(offsets, right - 1, kEdge + 256, (1u << 29) + (1u << 28), random);
        const Bodies bodies = bodiesAtKeyOffsets(offsets, random);
        std::vector<float> weights(bodies.size(), 1.0f);
        const float pivotX = std::bit_cast<float>(std::bit_cast<std::uint32_t>(1.0f) + kEdge + 7);
        for (std::size_t i = 0; i < bodies.size(); ++i)
            if (bodies.x[i] == pivotX)
                weights[i] = 500.0f;
        for (const OrbMethod& method : kRadixMethods)
            for (std::uint32_t domains : {2u, 5u})
                expectRadixCellsOfBisection(bodies, weights, domains, method);
        const std::vector<OrbCell> cells = buildWorkBalanced(bodies, weights, 2).cells;
        ASSERT_EQ(cells.size(), 3u);
        EXPECT_EQ(cells[1].end - cells[1].begin, pivotGoesLeft ? 1001u : 1000u);
    }
}

/// The device imbalance against sums over the downloaded leaves (work) and against OrbCpu (memory, same cells).
TEST_F(OrbGpuTest, ImbalanceMatchesLeafSums) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const Bodies bodies = randomBall(10000, random);
    std::uniform_real_distribution<float> uniform(0.5f, 2.0f);
    std::vector<float> weights(bodies.size());
    for (float& weight : weights)
        weight = uniform(random);
    constexpr std::uint32_t kDomains = 13;
    CudaStream stream;
    DeviceBodies device;
    uploadBodies(bodies, device, stream.get());
    uploadIndexAndWeights(device, weights, stream.get());
    OrbGpu gpu;
    gpu.build(device, kDomains, OrbBalance::Count, stream.get());
    const std::vector<OrbCell> cells = gpu.downloadCells(stream.get());
    const std::vector<float4> acceleration = downloadAcceleration(device, stream.get());
    double largestWeight = 0, totalWeight = 0;
    for (const OrbCell& cell : cells) {
        if (!cell.isLeaf())
            continue;
        double weight = 0;
        for (std::uint32_t i = cell.begin; i < cell.end; ++i)
            weight += acceleration[i].w;
        largestWeight = std::max(largestWeight, weight);
        totalWeight += weight;
    }
    Bodies cpuBodies = bodies;
    OrbCpu cpu;
    cpu.build(cpuBodies, kDomains);
    const OrbImbalance expectedCount = cpu.imbalance();
    const OrbImbalance work = gpu.imbalance(device, OrbBalance::Work, stream.get());
    const OrbImbalance count = gpu.imbalance(device, OrbBalance::Count, stream.get());
    // Sums of 10^4 floats in double, in two orders: they differ by far less than 1e-12 relative.
    EXPECT_NEAR(work.work, largestWeight * kDomains / totalWeight, 1e-12);
    EXPECT_DOUBLE_EQ(work.memory, expectedCount.memory);
    EXPECT_DOUBLE_EQ(count.memory, expectedCount.memory);
    EXPECT_DOUBLE_EQ(count.work, count.memory);
    EXPECT_GT(work.work, 1.0);
}

/// The positions-only build gives OrbCpu's cells exactly, the same positions in every leaf, and an order that maps
/// each position back to its input index.
TEST_F(OrbGpuTest, PositionsOnlyMatchesCpu) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = randomBall(6000, random);
    std::uniform_int_distribution<int> point(-1, 2);
    for (std::size_t i = 0; i < bodies.size(); i += 3)
        bodies.y[i] = float(point(random)); // a third of the bodies on 4 planes
    for (std::uint32_t domains : {1u, 2u, 7u, 64u, 1000u}) {
        SCOPED_TRACE("positions only, np = " + std::to_string(domains));
        CudaStream stream;
        DeviceBuffer<float> x(bodies.size()), y(bodies.size()), z(bodies.size());
        x.upload(bodies.x, stream.get());
        y.upload(bodies.y, stream.get());
        z.upload(bodies.z, stream.get());
        OrbGpu gpu;
        gpu.buildPositions(x.data(), y.data(), z.data(), bodies.size(), domains, stream.get());
        const std::vector<OrbCell> cells = gpu.downloadCells(stream.get());
        Bodies moved = bodies;
        x.download(moved.x, stream.get());
        y.download(moved.y, stream.get());
        z.download(moved.z, stream.get());
        std::vector<std::uint32_t> order(bodies.size());
        CUDA_CHECK(cudaMemcpyAsync(order.data(), gpu.deviceOrder(), order.size() * sizeof(std::uint32_t),
                                   cudaMemcpyDeviceToHost, stream.get()));
        CUDA_CHECK(cudaStreamSynchronize(stream.get()));
        for (std::size_t j = 0; j < bodies.size(); ++j) {
            ASSERT_LT(order[j], bodies.size());
            ASSERT_EQ(moved.x[j], bodies.x[order[j]]);
            ASSERT_EQ(moved.y[j], bodies.y[order[j]]);
            ASSERT_EQ(moved.z[j], bodies.z[order[j]]);
        }
        Bodies cpuBodies = bodies;
        OrbCpu cpu;
        cpu.build(cpuBodies, domains);
        ASSERT_EQ(cells.size(), cpu.cells().size());
        expectSameCells(cells, cpu.cells());
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const OrbCell& a = cells[c];
            const OrbCell& b = cpu.cells()[c];
            EXPECT_EQ(a.cutAxis, b.cutAxis) << "cell " << c;
            if (a.isLeaf() && a.begin == b.begin && a.end == b.end) {
                std::vector<std::array<float, 3>> gpuLeaf, cpuLeaf;
                for (std::uint32_t i = a.begin; i < a.end; ++i) {
                    gpuLeaf.push_back({moved.x[i], moved.y[i], moved.z[i]});
                    cpuLeaf.push_back({cpuBodies.x[i], cpuBodies.y[i], cpuBodies.z[i]});
                }
                std::sort(gpuLeaf.begin(), gpuLeaf.end());
                std::sort(cpuLeaf.begin(), cpuLeaf.end());
                EXPECT_EQ(gpuLeaf, cpuLeaf) << "leaf " << c;
            }
        }
    }
}

} // namespace
} // namespace gravlab::gputest
