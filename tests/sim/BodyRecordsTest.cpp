// Body records for sending bodies between ranks: the record size and byte layout against values written by hand
// (forEachBodyArray's order, then the work weight), a rank's arrays after an exchange (arrivals by source rank around
// its own staying bodies, every array and weight the sender's), and the refusals that keep one rank from sending
// records the others would misread.
#include "distributed/BodyRecords.hpp"

#include <array>
#include <cstring>
#include <gtest/gtest.h>
#include <stdexcept>

namespace gravlab {
namespace {

/// Five bodies whose every value names its set, body and array (set s, body b, array a: 100 s + 10 b + a), low parts
/// included when asked for.
Bodies labelledBodies(bool withLowParts, int set = 0) {
    Bodies bodies;
    if (withLowParts)
        for (auto* low : {&bodies.xLow, &bodies.yLow, &bodies.zLow, &bodies.vxLow, &bodies.vyLow, &bodies.vzLow})
            low->resize(5);
    bodies.resize(5);
    for (std::size_t b = 0; b < 5; ++b) {
        const auto base = float(100 * set + 10 * int(b));
        bodies.x[b] = base + 1, bodies.y[b] = base + 2, bodies.z[b] = base + 3;
        bodies.vx[b] = base + 4, bodies.vy[b] = base + 5, bodies.vz[b] = base + 6;
        bodies.mass[b] = base + 7, bodies.colorKey[b] = base + 8;
        bodies.id[b] = 0x1234567800000000ULL + 10 * std::uint64_t(set) + b;
        bodies.component[b] = std::uint8_t(b);
        if (withLowParts) {
            bodies.xLow[b] = 1e-9f * base, bodies.yLow[b] = 2e-9f * base, bodies.zLow[b] = 3e-9f * base;
            bodies.vxLow[b] = -1e-9f * base, bodies.vyLow[b] = -2e-9f * base, bodies.vzLow[b] = -3e-9f * base;
        }
    }
    return bodies;
}

TEST(BodyRecords, RecordHoldsEveryArrayThenTheWeight) {
    // 8 floats, a 64-bit id, a byte of component, a float weight; and 6 floats of low parts in double precision.
    EXPECT_EQ(bodyRecordBytes(false), 8 * 4 + 8 + 1 + 4u);
    EXPECT_EQ(bodyRecordBytes(true), 8 * 4 + 8 + 1 + 6 * 4 + 4u);

    const Bodies bodies = labelledBodies(true);
    const std::vector<float> work{0.5f, 1.5f, 2.5f, 3.5f, 4.5f};
    const std::vector<std::uint32_t> destination{2, 0, 2, 1, 0};
    const auto records = packBodyRecords(bodies, work, destination, 3, 1, true);
    ASSERT_EQ(records.size(), 3u);
    const std::size_t bytes = bodyRecordBytes(true);
    EXPECT_EQ(records[0].size(), 2 * bytes);
    EXPECT_TRUE(records[1].empty()) << "bodies that stay are not packed";
    EXPECT_EQ(records[2].size(), 2 * bytes);

    // The second record for rank 0 is body 4: x at offset 0, mass at 24, id at 32, component at 40, xLow at 41, the
    // weight last.
    const std::byte* record = records[0].data() + bytes;
    float x = 0, mass = 0, xLow = 0, weight = 0;
    std::uint64_t id = 0;
    std::memcpy(&x, record, 4);
    std::memcpy(&mass, record + 24, 4);
    std::memcpy(&id, record + 32, 8);
    std::memcpy(&xLow, record + 41, 4);
    std::memcpy(&weight, record + bytes - 4, 4);
    EXPECT_EQ(x, 41.0f);
    EXPECT_EQ(mass, 47.0f);
    EXPECT_EQ(id, 0x1234567800000004ULL);
    EXPECT_EQ(std::to_integer<int>(record[40]), 4);
    EXPECT_EQ(xLow, 1e-9f * 40.0f);
    EXPECT_EQ(weight, 4.5f);
}

TEST(BodyRecords, ArrivalsSurroundTheStayingBodiesBySourceRank) {
    for (const bool withLowParts : {false, true}) {
        SCOPED_TRACE(withLowParts ? "with low parts" : "without low parts");
        // Rank 1 of 3 keeps its bodies 1 and 4; rank 0 sends it bodies 0, 2 and 3, rank 2 sends it body 3.
        const Bodies fromRank0 = labelledBodies(withLowParts, 1), fromRank2 = labelledBodies(withLowParts, 2);
        const std::vector<float> work0{0.5f, 1.5f, 2.5f, 3.5f, 4.5f}, work2{5.5f, 6.5f, 7.5f, 8.5f, 9.5f};
        const auto sent0 =
            packBodyRecords(fromRank0, work0, std::vector<std::uint32_t>{1, 0, 1, 1, 0}, 3, 0, withLowParts);
        const auto sent2 =
            packBodyRecords(fromRank2, work2, std::vector<std::uint32_t>{2, 2, 0, 1, 2}, 3, 2, withLowParts);
        Bodies mine = labelledBodies(withLowParts, 0);
        const Bodies original = mine;
        std::vector<float> work{10.5f, 11.5f, 12.5f, 13.5f, 14.5f};
        const std::vector<float> originalWork = work;
        const std::size_t recordBytes = bodyRecordBytes(withLowParts);
        keepBodiesAmongArrivals(mine, work, std::vector<std::uint32_t>{0, 1, 2, 0, 1}, 1, sent0[1].size() / recordBytes,
                                sent2[1].size() / recordBytes, withLowParts);
        unpackBodyRecords(sent0[1], withLowParts, mine, work, 0);
        unpackBodyRecords(sent2[1], withLowParts, mine, work, 5);

        // (source, body) of each slot: rank 0's 0, 2, 3, then this rank's own 1 and 4, then rank 2's 3.
        const std::array<std::pair<int, std::size_t>, 6> expected{{{0, 0}, {0, 2}, {0, 3}, {1, 1}, {1, 4}, {2, 3}}};
        ASSERT_EQ(mine.size(), 6u);
        ASSERT_TRUE(mine.consistent());
        ASSERT_EQ(work.size(), 6u);
        EXPECT_EQ(mine.hasLowParts(), withLowParts);
        for (std::size_t k = 0; k < expected.size(); ++k) {
            const auto [source, b] = expected[k];
            const Bodies& from = source == 0 ? fromRank0 : source == 1 ? original : fromRank2;
            const std::vector<float>& fromWork = source == 0 ? work0 : source == 1 ? originalWork : work2;
            SCOPED_TRACE("slot " + std::to_string(k));
            EXPECT_EQ(mine.x[k], from.x[b]);
            EXPECT_EQ(mine.vz[k], from.vz[b]);
            EXPECT_EQ(mine.mass[k], from.mass[b]);
            EXPECT_EQ(mine.colorKey[k], from.colorKey[b]);
            EXPECT_EQ(mine.id[k], from.id[b]);
            EXPECT_EQ(mine.component[k], from.component[b]);
            EXPECT_EQ(work[k], fromWork[b]);
            if (withLowParts) {
                EXPECT_EQ(mine.yLow[k], from.yLow[b]);
                EXPECT_EQ(mine.vzLow[k], from.vzLow[b]);
            }
        }
    }
}

TEST(BodyRecords, ARankWithoutBodiesReceivesLowParts) {
    const Bodies sender = labelledBodies(true, 1);
    const auto sent =
        packBodyRecords(sender, std::vector<float>(5, 1.0f), std::vector<std::uint32_t>{0, 1, 1, 0, 1}, 2, 0, true);
    Bodies empty;
    std::vector<float> work;
    keepBodiesAmongArrivals(empty, work, {}, 1, sent[1].size() / bodyRecordBytes(true), 0, true);
    unpackBodyRecords(sent[1], true, empty, work, 0);
    ASSERT_EQ(empty.size(), 3u);
    ASSERT_TRUE(empty.consistent());
    EXPECT_EQ(empty.xLow, (std::vector<float>{sender.xLow[1], sender.xLow[2], sender.xLow[4]}));
    EXPECT_EQ(empty.id, (std::vector<std::uint64_t>{sender.id[1], sender.id[2], sender.id[4]}));
}

TEST(BodyRecords, RefusesRecordsOtherRanksWouldMisread) {
    const Bodies bodies = labelledBodies(false);
    const std::vector<float> work(5, 1.0f);
    const std::vector<std::uint32_t> destination{0, 1, 0, 1, 0};
    EXPECT_THROW(packBodyRecords(bodies, work, destination, 2, 0, true), std::invalid_argument);
    EXPECT_THROW(packBodyRecords(bodies, work, destination, 1, 0, false), std::invalid_argument);
    EXPECT_THROW(packBodyRecords(bodies, std::vector<float>(4, 1.0f), destination, 2, 0, false), std::invalid_argument);
    const auto records = packBodyRecords(bodies, work, destination, 2, 0, false);
    Bodies room = bodies;
    std::vector<float> roomWork = work;
    EXPECT_THROW(unpackBodyRecords(std::span(records[1]).first(records[1].size() - 1), false, room, roomWork, 0),
                 std::invalid_argument);
    EXPECT_THROW(unpackBodyRecords(records[1], false, room, roomWork, 4), std::invalid_argument) << "past the end";
    EXPECT_THROW(unpackBodyRecords(records[1], true, room, roomWork, 0), std::invalid_argument) << "layout differs";
}

} // namespace
} // namespace gravlab
