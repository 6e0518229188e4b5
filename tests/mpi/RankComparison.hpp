#pragma once
// What the distributed backends' tests share: the parameters they step with, a seed shared by the ranks, bodies put in
// id order (the ranks' domains reorder them), the check that a rolled-back state is the loaded one again, the refusal
// of fewer bodies than ranks, and the largest position difference relative to the system's size.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Communicator.hpp>
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gravlab {

/// solver at dt 0.01 with softening 0.05: a Plummer sphere of a few thousand bodies steps stably.
inline SimParams rankTestParams(std::string_view solver) {
    SimParams params;
    params.solver = std::string(solver);
    params.timeStep = 0.01;
    params.softeningLength = 0.05;
    return params;
}

/// A fresh seed per run, the same on every rank (rank 0's, broadcast). Collective.
inline std::uint64_t sharedSeed() {
    std::uint64_t seed = std::random_device{}();
    worldCommunicator().broadcastBytes(std::as_writable_bytes(std::span<std::uint64_t>(&seed, 1)), 0);
    return seed;
}

/// How many ranks say holds: a check that every rank did something together. Collective.
inline std::uint64_t ranksWhere(bool holds) {
    std::uint64_t count = holds ? 1 : 0;
    worldCommunicator().allReduceSum(std::span<std::uint64_t>(&count, 1));
    return count;
}

/// The bodies in id order.
inline Bodies inIdOrder(const Bodies& bodies) {
    std::vector<std::size_t> order(bodies.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return bodies.id[a] < bodies.id[b]; });
    Bodies sorted;
    sorted.resize(bodies.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::size_t i = order[k];
        sorted.x[k] = bodies.x[i], sorted.y[k] = bodies.y[i], sorted.z[k] = bodies.z[i];
        sorted.vx[k] = bodies.vx[i], sorted.vy[k] = bodies.vy[i], sorted.vz[k] = bodies.vz[i];
        sorted.mass[k] = bodies.mass[i], sorted.id[k] = bodies.id[i], sorted.component[k] = bodies.component[i];
        sorted.colorKey[k] = bodies.colorKey[i];
    }
    return sorted;
}

/// Expects the bodies backend reads back (collective) to be initial's again after a rollback: positions and velocities
/// bit for bit, compared in id order.
inline void expectBodiesRestored(const SimulationBackend& backend, const Bodies& initial, std::uint64_t seed) {
    Bodies restored;
    backend.readBodies(restored);
    restored = inIdOrder(restored);
    const Bodies expected = inIdOrder(initial);
    EXPECT_EQ(restored.x, expected.x) << "seed " << seed;
    EXPECT_EQ(restored.vx, expected.vx) << "seed " << seed;
}

/// Largest |x_a - x_b| over bodies and axes, relative to the largest |x_b| (the system's size): position errors of a
/// step are rounding of positions of that size.
inline double largestRelativePositionDifference(const Bodies& a, const Bodies& b) {
    double difference = 0, size = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
        difference = std::max({difference, std::abs(double(a.x[i]) - b.x[i]), std::abs(double(a.y[i]) - b.y[i]),
                               std::abs(double(a.z[i]) - b.z[i])});
        size = std::max({size, std::abs(double(b.x[i])), std::abs(double(b.y[i])), std::abs(double(b.z[i]))});
    }
    return difference / size;
}

/// One body fewer than ranks is refused on every rank, before any collective, naming the body and rank counts; one
/// body per rank then loads, one on each rank. Backend: a distributed backend (rankDomains()). Collective.
template <typename Backend> void expectFewerBodiesThanRanksRefused(Backend& backend) {
    const int ranks = worldCommunicator().size();
    const Bodies initial = generateScenario("plummer", std::size_t(ranks), sharedSeed());
    Bodies tooFew = initial;
    tooFew.resize(std::size_t(ranks - 1));
    bool refused = false;
    try {
        backend.load(tooFew);
    } catch (const InvalidParameterError& error) {
        refused = true;
        EXPECT_EQ(error.field(), "bodies");
        EXPECT_NE(std::string(error.what()).find(std::to_string(ranks) + " MPI ranks"), std::string::npos)
            << error.what();
    }
    EXPECT_EQ(ranksWhere(refused), std::uint64_t(ranks));
    backend.load(initial);
    EXPECT_EQ(backend.rankDomains().bodiesPerRank, std::vector<std::uint64_t>(std::size_t(ranks), 1));
}

} // namespace gravlab
