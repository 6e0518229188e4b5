// The world communicator under mpirun (ctest runs this binary on 1 to 4 ranks): every collective delivers what each
// rank sent, computed here independently from the rank numbers, in rank order, the same on every rank.
#include <gravlab/sim/Communicator.hpp>

#include <cstdint>
#include <cstdlib>
#include <gtest/gtest.h>
#include <numeric>

namespace gravlab {
namespace {

/// Rank r contributes r + 1 values r * 100 + k, so sizes and contents differ between ranks.
std::vector<std::uint64_t> valuesOfRank(int rank) {
    std::vector<std::uint64_t> values(std::size_t(rank) + 1);
    for (std::size_t k = 0; k < values.size(); ++k)
        values[k] = std::uint64_t(rank) * 100 + k;
    return values;
}

TEST(CommunicatorMpi, WorldHasTheRanksMpirunStarted) {
    Communicator& world = worldCommunicator();
    const char* announced = std::getenv("OMPI_COMM_WORLD_SIZE");
    ASSERT_NE(announced, nullptr) << "run this binary under mpirun";
    EXPECT_EQ(world.size(), std::atoi(announced));
    EXPECT_GE(world.rank(), 0);
    EXPECT_LT(world.rank(), world.size());
}

TEST(CommunicatorMpi, AllGatherConcatenatesInRankOrder) {
    Communicator& world = worldCommunicator();
    const std::vector<std::uint64_t> mine = valuesOfRank(world.rank());
    std::vector<std::size_t> counts;
    const std::vector<std::uint64_t> all = allGather(world, std::span<const std::uint64_t>(mine), &counts);
    std::vector<std::uint64_t> expected;
    for (int r = 0; r < world.size(); ++r) {
        const std::vector<std::uint64_t> theirs = valuesOfRank(r);
        expected.insert(expected.end(), theirs.begin(), theirs.end());
        EXPECT_EQ(counts[std::size_t(r)], theirs.size()) << "rank " << r;
    }
    EXPECT_EQ(all, expected);
}

TEST(CommunicatorMpi, AllToAllDeliversEachRanksMessage) {
    Communicator& world = worldCommunicator();
    // Rank s sends rank d the values s * 1000 + d, repeated d + 1 times.
    std::vector<std::vector<std::uint64_t>> sends(std::size_t(world.size()));
    for (int d = 0; d < world.size(); ++d)
        sends[std::size_t(d)].assign(std::size_t(d) + 1, std::uint64_t(world.rank()) * 1000 + std::uint64_t(d));
    std::vector<std::size_t> counts;
    const std::vector<std::uint64_t> received = allToAll(world, sends, &counts);
    std::vector<std::uint64_t> expected;
    for (int s = 0; s < world.size(); ++s)
        expected.insert(expected.end(), std::size_t(world.rank()) + 1,
                        std::uint64_t(s) * 1000 + std::uint64_t(world.rank()));
    EXPECT_EQ(received, expected);
    ASSERT_EQ(counts.size(), std::size_t(world.size()));
    for (const std::size_t count : counts)
        EXPECT_EQ(count, std::size_t(world.rank()) + 1);
}

TEST(CommunicatorMpi, ReductionsAndBroadcastAgreeOnEveryRank) {
    Communicator& world = worldCommunicator();
    const auto n = std::uint64_t(world.size());
    std::vector<double> sums{double(world.rank()), 1.0};
    world.allReduceSum(sums);
    EXPECT_EQ(sums[0], double(n * (n - 1) / 2));
    EXPECT_EQ(sums[1], double(n));
    std::vector<std::uint64_t> counts{std::uint64_t(world.rank()) + 1};
    world.allReduceSum(counts);
    EXPECT_EQ(counts[0], n * (n + 1) / 2);
    std::vector<double> largest{-double(world.rank())};
    world.allReduceMax(largest);
    EXPECT_EQ(largest[0], 0.0);
    std::uint64_t value = world.rank() == world.size() - 1 ? 424242u : 0u;
    world.broadcastBytes(std::as_writable_bytes(std::span<std::uint64_t>(&value, 1)), world.size() - 1);
    EXPECT_EQ(value, 424242u);
}

} // namespace
} // namespace gravlab
