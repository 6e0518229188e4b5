// Tipsy files in both byte orders: files written by Python's struct (tests/data/write_reference_snapshots.py) read bit
// for bit, written files decoded byte by byte here, round trips of random bit patterns, and every malformed input
// refused with a message that says what and where, before anything is allocated.
#include "HeapPeak.hpp"
#include "SnapshotTestSupport.hpp"
#include "TestSupport.hpp"

#include <gravlab/sim/Snapshot.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <vector>

namespace gravlab {
namespace {

using snapshottest::contains;
using snapshottest::readBytes;
using snapshottest::sameBits;
using snapshottest::snapshotErrorOf;
using snapshottest::writeBytes;

/// Tipsy bytes assembled here with shifts, sharing nothing with the writer under test.
class HandTipsy {
public:
    explicit HandTipsy(bool bigEndian) : m_bigEndian(bigEndian) {}

    HandTipsy& header(std::int32_t nbodies, std::int32_t ndim, std::int32_t nsph, std::int32_t ndark,
                      std::int32_t nstar, std::size_t headerBytes, double time = 0) {
        appendWord(std::uint32_t(std::bit_cast<std::uint64_t>(time) >> (m_bigEndian ? 32 : 0)));
        appendWord(std::uint32_t(std::bit_cast<std::uint64_t>(time) >> (m_bigEndian ? 0 : 32)));
        for (std::int32_t field : {nbodies, ndim, nsph, ndark, nstar})
            appendWord(std::uint32_t(field));
        m_bytes.resize(headerBytes);
        return *this;
    }
    /// One record: mass, x, y, z, vx, vy, vz, zeros, and the last field's bits.
    HandTipsy& record(const std::array<float, 7>& values, std::size_t floatCount, std::uint32_t last = 0) {
        for (float value : values)
            appendWord(std::bit_cast<std::uint32_t>(value));
        for (std::size_t field = values.size(); field + 1 < floatCount; ++field)
            appendWord(0);
        appendWord(last);
        return *this;
    }
    const std::vector<std::byte>& bytes() const { return m_bytes; }

private:
    void appendWord(std::uint32_t word) {
        for (int i = 0; i < 4; ++i)
            m_bytes.push_back(std::byte(word >> (m_bigEndian ? 24 - 8 * i : 8 * i)));
    }

