// Body records for sending bodies between ranks: the record size and byte layout against values written by hand
// (forEachBodyArray's order, then the work weight), every array and the weight coming back after a round trip, and
// the refusals that keep one rank from sending records the others would misread.
#include "distributed/BodyRecords.hpp"

#include <array>
#include <cstring>
#include <gtest/gtest.h>
#include <stdexcept>

namespace gravlab {
namespace {

/// Five bodies whose every value names its body and array (body b, array a: 10 b + a), low parts included.
Bodies labelledBodies(bool withLowParts) {
    Bodies bodies;
    if (withLowParts)
        for (auto* low : {&bodies.xLow, &bodies.yLow, &bodies.zLow, &bodies.vxLow, &bodies.vyLow, &bodies.vzLow})
            low->resize(5);
    bodies.resize(5);
    for (std::size_t b = 0; b < 5; ++b) {
        const auto base = float(10 * b);
        bodies.x[b] = base + 1, bodies.y[b] = base + 2, bodies.z[b] = base + 3;
        bodies.vx[b] = base + 4, bodies.vy[b] = base + 5, bodies.vz[b] = base + 6;
        bodies.mass[b] = base + 7, bodies.colorKey[b] = base + 8;
        bodies.id[b] = 0x1234567800000000ULL + b;
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
    const auto records = packBodyRecords(bodies, work, destination, 3, true);
    ASSERT_EQ(records.size(), 3u);
    const std::size_t bytes = bodyRecordBytes(true);
    EXPECT_EQ(records[0].size(), 2 * bytes);
    EXPECT_EQ(records[1].size(), 1 * bytes);
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

TEST(BodyRecords, RoundTripKeepsEveryArrayInOrder) {
    for (const bool withLowParts : {false, true}) {
        SCOPED_TRACE(withLowParts ? "with low parts" : "without low parts");
        const Bodies bodies = labelledBodies(withLowParts);
        const std::vector<float> work{0.5f, 1.5f, 2.5f, 3.5f, 4.5f};
        const auto records = packBodyRecords(bodies, work, std::vector<std::uint32_t>{1, 0, 1, 1, 0}, 2, withLowParts);
        Bodies unpacked;
        std::vector<float> unpackedWork;
        unpackBodyRecords(records[1], withLowParts, unpacked, unpackedWork);
        // Rank 1 receives bodies 0, 2 and 3, in that order.
        const std::array<std::size_t, 3> expected{0, 2, 3};
        ASSERT_EQ(unpacked.size(), 3u);
        ASSERT_TRUE(unpacked.consistent());
        EXPECT_EQ(unpacked.hasLowParts(), withLowParts);
        for (std::size_t k = 0; k < 3; ++k) {
            const std::size_t b = expected[k];
            EXPECT_EQ(unpacked.x[k], bodies.x[b]);
            EXPECT_EQ(unpacked.vz[k], bodies.vz[b]);
            EXPECT_EQ(unpacked.colorKey[k], bodies.colorKey[b]);
            EXPECT_EQ(unpacked.id[k], bodies.id[b]);
            EXPECT_EQ(unpacked.component[k], bodies.component[b]);
            EXPECT_EQ(unpackedWork[k], work[b]);
            if (withLowParts) {
                EXPECT_EQ(unpacked.yLow[k], bodies.yLow[b]);
                EXPECT_EQ(unpacked.vzLow[k], bodies.vzLow[b]);
            }
        }
    }
}

TEST(BodyRecords, RefusesRecordsOtherRanksWouldMisread) {
    const Bodies bodies = labelledBodies(false);
    const std::vector<float> work(5, 1.0f);
    const std::vector<std::uint32_t> destination{0, 1, 0, 1, 0};
    EXPECT_THROW(packBodyRecords(bodies, work, destination, 2, true), std::invalid_argument);
    EXPECT_THROW(packBodyRecords(bodies, work, destination, 1, false), std::invalid_argument);
    EXPECT_THROW(packBodyRecords(bodies, std::vector<float>(4, 1.0f), destination, 2, false), std::invalid_argument);
    const auto records = packBodyRecords(bodies, work, destination, 2, false);
    Bodies unpacked;
    std::vector<float> unpackedWork;
    EXPECT_THROW(unpackBodyRecords(std::span(records[0]).first(records[0].size() - 1), false, unpacked, unpackedWork),
                 std::invalid_argument);
}

} // namespace
} // namespace gravlab
