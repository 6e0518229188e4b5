// The snapshot dispatcher: formats detected from bytes and chosen by name, errors that name the file, the reason and
// what to do, writes that leave either the complete new file or the previous one (a real full disk on a tiny tmpfs),
// and running out of memory while reading reported like any other failure.
#include "SnapshotTestSupport.hpp"
#include "TestSupport.hpp"

#include <gravlab/sim/Snapshot.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/mount.h>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace gravlab {
namespace {

using snapshottest::contains;
using snapshottest::folderEntries;
using snapshottest::snapshotErrorOf;
using snapshottest::writeText;

struct SnapshotFilesTest : testing::Test {
    test::TemporaryFolder folder;
    std::uint64_t seed = test::freshSeed();
    std::filesystem::path path(const char* name) const { return folder.path() / name; }
};

Snapshot smallSnapshot(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    return snapshottest::randomSnapshot(count, random, {0, 1, 4});
}

TEST(SnapshotError, MessageNamesFileProblemAndPlace) {
    const SnapshotError withPlace("run/snap.tipsy", "mass -1 is not positive", "dark record 17");
    EXPECT_STREQ(withPlace.what(), "run/snap.tipsy: mass -1 is not positive (dark record 17)");
    EXPECT_EQ(withPlace.file(), std::filesystem::path("run/snap.tipsy"));
    EXPECT_STREQ(SnapshotError("a.csv", "the file is empty").what(), "a.csv: the file is empty");
}

TEST_F(SnapshotFilesTest, DetectsTheFormatFromTheBytesWhateverTheName) {
    SCOPED_TRACE(test::seedTrace(seed));
    ASSERT_TRUE(snapshottest::writeReferenceSnapshots(folder.path(), seed));
    std::filesystem::copy_file(path("big.tipsy"), path("big_as.csv"));
    std::filesystem::copy_file(path("native.bin"), path("native_as.tipsy"));
    std::filesystem::copy_file(path("plain.csv"), path("plain_without_extension"));
    writeText(path("signature.bin"), std::string("\x89HDF\r\n\x1a\n", 8) + std::string(100, '\0'));
    EXPECT_EQ(detectSnapshotFormat(path("big_as.csv")), SnapshotFormat::Tipsy);
    EXPECT_EQ(detectSnapshotFormat(path("native_as.tipsy")), SnapshotFormat::TipsyNative);
    EXPECT_EQ(detectSnapshotFormat(path("plain_without_extension")), SnapshotFormat::Csv);
    EXPECT_EQ(detectSnapshotFormat(path("signature.bin")), SnapshotFormat::Hdf5);
    snapshottest::expectSnapshotMatches(readSnapshot(path("big_as.csv")),
                                        snapshottest::readExpected(path("big.tipsy")));
}

TEST_F(SnapshotFilesTest, UndecidableBytesListTheFormatsAndTheOption) {
    writeText(path("notes.txt"), "positions of my stars\n1 2 3\n");
    const std::string message = snapshotErrorOf([&] { detectSnapshotFormat(path("notes.txt")); });
    EXPECT_TRUE(contains(message, "notes.txt: cannot tell its format: not HDF5"));
    EXPECT_TRUE(contains(message, "name the format with --format tipsy, tipsy-native, hdf5 or csv"));
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("notes.txt")); }), "cannot tell its format"));
    // A .csv name with a bad header gets the CSV reader's message, which says what the header should be.
    writeText(path("table.csv"), "X;Y;Z\n1;2;3\n");
    EXPECT_EQ(detectSnapshotFormat(path("table.csv")), SnapshotFormat::Csv);
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("table.csv")); }),
                         "the header row is 'X;Y;Z', not x,y,z,vx,vy,vz,m"));
}

TEST_F(SnapshotFilesTest, ForcedFormatThatDoesNotFitSaysWhy) {
    SCOPED_TRACE(test::seedTrace(seed));
    ASSERT_TRUE(snapshottest::writeReferenceSnapshots(folder.path(), seed));
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("big.tipsy"), SnapshotFormat::Csv); }),
                         "big.tipsy: the header row is '"));
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("ids.csv"), SnapshotFormat::Tipsy); }),
                         "ids.csv: the header makes no sense as tipsy: ndim is"));
}

