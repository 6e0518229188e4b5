// Invariants of the CPU ORB, checked against recomputations from the bodies rather than against the build's own
// bookkeeping: count balance within one body, work balance within one largest weight, children tiling their parent,
// every body inside its leaf, cuts across the longest side, ties on the cut plane, an unchanged body multiset, the
// imbalance report, and np > N refused.
#include "orb/OrbCpu.hpp"

#include "SimTestSupport.hpp"

#include <gravlab/sim/SimParams.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <gtest/gtest.h>
#include <random>
#include <vector>

namespace gravlab {
namespace {

using BodyRecord = std::array<float, 9>;

/// Every body as one sortable record (position, velocity, mass, colour key and, when given, weight).
std::vector<BodyRecord> sortedRecords(const Bodies& bodies, const std::vector<float>& weights = {}) {
    std::vector<BodyRecord> records(bodies.size());
    for (std::size_t i = 0; i < bodies.size(); ++i)
        records[i] = {bodies.x[i],    bodies.y[i],        bodies.z[i],
                      bodies.vx[i],   bodies.vy[i],       bodies.vz[i],
                      bodies.mass[i], bodies.colorKey[i], weights.empty() ? 0.0f : weights[i]};
    std::sort(records.begin(), records.end());
    return records;
}

float coordinate(const Bodies& bodies, int axis, std::size_t i) {
    return axis == 0 ? bodies.x[i] : axis == 1 ? bodies.y[i] : bodies.z[i];
}

/// Uniform bodies in a box of half sides (4, 1, 0.5) with unique colour keys, so the longest side changes with depth.
Bodies elongatedBodies(std::size_t count, std::mt19937_64& random) {
    Bodies bodies = simtest::randomBodies(count, random);
    for (std::size_t i = 0; i < count; ++i) {
        bodies.x[i] *= 4.0f;
        bodies.z[i] *= 0.5f;
        bodies.colorKey[i] = float(i) / float(count);
    }
    return bodies;
}

void expectRootIsBoundingBox(const OrbCpu& orb, const Bodies& bodies) {
    const OrbCell& root = orb.cells().front();
    for (int axis = 0; axis < 3; ++axis) {
        float low = coordinate(bodies, axis, 0), high = low;
        for (std::size_t i = 1; i < bodies.size(); ++i) {
            low = std::min(low, coordinate(bodies, axis, i));
            high = std::max(high, coordinate(bodies, axis, i));
        }
        EXPECT_EQ(root.lower[axis], low) << "axis " << axis;
        EXPECT_EQ(root.upper[axis], high) << "axis " << axis;
    }
    EXPECT_EQ(root.begin, 0u);
    EXPECT_EQ(root.end, bodies.size());
}

/// Children share the parent's corners except one face, their ranges concatenate to the parent's, the cut crosses
/// the longest side, and every body of the left child lies at or below the cut, every body of the right at or above.
void expectChildrenTileParent(const OrbCpu& orb, const Bodies& bodies, const OrbCell& parent) {
    ASSERT_GE(parent.leftChild, 1);
    ASSERT_LT(std::size_t(parent.leftChild) + 1, orb.cells().size());
    const OrbCell& left = orb.cells()[std::size_t(parent.leftChild)];
    const OrbCell& right = orb.cells()[std::size_t(parent.leftChild) + 1];
    const int axis = parent.cutAxis;
    ASSERT_TRUE(axis >= 0 && axis < 3);
    // Sides are differences of floats, each rounded once (relative 6e-8); an axis within 1e-6 of the longest counts
    // as longest, a wrong axis on these inputs is shorter by a factor of 2 or more.
    const auto side = [&](int a) { return double(parent.upper[a]) - double(parent.lower[a]); };
    for (int other = 0; other < 3; ++other)
        EXPECT_GE(side(axis), side(other) * (1 - 1e-6)) << "cut axis " << axis << " is not the longest side";
    for (int a = 0; a < 3; ++a) {
        EXPECT_EQ(left.lower[a], parent.lower[a]);
        EXPECT_EQ(right.upper[a], parent.upper[a]);
        if (a != axis) {
            EXPECT_EQ(left.upper[a], parent.upper[a]);
            EXPECT_EQ(right.lower[a], parent.lower[a]);
        }
    }
    const float cut = left.upper[axis];
    EXPECT_EQ(right.lower[axis], cut);
    EXPECT_TRUE(parent.lower[axis] <= cut && cut <= parent.upper[axis]);
    EXPECT_EQ(left.begin, parent.begin);
    EXPECT_EQ(left.end, right.begin);
    EXPECT_EQ(right.end, parent.end);
    EXPECT_EQ(left.domainCount, (parent.domainCount + 1) / 2);
    EXPECT_EQ(left.domainCount + right.domainCount, parent.domainCount);
    EXPECT_EQ(left.firstDomain, parent.firstDomain);
    EXPECT_EQ(right.firstDomain, parent.firstDomain + left.domainCount);
    for (std::uint32_t i = left.begin; i < left.end; ++i)
        ASSERT_LE(coordinate(bodies, axis, i), cut) << "body " << i << " left of a cut lies right of it";
    for (std::uint32_t i = right.begin; i < right.end; ++i)
        ASSERT_GE(coordinate(bodies, axis, i), cut) << "body " << i << " right of a cut lies left of it";
}

/// Leaves, in domain order, hold consecutive ranges covering all bodies, each body inside its (closed) leaf box.
void expectLeavesCoverBodies(const OrbCpu& orb, const Bodies& bodies, std::uint32_t domainCount) {
    std::vector<const OrbCell*> leaves(domainCount, nullptr);
    for (const OrbCell& cell : orb.cells())
        if (cell.isLeaf()) {
            ASSERT_EQ(cell.domainCount, 1u);
            ASSERT_LT(cell.firstDomain, domainCount);
            ASSERT_EQ(leaves[cell.firstDomain], nullptr) << "two leaves are domain " << cell.firstDomain;
            leaves[cell.firstDomain] = &cell;
        }
    std::uint32_t expectedBegin = 0;
    for (const OrbCell* leaf : leaves) {
        ASSERT_NE(leaf, nullptr);
        EXPECT_EQ(leaf->begin, expectedBegin) << "domain " << leaf->firstDomain << " is out of left-to-right order";
        expectedBegin = leaf->end;
        for (std::uint32_t i = leaf->begin; i < leaf->end; ++i)
            for (int axis = 0; axis < 3; ++axis)
                ASSERT_TRUE(leaf->lower[axis] <= coordinate(bodies, axis, i) &&
                            coordinate(bodies, axis, i) <= leaf->upper[axis])
                    << "body " << i << " lies outside its leaf (domain " << leaf->firstDomain << ")";
    }
    EXPECT_EQ(expectedBegin, bodies.size());
}

void expectValidOrb(const OrbCpu& orb, const Bodies& bodies, std::uint32_t domainCount) {
    ASSERT_EQ(orb.cells().size(), 2 * std::size_t(domainCount) - 1);
    ASSERT_EQ(orb.levelBegin().back(), orb.cells().size());
    const int depth = int(std::ceil(std::log2(double(domainCount))));
    EXPECT_EQ(orb.levelBegin().size(), std::size_t(depth) + 2);
    expectRootIsBoundingBox(orb, bodies);
    for (const OrbCell& cell : orb.cells())
        if (!cell.isLeaf()) {
            ASSERT_NO_FATAL_FAILURE(expectChildrenTileParent(orb, bodies, cell));
        }
    expectLeavesCoverBodies(orb, bodies, domainCount);
}

/// Count balance: N / np is the target of every leaf; floor/ceil rounding allows strictly less than one body off.
void expectCountBalance(const OrbCpu& orb, std::size_t bodyCount, std::uint32_t domainCount) {
    const double target = double(bodyCount) / domainCount;
    for (const OrbCell& cell : orb.cells())
        if (cell.isLeaf()) {
            EXPECT_LT(std::abs(double(cell.bodyCount()) - target), 1.0) << "domain " << cell.firstDomain;
        }
}

TEST(OrbCpu, DomainCountsFromOneToAThousandBalanceAndTile) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    for (std::uint32_t domainCount : {1u, 2u, 3u, 7u, 1000u}) {
        SCOPED_TRACE("np = " + std::to_string(domainCount));
        const std::size_t bodyCount = 5000 + random() % 3000;
        Bodies bodies = elongatedBodies(bodyCount, random);
        const std::vector<BodyRecord> before = sortedRecords(bodies);
        OrbCpu orb;
        orb.build(bodies, domainCount);
        expectValidOrb(orb, bodies, domainCount);
        expectCountBalance(orb, bodyCount, domainCount);
        EXPECT_EQ(sortedRecords(bodies), before) << "the in-place partition changed the body multiset";
    }
}

TEST(OrbCpu, ClusteredBodiesAndOneBodyPerDomain) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    // A dense Gaussian core inside a wide uniform halo: cut positions move far from the box midpoints.
    Bodies bodies = simtest::randomBodies(6000, random);
    std::normal_distribution<double> core(0.3, 0.02);
    for (std::size_t i = 0; i < 4000; ++i) {
        bodies.x[i] = float(core(random));
        bodies.y[i] = float(core(random));
        bodies.z[i] = float(core(random));
    }
    OrbCpu orb;
    orb.build(bodies, 77);
    expectValidOrb(orb, bodies, 77);
    expectCountBalance(orb, bodies.size(), 77);

