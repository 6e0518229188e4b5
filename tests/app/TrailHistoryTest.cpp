// Trails: ring buffers that keep the newest kSamplesPerTrail positions oldest first, a bounded set of bodies by id,
// and samples skipped for bodies that are gone.
#include "TrailHistory.hpp"

#include <gtest/gtest.h>

namespace gravlab {
namespace {

BodyPosition at(float k) {
    return {k, 2.0f * k, -k};
}

TEST(TrailHistory, KeepsTheNewestSamplesOldestFirst) {
    TrailHistory trails;
    ASSERT_TRUE(trails.add({77, 2}));
    const std::size_t total = TrailHistory::kSamplesPerTrail + 300; // wraps the ring once
    for (std::size_t k = 0; k < total; ++k) {
        const std::optional<BodyPosition> sample = at(float(k));
        trails.record(std::span(&sample, 1));
    }
    std::vector<BodyPosition> points;
    trails.oldestFirst(0, points);
    ASSERT_EQ(points.size(), TrailHistory::kSamplesPerTrail);
    EXPECT_EQ(points.front(), at(float(total - TrailHistory::kSamplesPerTrail)));
    EXPECT_EQ(points.back(), at(float(total - 1)));
    for (std::size_t k = 1; k < points.size(); ++k)
        ASSERT_EQ(points[k][0], points[k - 1][0] + 1.0f) << "sample " << k;
}

TEST(TrailHistory, ShortTrailsHoldWhatWasRecorded) {
    TrailHistory trails;
    trails.add({1, 0});
    trails.add({2, 0});
    const std::vector<std::optional<BodyPosition>> first{at(1), std::nullopt}; // body 2 is gone this frame
    const std::vector<std::optional<BodyPosition>> second{at(2), at(5)};
    trails.record(first);
    trails.record(second);
    std::vector<BodyPosition> points;
    trails.oldestFirst(0, points);
    EXPECT_EQ(points, (std::vector<BodyPosition>{at(1), at(2)}));
    trails.oldestFirst(1, points);
    EXPECT_EQ(points, (std::vector<BodyPosition>{at(5)}));
    EXPECT_THROW(trails.record(std::vector<std::optional<BodyPosition>>{at(3)}), std::invalid_argument);
}

TEST(TrailHistory, AtMostEightBodiesEachOnce) {
    TrailHistory trails;
    for (std::uint64_t id = 100; id < 100 + TrailHistory::kMaxTrails; ++id)
        EXPECT_TRUE(trails.add({id, 1}));
    EXPECT_FALSE(trails.add({100, 1})) << "already has a trail";
    EXPECT_FALSE(trails.add({999, 1})) << "all trails in use";
    trails.remove(103);
    EXPECT_EQ(trails.size(), TrailHistory::kMaxTrails - 1);
    EXPECT_TRUE(trails.add({999, 1}));
    const std::vector<std::uint64_t> ids = trails.ids();
    EXPECT_EQ(ids.front(), 100u);
    EXPECT_EQ(ids.back(), 999u);
    EXPECT_EQ(std::count(ids.begin(), ids.end(), 103u), 0);
}

TEST(TrailHistory, ClearingSamplesKeepsTheBodies) {
    TrailHistory trails;
    trails.add({5, 3});
    const std::optional<BodyPosition> sample = at(4);
    trails.record(std::span(&sample, 1));
    trails.clearSamples();
    EXPECT_EQ(trails.size(), 1u);
    EXPECT_EQ(trails.sampleCount(0), 0u);
    EXPECT_EQ(trails.body(0), (BodyIdentity{5, 3}));
    trails.clear();
    EXPECT_TRUE(trails.empty());
}

} // namespace
} // namespace gravlab
