#pragma once
// Shared by the distributed ORB tests: a scenario every rank generates alike (rank 0's fresh seed, broadcast), a
// deterministic slice of it per rank, and the independent reference, OrbCpu on the whole set built by every rank.
// Helpers that call collectives say so; the tests call them on every rank in the same order, outside assertions.
#include "TestSupport.hpp"
#include "distributed/DistributedOrb.hpp"
#include "orb/OrbCpu.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <algorithm>
#include <gtest/gtest.h>
#include <numeric>
#include <random>
#include <span>
#include <tuple>
#include <vector>

namespace gravlab::test {

/// Rank 0's fresh seed, on every rank. Collective.
inline std::uint64_t agreedSeed(Communicator& world) {
    std::uint64_t seed = world.rank() == 0 ? freshSeed() : 0;
    world.broadcastBytes(std::as_writable_bytes(std::span<std::uint64_t>(&seed, 1)), 0);
    return seed;
}

/// The bodies at the given indices of all, in that order, every per-body array included.
inline Bodies pickBodies(const Bodies& all, std::span<const std::size_t> indices) {
    Bodies picked = all;
    forEachBodyArray(picked, [&](auto& array) {
        const auto source = array;
        array.resize(indices.size());
        for (std::size_t k = 0; k < indices.size(); ++k)
            array[k] = source[indices[k]];
    });
    return picked;
}

template <typename Value>
std::vector<Value> pickValues(const std::vector<Value>& all, std::span<const std::size_t> at) {
    std::vector<Value> picked(at.size());
    for (std::size_t k = 0; k < at.size(); ++k)
        picked[k] = all[at[k]];
    return picked;
}

/// Indices i of [0, count) with i % size == rank: the rank's share before the first re-partition.
inline std::vector<std::size_t> sliceIndices(std::size_t count, int rank, int size) {
    std::vector<std::size_t> indices;
    for (std::size_t i = std::size_t(rank); i < count; i += std::size_t(size))
        indices.push_back(i);
    return indices;
}

/// Weights that sum exactly in any order (multiples of 1/4 in [0.5, 4], so N of them need under 24 bits): the ranks
/// and OrbCpu add them in different orders, and exact sums let the cuts be compared exactly.
inline std::vector<float> exactWeights(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 random(seed ^ 0x5eedf00dULL);
    std::uniform_int_distribution<int> quarters(2, 16);
    std::vector<float> weights(count);
    for (float& weight : weights)
        weight = float(quarters(random)) / 4.0f;
    return weights;
}

/// Displacements of a few steps' drift, indexed by id (normal, sigma length units per axis), the same on every rank.
inline Vec3Arrays<float> driftById(std::size_t count, std::uint64_t seed, double sigma) {
    std::mt19937_64 random(seed ^ 0xd1f7ULL);
    std::normal_distribution<double> offset(0.0, sigma);
    Vec3Arrays<float> drift;
    drift.resize(count);
    for (std::size_t id = 0; id < count; ++id) {
        drift.x[id] = float(offset(random));
        drift.y[id] = float(offset(random));
        drift.z[id] = float(offset(random));
    }
    return drift;
}

/// Moves every body by its id's drift.
inline void applyDrift(Bodies& bodies, const Vec3Arrays<float>& drift) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        bodies.x[i] += drift.x[bodies.id[i]];
        bodies.y[i] += drift.y[bodies.id[i]];
        bodies.z[i] += drift.z[bodies.id[i]];
    }
}

/// All the bodies' ids of all ranks, sorted. Collective.
inline std::vector<std::uint64_t> sortedIdsOfAllRanks(Communicator& world, const Bodies& local) {
    std::vector<std::uint64_t> ids = allGather(world, std::span<const std::uint64_t>(local.id));
    std::sort(ids.begin(), ids.end());
    return ids;
}

/// The ids of each reference domain, sorted.
inline std::vector<std::vector<std::uint64_t>> idsByDomain(const std::vector<OrbCell>& cells, const Bodies& bodies) {
    std::vector<std::vector<std::uint64_t>> ids(cells.front().domainCount);
    for (const OrbCell& cell : cells)
        if (cell.isLeaf()) {
            ids[cell.firstDomain].assign(bodies.id.begin() + cell.begin, bodies.id.begin() + cell.end);
            std::sort(ids[cell.firstDomain].begin(), ids[cell.firstDomain].end());
        }
    return ids;
}

inline ::testing::AssertionResult sameCells(const std::vector<OrbCell>& found, const std::vector<OrbCell>& expected) {
    if (found.size() != expected.size())
        return ::testing::AssertionFailure() << found.size() << " cells, expected " << expected.size();
    const auto fields = [](const OrbCell& c) {
        return std::tuple(c.lower[0], c.lower[1], c.lower[2], c.upper[0], c.upper[1], c.upper[2], c.begin, c.end,
                          c.leftChild, c.cutAxis, c.firstDomain, c.domainCount);
    };
    for (std::size_t k = 0; k < found.size(); ++k)
        if (fields(found[k]) != fields(expected[k]))
            return ::testing::AssertionFailure()
                   << "cell " << k << " differs: range [" << found[k].begin << ", " << found[k].end << ") expected ["
                   << expected[k].begin << ", " << expected[k].end << "), axis " << found[k].cutAxis << " expected "
                   << expected[k].cutAxis << ", upper (" << found[k].upper[0] << ", " << found[k].upper[1] << ", "
                   << found[k].upper[2] << ") expected (" << expected[k].upper[0] << ", " << expected[k].upper[1]
                   << ", " << expected[k].upper[2] << ")";
    return ::testing::AssertionSuccess();
}

/// Whether each local body (and weight) is, array for array, the body of the same id in all (ids are indices).
inline ::testing::AssertionResult bodiesAreTheOriginals(const Bodies& local, const std::vector<float>& work,
                                                        const Bodies& all, const std::vector<float>& allWork) {
    std::vector<std::size_t> indices(local.size());
    for (std::size_t k = 0; k < local.size(); ++k) {
        if (local.id[k] >= all.size())
            return ::testing::AssertionFailure() << "unknown id " << local.id[k];
        indices[k] = std::size_t(local.id[k]);
    }
    const Bodies expected = pickBodies(all, indices);
    const auto arrays = [](const Bodies& b) {
        return std::tie(b.x, b.y, b.z, b.vx, b.vy, b.vz, b.mass, b.colorKey, b.id, b.component, b.xLow, b.yLow, b.zLow,
                        b.vxLow, b.vyLow, b.vzLow);
    };
    if (arrays(local) != arrays(expected))
        return ::testing::AssertionFailure() << "a body arrived with another body's state";
    if (work != pickValues(allWork, indices))
        return ::testing::AssertionFailure() << "a body arrived with another body's work weight";
    return ::testing::AssertionSuccess();
}

/// Whether every local body lies in the closed box of the leaf that is this rank's domain.
inline ::testing::AssertionResult insideDomainBox(const RankDomains& domains, const Bodies& local, int rank) {
    for (const OrbCell& cell : domains.cells) {
        if (!cell.isLeaf() || cell.firstDomain != std::uint32_t(rank))
            continue;
        for (std::size_t i = 0; i < local.size(); ++i) {
            const float position[3] = {local.x[i], local.y[i], local.z[i]};
            for (int axis = 0; axis < 3; ++axis)
                if (position[axis] < cell.lower[axis] || position[axis] > cell.upper[axis])
                    return ::testing::AssertionFailure()
                           << "body id " << local.id[i] << " lies outside rank " << rank << "'s box on axis " << axis;
        }
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "no leaf is rank " << rank << "'s domain";
}

} // namespace gravlab::test