    Bodies few = simtest::randomBodies(37, random);
    orb.build(few, 37);
    expectValidOrb(orb, few, 37);
    for (const OrbCell& cell : orb.cells())
        if (cell.isLeaf()) {
            EXPECT_EQ(cell.bodyCount(), 1u);
        }
}

TEST(OrbCpu, BodiesOnTheCutPlaneKeepTheBalance) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    // Coordinates on a 5 x 3 x 2 lattice: every cut falls on a plane holding hundreds of bodies, and below the first
    // levels whole cells are single points (zero-size boxes). Then every body at one point.
    Bodies lattice = elongatedBodies(4001, random);
    for (std::size_t i = 0; i < lattice.size(); ++i) {
        lattice.x[i] = float(random() % 5) - 2.0f;
        lattice.y[i] = float(random() % 3) * 0.5f;
        lattice.z[i] = float(random() % 2) * 0.25f;
    }
    Bodies coincident = elongatedBodies(999, random);
    std::fill(coincident.x.begin(), coincident.x.end(), 0.75f);
    std::fill(coincident.y.begin(), coincident.y.end(), -0.5f);
    std::fill(coincident.z.begin(), coincident.z.end(), 0.125f);
    for (Bodies* bodies : {&lattice, &coincident})
        for (std::uint32_t domainCount : {2u, 7u, 64u, 333u}) {
            SCOPED_TRACE("N = " + std::to_string(bodies->size()) + ", np = " + std::to_string(domainCount));
            const std::vector<BodyRecord> before = sortedRecords(*bodies);
            OrbCpu orb;
            orb.build(*bodies, domainCount);
            expectValidOrb(orb, *bodies, domainCount);
            expectCountBalance(orb, bodies->size(), domainCount);
            EXPECT_EQ(sortedRecords(*bodies), before);
        }
}