    bool m_bigEndian;
    std::vector<std::byte> m_bytes;
};

constexpr std::size_t kGasFloats = 12, kDarkFloats = 9, kStarFloats = 11;
constexpr std::array<float, 7> kGoodRecord{1, 0.5f, -0.5f, 2, 0.1f, 0.2f, -0.3f};

std::uint32_t wordAt(const std::vector<std::byte>& bytes, std::size_t offset, bool bigEndian) {
    std::uint32_t word = 0;
    for (int i = 0; i < 4; ++i)
        word |= std::uint32_t(bytes[offset + std::size_t(i)]) << (bigEndian ? 24 - 8 * i : 8 * i);
    return word;
}

float floatAt(const std::vector<std::byte>& bytes, std::size_t offset, bool bigEndian) {
    return std::bit_cast<float>(wordAt(bytes, offset, bigEndian));
}

struct TipsyFileTest : testing::Test {
    test::TemporaryFolder folder;
    std::uint64_t seed = test::freshSeed();
    std::filesystem::path path(const char* name) const { return folder.path() / name; }
};

TEST_F(TipsyFileTest, ReadsBigEndianFilesWrittenByPython) {
    SCOPED_TRACE(test::seedTrace(seed));
    ASSERT_TRUE(snapshottest::writeReferenceSnapshots(folder.path(), seed));
    for (const char* name : {"big.tipsy", "big_padded.std"}) {
        SCOPED_TRACE(name);
        EXPECT_EQ(detectSnapshotFormat(path(name)), SnapshotFormat::Tipsy);
        snapshottest::expectSnapshotMatches(readSnapshot(path(name)), snapshottest::readExpected(path(name)));
        snapshottest::expectSnapshotMatches(readSnapshot(path(name), SnapshotFormat::Tipsy),
                                            snapshottest::readExpected(path(name)));
    }
}

TEST_F(TipsyFileTest, ReadsNativeFileWithIdsWrittenByPython) {
    SCOPED_TRACE(test::seedTrace(seed));
    ASSERT_TRUE(snapshottest::writeReferenceSnapshots(folder.path(), seed));
    EXPECT_EQ(detectSnapshotFormat(path("native.bin")), SnapshotFormat::TipsyNative);
    snapshottest::expectSnapshotMatches(readSnapshot(path("native.bin")),
                                        snapshottest::readExpected(path("native.bin")));
}

/// The bodies of `written` in the order a tipsy file holds them: gas, then dark (every other component), then stars.
std::vector<std::size_t> tipsyFileOrder(const Bodies& written) {
    std::vector<std::size_t> order;
    for (auto inGroup : {+[](std::uint8_t c) { return c == kGasComponent; },
                         +[](std::uint8_t c) { return c != kGasComponent && c != kStarComponent; },
                         +[](std::uint8_t c) { return c == kStarComponent; }})
        for (std::size_t i = 0; i < written.size(); ++i)
            if (inGroup(written.component[i]))
                order.push_back(i);
    return order;
}

void expectRoundTrip(const Snapshot& written, const Snapshot& read, bool idsKept) {
    ASSERT_EQ(read.bodies.size(), written.bodies.size());
    EXPECT_TRUE(sameBits(read.time, written.time));
    const std::vector<std::size_t> order = tipsyFileOrder(written.bodies);
    const Bodies& in = written.bodies;
    const Bodies& out = read.bodies;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::size_t i = order[k];
        const std::uint8_t component = in.component[i] == kGasComponent || in.component[i] == kStarComponent
                                           ? in.component[i]
                                           : kDarkMatterComponent;
        const bool same = sameBits(out.x[k], in.x[i]) && sameBits(out.y[k], in.y[i]) && sameBits(out.z[k], in.z[i]) &&
                          sameBits(out.vx[k], in.vx[i]) && sameBits(out.vy[k], in.vy[i]) &&
                          sameBits(out.vz[k], in.vz[i]) && sameBits(out.mass[k], in.mass[i]) &&
                          out.component[k] == component && out.colorKey[k] == componentColorKey(component) &&
                          out.id[k] == (idsKept ? in.id[i] : k);
        ASSERT_TRUE(same) << "record " << k << " (written body " << i << ", component " << int(in.component[i])
                          << "): x " << out.x[k] << " vs " << in.x[i] << ", id " << out.id[k];
    }
}

TEST_F(TipsyFileTest, BigEndianRoundTripIsBitExactAndGroupsByComponent) {
    SCOPED_TRACE(test::seedTrace(seed));
    std::mt19937_64 random(seed);
    const Snapshot written = snapshottest::randomSnapshot(3000, random, {0, 1, 2, 3, 4, 5});
    writeSnapshot(path("round.tipsy"), written);
    EXPECT_EQ(detectSnapshotFormat(path("round.tipsy")), SnapshotFormat::Tipsy);
    expectRoundTrip(written, readSnapshot(path("round.tipsy")), false);
}

TEST_F(TipsyFileTest, NativeRoundTripKeepsIds) {
    SCOPED_TRACE(test::seedTrace(seed));
    std::mt19937_64 random(seed);
    Snapshot written = snapshottest::randomSnapshot(3000, random, {0, 1, 4, 5});
    for (std::uint64_t& id : written.bodies.id)
        id >>= 33; // int32 range
    written.bodies.id.back() = std::numeric_limits<std::int32_t>::max();
    writeSnapshot(path("round.bin"), written, SnapshotFormat::TipsyNative);
    EXPECT_EQ(detectSnapshotFormat(path("round.bin")), SnapshotFormat::TipsyNative);
    expectRoundTrip(written, readSnapshot(path("round.bin")), true);
}

TEST_F(TipsyFileTest, WrittenFilesHaveTheLayoutOtherCodesRead) {
    Snapshot snapshot;
    snapshot.time = 0.625;
    snapshot.bodies.resize(3);
    snapshot.bodies.component = {kStarComponent, 3, kGasComponent}; // written gas, dark, star
    snapshot.bodies.id = {7, 8, 9};
    for (std::size_t i = 0; i < 3; ++i) {
        snapshot.bodies.mass[i] = float(i + 1);
        snapshot.bodies.x[i] = 10.0f * float(i + 1);
        snapshot.bodies.vz[i] = -0.5f * float(i + 1);
    }
    for (const bool bigEndian : {true, false}) {
        SCOPED_TRACE(bigEndian ? "big-endian" : "native");
        const auto file = path(bigEndian ? "layout.tipsy" : "layout.bin");
        writeSnapshot(file, snapshot, bigEndian ? SnapshotFormat::Tipsy : SnapshotFormat::TipsyNative);
        const std::vector<std::byte> bytes = readBytes(file);
        const std::size_t header = bigEndian ? 28 : 32;
        ASSERT_EQ(bytes.size(), header + 4 * (kGasFloats + kDarkFloats + kStarFloats));
        const std::uint64_t timeBits = bigEndian
                                           ? std::uint64_t(wordAt(bytes, 0, true)) << 32 | wordAt(bytes, 4, true)
                                           : std::uint64_t(wordAt(bytes, 4, false)) << 32 | wordAt(bytes, 0, false);
        EXPECT_EQ(std::bit_cast<double>(timeBits), 0.625);
        const std::array<std::uint32_t, 5> counts{3, 3, 1, 1, 1}; // nbodies, ndim, nsph, ndark, nstar
        for (std::size_t field = 0; field < counts.size(); ++field)
            EXPECT_EQ(wordAt(bytes, 8 + 4 * field, bigEndian), counts[field]) << "header field " << field;
        // (written body, record offset, floats per record)
        const std::array<std::array<std::size_t, 3>, 3> records{
            {{2, header, kGasFloats},
             {1, header + 4 * kGasFloats, kDarkFloats},
             {0, header + 4 * (kGasFloats + kDarkFloats), kStarFloats}}};
        for (const auto& [body, offset, floats] : records) {
            EXPECT_EQ(floatAt(bytes, offset, bigEndian), snapshot.bodies.mass[body]);
            EXPECT_EQ(floatAt(bytes, offset + 4, bigEndian), snapshot.bodies.x[body]);
            EXPECT_EQ(floatAt(bytes, offset + 24, bigEndian), snapshot.bodies.vz[body]);
            for (std::size_t field = 7; field + 1 < floats; ++field)
                EXPECT_EQ(wordAt(bytes, offset + 4 * field, bigEndian), 0u) << "unkept field " << field;
            EXPECT_EQ(wordAt(bytes, offset + 4 * (floats - 1), bigEndian), bigEndian ? 0 : snapshot.bodies.id[body]);
        }
    }
}

TEST_F(TipsyFileTest, NativeRefusesIdsBeyondInt32NamingTheBody) {
    std::mt19937_64 random(seed);
    Snapshot snapshot = snapshottest::randomSnapshot(10, random, {1});
    std::fill(snapshot.bodies.id.begin(), snapshot.bodies.id.end(), 5);
    snapshot.bodies.id[6] = std::uint64_t{1} << 31;
    const std::string message =
        snapshotErrorOf([&] { writeSnapshot(path("ids.bin"), snapshot, SnapshotFormat::TipsyNative); });
    EXPECT_TRUE(contains(message, "body 6 has id 2147483648"));
    EXPECT_TRUE(contains(message, "--format hdf5"));
    EXPECT_TRUE(snapshottest::folderEntries(folder.path()).empty()) << "a partial file was left behind";
}

TEST_F(TipsyFileTest, TruncatedAndOverlongFilesNameBothSizes) {
    SCOPED_TRACE(test::seedTrace(seed));
    ASSERT_TRUE(snapshottest::writeReferenceSnapshots(folder.path(), seed));
    std::vector<std::byte> bytes = readBytes(path("big.tipsy"));
    const std::string need = "the header's counts need " + std::to_string(bytes.size());
    bytes.resize(bytes.size() - 5);
    writeBytes(path("cut.tipsy"), bytes);
    std::string message = snapshotErrorOf([&] { readSnapshot(path("cut.tipsy")); });
    EXPECT_TRUE(contains(message, "truncated: " + std::to_string(bytes.size()) + " bytes, " + need));
    bytes.resize(bytes.size() + 13);
    writeBytes(path("long.tipsy"), bytes);
    message = snapshotErrorOf([&] { readSnapshot(path("long.tipsy")); });
    EXPECT_TRUE(contains(message, "too long: " + std::to_string(bytes.size()) + " bytes, " + need));
    writeBytes(path("short.tipsy"), std::vector<std::byte>(20));
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("short.tipsy"), SnapshotFormat::Tipsy); }),
                         "truncated: 20 bytes, shorter than the 28-byte tipsy header"));
}

