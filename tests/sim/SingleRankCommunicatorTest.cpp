// A process that mpirun did not start is a world of one rank whose collectives return what it gave them, so the
// distributed code paths run unchanged in a single process.
#include "distributed/SingleRankCommunicator.hpp"

#include <gtest/gtest.h>

namespace gravlab {
namespace {

TEST(SingleRankCommunicator, CollectivesOfOneRankReturnTheirInput) {
    SingleRankCommunicator alone;
    EXPECT_EQ(alone.rank(), 0);
    EXPECT_EQ(alone.size(), 1);
    const std::vector<double> mine{1.5, -2.0, 3.25};
    std::vector<std::size_t> counts;
    EXPECT_EQ(allGather(alone, std::span<const double>(mine), &counts), mine);
    EXPECT_EQ(counts, std::vector<std::size_t>{3});
    EXPECT_EQ(allToAll(alone, std::vector<std::vector<double>>{mine}, &counts), mine);
    EXPECT_THROW(allToAll(alone, std::vector<std::vector<double>>{mine, mine}), std::invalid_argument)
        << "two destinations on one rank";
    std::vector<double> sums = mine;
    alone.allReduceSum(sums);
    EXPECT_EQ(sums, mine);
}

TEST(SingleRankCommunicator, WorldIsOneRankWithoutMpirun) {
    if (std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr)
        GTEST_SKIP() << "started by mpirun";
    EXPECT_EQ(worldCommunicator().size(), 1);
    EXPECT_EQ(worldCommunicator().description(), "single process");
}

} // namespace
} // namespace gravlab