TEST(OrbCpu, WorkBalanceKeepsEachDomainWithinOneLargestWeight) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    for (std::uint32_t domainCount : {3u, 7u, 100u}) {
        SCOPED_TRACE("np = " + std::to_string(domainCount));
        Bodies bodies = elongatedBodies(8000, random);
        // Log-uniform work over two decades, heavier towards +x, as a tree walk's interaction counts would be.
        std::vector<float> weights(bodies.size());
        std::uniform_real_distribution<double> decades(0.0, 2.0);
        for (std::size_t i = 0; i < weights.size(); ++i)
            weights[i] = float(std::pow(10.0, decades(random)) * (5.0 + bodies.x[i]));
        const std::vector<BodyRecord> before = sortedRecords(bodies, weights);
        OrbCpu orb;
        orb.build(bodies, domainCount, weights);
        expectValidOrb(orb, bodies, domainCount);
        EXPECT_EQ(sortedRecords(bodies, weights), before) << "weights did not travel with their bodies";

        // Each domain boundary is within half the largest weight of its target (Orb.hpp), so a domain's weight is
        // within one largest weight of W / np; fp64 sums of 8000 floats add far less than the 1e-9 relative slack.
        double total = 0, largest = 0;
        for (float weight : weights) {
            total += weight;
            largest = std::max(largest, double(weight));
        }
        std::vector<std::uint32_t> domainOf;
        orb.domainOfBodies(domainOf);
        std::vector<double> domainWeight(domainCount, 0.0);
        for (std::size_t i = 0; i < weights.size(); ++i)
            domainWeight[domainOf[i]] += weights[i];
        for (std::uint32_t d = 0; d < domainCount; ++d)
            EXPECT_LE(std::abs(domainWeight[d] - total / domainCount), largest + 1e-9 * total) << "domain " << d;
        const double expectedWork = *std::max_element(domainWeight.begin(), domainWeight.end()) * domainCount / total;
        EXPECT_NEAR(orb.imbalance(weights).work, expectedWork, 1e-9);
    }
}