TEST_F(TipsyFileTest, HugeHeaderCountsAreRefusedBeforeAnythingIsAllocated) {
    const std::int32_t most = std::numeric_limits<std::int32_t>::max();
    writeBytes(path("most.tipsy"), HandTipsy(true).header(most, 3, 0, most, 0, 28).bytes());
    const auto allowed = std::int32_t(kMaxSnapshotBodies);
    writeBytes(path("allowed.tipsy"), HandTipsy(true).header(allowed, 3, 0, 0, allowed, 28).bytes());
    // Counts whose sum, 2^32 + 5, wraps to nbodies = 5 in 32-bit arithmetic.
    writeBytes(path("wrap.tipsy"), HandTipsy(true).header(5, 3, most, most, 7, 28).bytes());
    simtest::HeapPeak heap;
    const std::string mostError = snapshotErrorOf([&] { readSnapshot(path("most.tipsy"), SnapshotFormat::Tipsy); });
    const std::string allowedError = snapshotErrorOf([&] { readSnapshot(path("allowed.tipsy")); });
    const std::string wrapError = snapshotErrorOf([&] { readSnapshot(path("wrap.tipsy"), SnapshotFormat::Tipsy); });
    EXPECT_LT(heap.peakBytes(), 64u * 1024) << "bytes allocated while refusing headers that claim 2^28+ bodies";
    EXPECT_TRUE(contains(mostError, "2147483647 bodies: more than the 268435456 a snapshot may hold"));
    EXPECT_TRUE(contains(allowedError, "truncated: 28 bytes, the header's counts need " +
                                           std::to_string(28 + 4 * kStarFloats * std::uint64_t(allowed))));
    EXPECT_TRUE(contains(wrapError, "nbodies 5 is not nsph + ndark + nstar = 4294967301"));
}