TEST(SnapshotFormatForName, ExtensionsChooseTheFormat) {
    EXPECT_EQ(snapshotFormatForName("a.tipsy"), SnapshotFormat::Tipsy);
    EXPECT_EQ(snapshotFormatForName("dir.x/b.std"), SnapshotFormat::Tipsy);
    EXPECT_EQ(snapshotFormatForName("c.bin"), SnapshotFormat::Tipsy);
    EXPECT_EQ(snapshotFormatForName("d.TIP"), SnapshotFormat::Tipsy);
    EXPECT_EQ(snapshotFormatForName("snap_000.0.hdf5"), SnapshotFormat::Hdf5);
    EXPECT_EQ(snapshotFormatForName("e.h5"), SnapshotFormat::Hdf5);
    EXPECT_EQ(snapshotFormatForName("f.Csv"), SnapshotFormat::Csv);
    const std::string message = snapshotErrorOf([] { snapshotFormatForName("out/snap.dat"); });
    EXPECT_TRUE(contains(message, "out/snap.dat: cannot tell which format to write: the extension .dat is none of "
                                  ".tipsy, .std, .bin, .tip (tipsy), .hdf5, .h5 (hdf5), .csv (csv); name the format "
                                  "with --format tipsy, tipsy-native, hdf5 or csv"));
    EXPECT_TRUE(contains(snapshotErrorOf([] { snapshotFormatForName("snapshot"); }), "the name has no extension"));
}

TEST_F(SnapshotFilesTest, MissingOrUnreadableFilesNameTheSystemReason) {
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("absent.tipsy")); }),
                         "absent.tipsy: cannot open it: No such file or directory"));
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(path("absent.csv"), SnapshotFormat::Csv); }),
                         "No such file or directory"));
    EXPECT_TRUE(contains(snapshotErrorOf([&] { readSnapshot(folder.path()); }), "it is a folder, not a file"));
}

TEST_F(SnapshotFilesTest, WritesThatCannotStartLeaveNothingBehind) {
    const Snapshot snapshot = smallSnapshot(10, seed);
    EXPECT_TRUE(contains(snapshotErrorOf([&] { writeSnapshot(path("snap.dat"), snapshot); }), "the extension .dat"));
    const auto missing = folder.path() / "no_such_folder" / "snap.tipsy";
    EXPECT_TRUE(contains(snapshotErrorOf([&] { writeSnapshot(missing, snapshot); }),
                         "snap.tipsy: the folder " + missing.parent_path().string() + " does not exist"));
    EXPECT_TRUE(contains(snapshotErrorOf([&] { writeSnapshot(path("empty.csv"), Snapshot{}); }), "no bodies to write"));
    Snapshot ragged = snapshot;
    ragged.bodies.mass.pop_back();
    EXPECT_THROW(writeSnapshot(path("ragged.csv"), ragged), std::invalid_argument);
    EXPECT_TRUE(folderEntries(folder.path()).empty()) << "left behind: " << folderEntries(folder.path()).front();
}

TEST_F(SnapshotFilesTest, AFailedRenameKeepsWhatIsAtTheTarget) {
    // The target is a folder: the data is written, then the rename over it fails; the folder and its file stay.
    std::filesystem::create_directory(path("taken.csv"));
    writeText(path("taken.csv") / "inside", "kept");
    const std::string message = snapshotErrorOf([&] { writeSnapshot(path("taken.csv"), smallSnapshot(10, seed)); });
    EXPECT_TRUE(contains(message, "taken.csv: cannot rename the finished file into place"));
    EXPECT_EQ(folderEntries(folder.path()), std::vector<std::string>{"taken.csv"});
    EXPECT_EQ(folderEntries(path("taken.csv")), std::vector<std::string>{"inside"});
}