TEST(OrbCpu, ImbalanceAndDomainIdsMatchARecount) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::size_t bodyCount = 3000 + random() % 1000;
    const std::uint32_t domainCount = 13;
    Bodies bodies = elongatedBodies(bodyCount, random);
    OrbCpu orb;
    orb.build(bodies, domainCount);
    std::vector<std::uint32_t> domainOf;
    orb.domainOfBodies(domainOf);
    ASSERT_EQ(domainOf.size(), bodyCount);
    std::vector<std::size_t> counts(domainCount, 0);
    for (std::size_t i = 0; i < bodyCount; ++i) {
        ASSERT_LT(domainOf[i], domainCount);
        if (i > 0) {
            ASSERT_GE(domainOf[i], domainOf[i - 1]) << "domains are not contiguous in body order";
        }
        ++counts[domainOf[i]];
    }
    const double mean = double(bodyCount) / domainCount;
    const double memory = double(*std::max_element(counts.begin(), counts.end())) / mean;
    const OrbImbalance unweighted = orb.imbalance();
    EXPECT_DOUBLE_EQ(unweighted.memory, memory);
    EXPECT_DOUBLE_EQ(unweighted.work, memory);
    // Count balance under a weight that grows with x: the work imbalance is the recounted one, not the memory one.
    std::vector<float> work(bodyCount);
    std::vector<double> domainWork(domainCount, 0.0);
    double totalWork = 0;
    for (std::size_t i = 0; i < bodyCount; ++i) {
        work[i] = 5.0f + bodies.x[i];
        domainWork[domainOf[i]] += work[i];
        totalWork += work[i];
    }
    const double expectedWork = *std::max_element(domainWork.begin(), domainWork.end()) * domainCount / totalWork;
    EXPECT_NEAR(orb.imbalance(work).work, expectedWork, 1e-9);
    EXPECT_GT(expectedWork, 1.2) << "the test weights should unbalance a count-balanced split";
}

TEST(OrbCpu, MoreDomainsThanBodiesIsRefusedWithoutTouchingTheBodies) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = elongatedBodies(5, random);
    const Bodies original = bodies;
    OrbCpu orb;
    for (std::uint32_t domainCount : {0u, 6u, 1024u}) {
        try {
            orb.build(bodies, domainCount);
            ADD_FAILURE() << "np = " << domainCount << " with N = 5 was accepted";
        } catch (const InvalidParameterError& error) {
            EXPECT_EQ(error.field(), "orb-domains");
            const std::string message = error.what();
            EXPECT_NE(message.find(std::to_string(domainCount)), std::string::npos) << message;
            EXPECT_NE(message.find("allowed 1 to 5"), std::string::npos) << message;
        }
        EXPECT_EQ(bodies.x, original.x);
        EXPECT_EQ(bodies.colorKey, original.colorKey);
    }
}

TEST(OrbCpu, BadPositionsAndWeightsAreRefused) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    Bodies bodies = elongatedBodies(100, random);
    OrbCpu orb;
    std::vector<float> weights(100, 1.0f);
    weights[17] = -1.0f;
    EXPECT_THROW(orb.build(bodies, 4, weights), std::invalid_argument);
    std::vector<float> zeros(100, 0.0f);
    EXPECT_THROW(orb.build(bodies, 4, zeros), std::invalid_argument);
    std::vector<float> tooFew(99, 1.0f);
    EXPECT_THROW(orb.build(bodies, 4, tooFew), std::invalid_argument);
    bodies.y[42] = std::nanf("");
    EXPECT_THROW(orb.build(bodies, 4), std::invalid_argument);
    Bodies none;
    EXPECT_THROW(orb.build(none, 1), std::invalid_argument);
}

} // namespace
} // namespace gravlab