TEST_F(TipsyFileTest, ForcingTheWrongByteOrderSaysWhichOneFits) {
    HandTipsy big(true);
    big.header(2, 3, 0, 2, 0, 28).record(kGoodRecord, kDarkFloats).record(kGoodRecord, kDarkFloats);
    writeBytes(path("big.tipsy"), big.bytes());
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("big.tipsy"), SnapshotFormat::TipsyNative); }),
                         "the header makes no sense as tipsy-native: ndim is 50331648, not 3; it does as tipsy "
                         "(--format tipsy)"));
    HandTipsy little(false);
    little.header(1, 3, 0, 0, 1, 32).record(kGoodRecord, kStarFloats, 4);
    writeBytes(path("little.bin"), little.bytes());
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("little.bin"), SnapshotFormat::Tipsy); }),
                         "makes no sense as tipsy: ndim is 50331648, not 3; it does as tipsy-native"));
    writeBytes(path("sum.tipsy"), HandTipsy(true).header(5, 3, 1, 1, 1, 28).bytes());
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("sum.tipsy"), SnapshotFormat::Tipsy); }),
                         "nbodies 5 is not nsph + ndark + nstar = 3 (header: nbodies 5, ndim 3, nsph 1"));
    writeBytes(path("negative.tipsy"), HandTipsy(true).header(0, 3, 1, -1, 0, 28).bytes());
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("negative.tipsy"), SnapshotFormat::Tipsy); }),
                         "a count is negative"));
    writeBytes(path("empty.tipsy"), HandTipsy(true).header(0, 3, 0, 0, 0, 28).bytes());
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("empty.tipsy")); }),
                         "no bodies: the header's counts are all 0"));
}

/// A big-endian file of 20 dark records, all good but record 17, which gets `bad`; the read's error message.
std::string errorForBadDarkRecord17(const std::filesystem::path& file, const std::array<float, 7>& bad) {
    HandTipsy tipsy(true);
    tipsy.header(20, 3, 0, 20, 0, 28);
    for (int record = 0; record < 20; ++record)
        tipsy.record(record == 17 ? bad : kGoodRecord, kDarkFloats);
    writeBytes(file, tipsy.bytes());
    return snapshotErrorOf([&] { readSnapshot(file); });
}

TEST_F(TipsyFileTest, BadValuesNameTheRecordAndTheValue) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const auto withField = [](std::size_t field, float value) {
        std::array<float, 7> record = kGoodRecord;
        record[field] = value;
        return record;
    };
    const auto file = path("bad.tipsy");
    EXPECT_TRUE(contains(errorForBadDarkRecord17(file, withField(0, -1)), "mass -1 is not positive (dark record 17)"));
    EXPECT_TRUE(contains(errorForBadDarkRecord17(file, withField(0, 0)), "mass 0 is not positive (dark record 17)"));
    EXPECT_TRUE(contains(errorForBadDarkRecord17(file, withField(0, -0.0f)), "mass -0 is not positive"));
    EXPECT_TRUE(contains(errorForBadDarkRecord17(file, withField(2, nan)), "y is nan, not a finite number (dark "
                                                                           "record 17)"));
    EXPECT_TRUE(contains(errorForBadDarkRecord17(file, withField(4, -inf)), "vx is -inf, not a finite number"));
    EXPECT_TRUE(contains(errorForBadDarkRecord17(file, withField(0, inf)), "mass is inf, not a finite number"));

    HandTipsy star(false); // the star block's own numbering, after gas and dark records
    star.header(3, 3, 1, 1, 1, 32)
        .record(kGoodRecord, kGasFloats, 1)
        .record(kGoodRecord, kDarkFloats, 2)
        .record(withField(6, nan), kStarFloats, 3);
    writeBytes(path("star.bin"), star.bytes());
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("star.bin")); }), "vz is nan, not a finite number "
                                                                                   "(star record 0)"));
}

TEST_F(TipsyFileTest, NegativeNativeIdIsRefused) {
    HandTipsy tipsy(false);
    tipsy.header(2, 3, 2, 0, 0, 32).record(kGoodRecord, kGasFloats, 0).record(kGoodRecord, kGasFloats, 0xfffffffb);
    writeBytes(path("ids.bin"), tipsy.bytes());
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("ids.bin")); }), "id -5 is negative (gas record 1)"));
}

} // namespace
} // namespace gravlab