/// A 64 KiB tmpfs mounted on a fresh folder for the test's lifetime, where mounting is allowed (root).
class TinyFileSystem {
public:
    explicit TinyFileSystem(std::filesystem::path where) : m_path(std::move(where)) {
        std::filesystem::create_directory(m_path);
        if (::mount("tmpfs", m_path.c_str(), "tmpfs", 0, "size=64k") != 0)
            m_error = std::strerror(errno);
    }
    ~TinyFileSystem() {
        if (m_error.empty())
            ::umount2(m_path.c_str(), MNT_DETACH);
    }
    TinyFileSystem(const TinyFileSystem&) = delete;
    TinyFileSystem& operator=(const TinyFileSystem&) = delete;
    /// Why mounting failed, or empty.
    const std::string& error() const { return m_error; }
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
    std::string m_error;
};

TEST_F(SnapshotFilesTest, AFullDiskKeepsThePreviousFileAndLeavesNoTemporary) {
    const TinyFileSystem disk(path("tiny"));
    if (!disk.error().empty())
        GTEST_SKIP() << "cannot mount a 64 KiB tmpfs to fill (" << disk.error()
                     << "): the full-disk case needs root or CAP_SYS_ADMIN";
    for (const char* name : {"snap.csv", "snap.tipsy"}) {
        SCOPED_TRACE(name);
        const auto target = disk.path() / name;
        writeSnapshot(target, smallSnapshot(20, seed));
        const std::vector<std::byte> before = snapshottest::readBytes(target);
        // 10000 bodies: ~360 KB as tipsy, ~900 KB as CSV, far more than the 64 KiB disk.
        const std::string message = snapshotErrorOf([&] { writeSnapshot(target, smallSnapshot(10000, seed)); });
        EXPECT_TRUE(contains(message, name + std::string(": No space left on device")));
        EXPECT_EQ(snapshottest::readBytes(target), before) << "the previous file changed";
        EXPECT_EQ(folderEntries(disk.path()), std::vector<std::string>{name});
        std::filesystem::remove(target);
    }
}

/// Bytes of the address space in use now (Linux: /proc/self/statm's first field, in pages).
std::uint64_t addressSpaceInUse() {
    std::ifstream statm("/proc/self/statm");
    std::uint64_t pages = 0;
    statm >> pages;
    return pages * std::uint64_t(::sysconf(_SC_PAGESIZE));
}

/// Reads file with the address space capped at what is in use plus extraBytes; exits 0 after printing the
/// SnapshotError, 2 when the read succeeds, 3 when the cap cannot be set (the death test's child process).
[[noreturn]] void readWithAddressSpaceCap(const std::filesystem::path& file, std::uint64_t extraBytes) {
    rlimit limit{};
    limit.rlim_cur = addressSpaceInUse() + extraBytes;
    limit.rlim_max = RLIM_INFINITY;
    if (::setrlimit(RLIMIT_AS, &limit) != 0)
        _exit(3);
    try {
        readSnapshot(file);
    } catch (const SnapshotError& error) {
        std::fprintf(stderr, "%s\n", error.what());
        _exit(0);
    }
    _exit(2);
}

TEST_F(SnapshotFilesTest, RunningOutOfMemoryNamesTheBodyCount) {
    // A valid header for 2^24 dark bodies over a sparse file of the right size (604 MB that take no disk), read with
    // the address space capped at what the mapping needs plus 128 MB: the 688 MB of bodies cannot be allocated.
    constexpr std::uint32_t kDark = 1u << 24;
    const std::uint64_t fileBytes = 28 + 36 * std::uint64_t(kDark);
    const auto file = path("huge.tipsy");
    std::vector<std::byte> header(28);
    const std::array<std::uint32_t, 5> counts{kDark, 3, 0, kDark, 0};
    for (std::size_t field = 0; field < counts.size(); ++field)
        for (std::size_t byte = 0; byte < 4; ++byte)
            header[8 + 4 * field + byte] = std::byte(counts[field] >> (24 - 8 * byte));
    snapshottest::writeBytes(file, header);
    std::filesystem::resize_file(file, fileBytes);
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(readWithAddressSpaceCap(file, fileBytes + (128u << 20)), testing::ExitedWithCode(0),
                "huge.tipsy: not enough memory for 16777216 bodies \\(0.7 GB\\)");
}

} // namespace
} // namespace gravlab
