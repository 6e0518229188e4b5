// GADGET-4 / SWIFT / AREPO HDF5 snapshots. The references are independent of our code: files written by h5py in the
// layouts of GADGET-4, SWIFT and AREPO (tests/data/gadget_hdf5_fixtures.py, with the bodies a reader must get listed
// as exact hexadecimal floats), h5py reading what our writer wrote, and a round trip of random bodies through a file
// that must give back every bit. Every kind of broken input has its case, read from disk and as a file image.
#include "TestSupport.hpp"
#include "io/GadgetHdf5Image.hpp"
#include "io/SnapshotFormats.hpp"

#include <gravlab/sim/AtomicFile.hpp>
#include <gravlab/sim/Snapshot.hpp>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <signal.h>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <vector>

namespace gravlab {
namespace {

std::string quoted(const std::string& text) {
    return "'" + text + "'";
}

struct CommandResult {
    int exitCode = -1;
    std::string output;
};

CommandResult runCommand(const std::string& command) {
    CommandResult result;
    std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr)
        return result;
    char chunk[4096];
    while (const std::size_t got = std::fread(chunk, 1, sizeof chunk, pipe))
        result.output.append(chunk, got);
    const int status = ::pclose(pipe);
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

/// Runs the fixture script with the given arguments.
::testing::AssertionResult runFixtures(const std::string& arguments) {
    const std::string script = std::string(GRAVLAB_TEST_DATA_DIR) + "/gadget_hdf5_fixtures.py";
    const CommandResult result = runCommand(std::string(GRAVLAB_TEST_PYTHON3) + " " + quoted(script) + " " + arguments);
    if (result.exitCode != 0)
        return ::testing::AssertionFailure()
               << "gadget_hdf5_fixtures.py " << arguments << " exited with " << result.exitCode << ":\n"
               << result.output;
    return ::testing::AssertionSuccess() << result.output;
}

class GadgetHdf5Test : public ::testing::Test {
protected:
    void SetUp() override {
        const CommandResult probe = runCommand(std::string(GRAVLAB_TEST_PYTHON3) + " -c 'import h5py, numpy'");
        ASSERT_EQ(probe.exitCode, 0) << GRAVLAB_TEST_PYTHON3
                                     << " cannot import h5py and numpy, which write and read the "
                                     << "reference files of these tests: install the Debian packages python3-h5py "
                                     << "and python3-numpy (scripts/setup.sh does).\n"
                                     << probe.output;
    }

    std::filesystem::path path(const std::string& name) const { return m_folder.path() / name; }

    std::uint64_t m_seed = test::freshSeed();
    test::TemporaryFolder m_folder;
};

// --- expected bodies as the fixture script lists them ---------------------------------------------------------------

struct ExpectedSnapshot {
    double time = 0, redshift = 0, boxSize = 0;
    std::optional<std::array<double, 3>> units; ///< cgs length, mass, velocity
    Bodies bodies;
};

double hexReal(const std::string& text) {
    return std::strtod(text.c_str(), nullptr); // strtod reads C99 hexadecimal floats exactly
}

ExpectedSnapshot readExpected(const std::filesystem::path& file) {
    std::ifstream in(file);
    ExpectedSnapshot expected;
    std::string key, value;
    in >> key >> value;
    expected.time = hexReal(value);
    in >> key >> value;
    expected.redshift = hexReal(value);
    in >> key >> value;
    expected.boxSize = hexReal(value);
    in >> key >> value;
    if (value != "none") {
        std::string mass, velocity;
        in >> mass >> velocity;
        expected.units = std::array{hexReal(value), hexReal(mass), hexReal(velocity)};
    }
    std::size_t count = 0;
    in >> key >> count;
    expected.bodies.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        unsigned type = 0;
        std::string reals[7];
        in >> type >> expected.bodies.id[i];
        for (std::string& real : reals)
            in >> real;
        Bodies& b = expected.bodies;
        b.component[i] = std::uint8_t(type);
        b.colorKey[i] = componentColorKey(b.component[i]);
        float* fields[7] = {&b.x[i], &b.y[i], &b.z[i], &b.vx[i], &b.vy[i], &b.vz[i], &b.mass[i]};
        for (int f = 0; f < 7; ++f)
            *fields[f] = float(hexReal(reals[f])); // the listed values are floats: exact
    }
    EXPECT_TRUE(in) << "cannot parse " << file;
    return expected;
}

/// Lists bodies and header in the fixture script's text format (the input of its check command).
void writeExpected(const std::filesystem::path& file, const Snapshot& snapshot) {
    std::ofstream out(file);
    char text[64];
    const auto hex = [&](double value) {
        std::snprintf(text, sizeof text, "%a", value);
        return std::string(text);
    };
    out << "time " << hex(snapshot.time) << "\nredshift " << hex(snapshot.redshift) << "\nboxsize "
        << hex(snapshot.boxSize) << "\nunits ";
    if (snapshot.units)
        out << hex(snapshot.units->lengthInCm) << " " << hex(snapshot.units->massInGrams) << " "
            << hex(snapshot.units->velocityInCmPerSecond) << "\n";
    else
        out << "none\n";
    const Bodies& b = snapshot.bodies;
    out << "bodies " << b.size() << "\n";
    for (std::size_t i = 0; i < b.size(); ++i) {
        out << unsigned(b.component[i]) << " " << b.id[i];
        for (const float value : {b.x[i], b.y[i], b.z[i], b.vx[i], b.vy[i], b.vz[i], b.mass[i]})
            out << " " << hex(value);
        out << "\n";
    }
}

// --- comparisons
// ------------------------------------------------------------------------------------------------------

template <typename Value> std::uint64_t bitsOf(Value value) {
    if constexpr (std::is_same_v<Value, float>)
        return std::bit_cast<std::uint32_t>(value);
    else
        return std::uint64_t(value);
}

::testing::AssertionResult sameBodies(const Bodies& got, const Bodies& want) {
    if (got.size() != want.size() || !got.consistent())
        return ::testing::AssertionFailure() << got.size() << " bodies read, " << want.size() << " expected";
    std::string mismatch;
    const auto compare = [&](const char* name, const auto& gotArray, const auto& wantArray) {
        for (std::size_t i = 0; i < want.size() && mismatch.empty(); ++i)
            if (bitsOf(gotArray[i]) != bitsOf(wantArray[i])) {
                std::ostringstream text;
                text << name << " of body " << i << ": got " << +gotArray[i] << ", expected " << +wantArray[i];
                mismatch = text.str();
            }
    };
    compare("x", got.x, want.x);
    compare("y", got.y, want.y);
    compare("z", got.z, want.z);
    compare("vx", got.vx, want.vx);
    compare("vy", got.vy, want.vy);
    compare("vz", got.vz, want.vz);
    compare("mass", got.mass, want.mass);
    compare("colorKey", got.colorKey, want.colorKey);
    compare("id", got.id, want.id);
    compare("component", got.component, want.component);
    if (!mismatch.empty())
        return ::testing::AssertionFailure() << mismatch;
    return ::testing::AssertionSuccess();
}

void expectMatches(const Snapshot& got, const ExpectedSnapshot& want) {
    EXPECT_EQ(got.time, want.time);
    EXPECT_EQ(got.redshift, want.redshift);
    EXPECT_EQ(got.boxSize, want.boxSize);
    ASSERT_EQ(got.units.has_value(), want.units.has_value());
    if (want.units) {
        EXPECT_EQ(got.units->lengthInCm, (*want.units)[0]);
        EXPECT_EQ(got.units->massInGrams, (*want.units)[1]);
        EXPECT_EQ(got.units->velocityInCmPerSecond, (*want.units)[2]);
    }
    EXPECT_TRUE(sameBodies(got.bodies, want.bodies));
}

std::vector<std::byte> fileBytes(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> image(bytes.size());
    std::transform(bytes.begin(), bytes.end(), image.begin(), [](char c) { return std::byte(c); });
    return image;
}

/// Random bodies of components 0, 1, 2, 4 and 5 (none of 3) in shuffled order, three in four of component 1 (so a
/// large snapshot spans several of the reader's and writer's blocks), ids above 2^32, and a few values at the edges
/// of float: -0, a denormal, the largest float, the smallest positive mass.
Snapshot randomSnapshot(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::normal_distribution<float> normal(0.0f, 30.0f);
    std::uniform_real_distribution<float> positive(1e-4f, 5.0f);
    const std::array<std::uint8_t, 5> components{0, 1, 2, 4, 5};
    Snapshot snapshot;
    Bodies& b = snapshot.bodies;
    b.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        b.x[i] = normal(random), b.y[i] = normal(random), b.z[i] = normal(random);
        b.vx[i] = normal(random), b.vy[i] = normal(random), b.vz[i] = normal(random);
        b.mass[i] = positive(random);
        b.id[i] = (std::uint64_t{1} << 32) + random() % (std::uint64_t{1} << 62);
        b.component[i] = random() % 4 != 0 ? kDarkMatterComponent : components[random() % components.size()];
        b.colorKey[i] = componentColorKey(b.component[i]);
    }
    b.x[0] = -0.0f;
    b.y[1] = std::numeric_limits<float>::denorm_min();
    b.vz[2] = std::numeric_limits<float>::max();
    b.mass[3] = std::numeric_limits<float>::denorm_min();
    b.id[4] = ~std::uint64_t{0};
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    snapshot.time = unit(random);
    snapshot.redshift = 10 * unit(random);
    snapshot.boxSize = 1000 * unit(random);
    snapshot.units = unitSystemFromCgs(kParsecInCm * (1 + 1e3 * unit(random)), kSolarMassInGrams * 1e10 * unit(random),
                                       1e5 * (1 + unit(random)));
    return snapshot;
}

/// What a reader returns for bodies written in any order: grouped by component, each group in its original order.
Bodies groupedByComponent(const Bodies& bodies) {
    std::vector<std::size_t> order(bodies.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return bodies.component[a] < bodies.component[b]; });
    Bodies grouped;
    forEachBodyArray(grouped, [&](auto& array) { array.reserve(bodies.size()); });
    for (const std::size_t i : order) {
        grouped.x.push_back(bodies.x[i]), grouped.y.push_back(bodies.y[i]), grouped.z.push_back(bodies.z[i]);
        grouped.vx.push_back(bodies.vx[i]), grouped.vy.push_back(bodies.vy[i]), grouped.vz.push_back(bodies.vz[i]);
        grouped.mass.push_back(bodies.mass[i]), grouped.id.push_back(bodies.id[i]);
        grouped.component.push_back(bodies.component[i]);
        grouped.colorKey.push_back(componentColorKey(bodies.component[i]));
    }
    return grouped;
}

void writeFile(const std::filesystem::path& file, const Snapshot& snapshot) {
    AtomicFile out(file, AtomicFile::Mode::ByName);
    io::writeGadgetHdf5(out, snapshot);
    out.commit();
}

/// The SnapshotError of reading file (on disk), or "" when it reads.
std::string readError(const std::filesystem::path& file) {
    try {
        io::readGadgetHdf5(file);
    } catch (const SnapshotError& error) {
        EXPECT_EQ(error.file(), file) << error.what();
        return error.what();
    }
    return "";
}

// --- round trip and h5py --------------------------------------------------------------------------------------------

TEST_F(GadgetHdf5Test, RoundTripGivesBackEveryBit) {
    SCOPED_TRACE(test::seedTrace(m_seed));
    // Bodies as they come (components interleaved) and grouped by component (each type one run, which the writer
    // writes from the arrays themselves); 400000 bodies span several blocks of every dataset.
    const Snapshot interleaved = randomSnapshot(400000, m_seed);
    Snapshot groupedSnapshot = interleaved;
    groupedSnapshot.bodies = groupedByComponent(interleaved.bodies);
    const Snapshot& grouped = groupedSnapshot;
    for (const Snapshot* written : {&interleaved, &grouped}) {
        SCOPED_TRACE(written == &grouped ? "grouped by component" : "components interleaved");
        writeFile(path("round.hdf5"), *written);
        EXPECT_TRUE(io::hasHdf5Signature(path("round.hdf5")));

        const Snapshot read = io::readGadgetHdf5(path("round.hdf5"));
        EXPECT_TRUE(sameBodies(read.bodies, grouped.bodies));
        EXPECT_EQ(read.time, written->time);
        EXPECT_EQ(read.redshift, written->redshift);
        EXPECT_EQ(read.boxSize, written->boxSize);
        EXPECT_EQ(read.units, written->units);

        const std::vector<std::byte> image = fileBytes(path("round.hdf5"));
        const Snapshot fromImage = io::readGadgetHdf5Image(image, "round.hdf5");
        EXPECT_TRUE(sameBodies(fromImage.bodies, grouped.bodies));
        EXPECT_EQ(fromImage.units, written->units);
    }
}

TEST_F(GadgetHdf5Test, SnapshotWithoutUnitsReadsBackWithout) {
    SCOPED_TRACE(test::seedTrace(m_seed));
    Snapshot written = randomSnapshot(100, m_seed);
    written.units.reset();
    writeFile(path("plain.hdf5"), written);
    const Snapshot read = io::readGadgetHdf5(path("plain.hdf5"));
    EXPECT_FALSE(read.units.has_value());
    EXPECT_TRUE(sameBodies(read.bodies, groupedByComponent(written.bodies)));
}

TEST_F(GadgetHdf5Test, H5pyReadsWhatWeWrite) {
    SCOPED_TRACE(test::seedTrace(m_seed));
    for (const bool withUnits : {true, false}) {
        Snapshot written = randomSnapshot(3000, m_seed + withUnits);
        if (!withUnits)
            written.units.reset();
        writeFile(path("ours.hdf5"), written);
        writeExpected(path("ours.expected.txt"), written);
        EXPECT_TRUE(runFixtures("check " + quoted(path("ours.hdf5")) + " " + quoted(path("ours.expected.txt"))))
            << (withUnits ? "with units" : "without units");
    }
}

// --- files of other writers -----------------------------------------------------------------------------------------

TEST_F(GadgetHdf5Test, ReadsGadget4File) {
    SCOPED_TRACE(test::seedTrace(m_seed));
    ASSERT_TRUE(runFixtures("write gadget4 " + quoted(path("").string()) + " " + std::to_string(m_seed % 1000000)));
    expectMatches(io::readGadgetHdf5(path("gadget4.hdf5")), readExpected(path("gadget4.expected.txt")));
}

TEST_F(GadgetHdf5Test, ReadsSwiftFileWithDoublesCompressionAndMassTable) {
    SCOPED_TRACE(test::seedTrace(m_seed));
    ASSERT_TRUE(runFixtures("write swift " + quoted(path("").string()) + " " + std::to_string(m_seed % 1000000)));
    const Snapshot read = io::readGadgetHdf5(path("swift.hdf5"));
    expectMatches(read, readExpected(path("swift.expected.txt")));
    const std::vector<std::byte> image = fileBytes(path("swift.hdf5"));
    EXPECT_TRUE(sameBodies(io::readGadgetHdf5Image(image, "swift.hdf5").bodies, read.bodies));
}

TEST_F(GadgetHdf5Test, ReadsSplitSnapshotFromAnyPiece) {
    SCOPED_TRACE(test::seedTrace(m_seed));
    ASSERT_TRUE(runFixtures("write split " + quoted(path("").string()) + " " + std::to_string(m_seed % 1000000)));
    const ExpectedSnapshot expected = readExpected(path("split.expected.txt"));
    for (const char* piece : {"split.0.hdf5", "split.2.hdf5"}) {
        SCOPED_TRACE(piece);
        expectMatches(io::readGadgetHdf5(path(piece)), expected);
    }
}

// --- broken inputs
// ----------------------------------------------------------------------------------------------------

struct BadCase {
    const char* name;
    std::vector<const char*> messageParts;
};

TEST_F(GadgetHdf5Test, EveryBrokenFileIsRefusedSayingWhereFromDiskAndImage) {
    const std::vector<BadCase> cases{
        {"no-header", {"no Header group"}},
        {"no-parttype", {"no PartType0 to PartType5 group"}},
        {"missing-group", {"NumPart_ThisFile[1] says 8 bodies", "no PartType1 group"}},
        {"huge-header", {"1000000000000 bodies", "268435456"}},
        {"count-mismatch", {"dataset PartType1/Coordinates has 1000 rows", "NumPart_ThisFile[1] says 999"}},
        {"wrong-shape", {"dataset PartType1/Coordinates has shape 8 x 4", "N x 3"}},
        {"integer-coordinates", {"dataset PartType1/Coordinates holds integers"}},
        {"half-floats", {"dataset PartType1/Coordinates is stored in an unusual number format"}},
        {"nan", {"dataset PartType1/Coordinates", "nan is not a finite number", "row 3 column 1"}},
        {"float-overflow", {"dataset PartType1/Velocities", "1e+300 is beyond the float range", "row 5 column 2"}},
        {"zero-mass", {"dataset PartType1/Masses", "mass 0 is not positive", "row 2"}},
        {"negative-mass", {"dataset PartType1/Masses", "mass -1.5 is not positive", "row 4"}},
        {"no-mass", {"PartType1 has no Masses dataset", "MassTable[1]"}},
        {"negative-id", {"dataset PartType1/ParticleIDs", "id -3 is negative", "row 3"}},
        {"external-link", {"PartType1 is a link into another file"}},
    };
    for (const BadCase& bad : cases) {
        SCOPED_TRACE(bad.name);
        const std::filesystem::path file = path(std::string(bad.name) + ".hdf5");
        ASSERT_TRUE(runFixtures(std::string("bad ") + bad.name + " " + quoted(file)));
        const std::string message = readError(file);
        ASSERT_FALSE(message.empty()) << "the reader accepted it";
        EXPECT_EQ(message.rfind(file.string() + ": ", 0), 0u) << message;
        for (const char* part : bad.messageParts)
            EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
        try {
            io::readGadgetHdf5Image(fileBytes(file), file);
            ADD_FAILURE() << "the image reader accepted it";
        } catch (const SnapshotError& error) {
            EXPECT_EQ(error.what(), message) << "file and image read differently";
        }
    }
}

TEST_F(GadgetHdf5Test, TruncatedFileIsRefused) {
    SCOPED_TRACE(test::seedTrace(m_seed));
    writeFile(path("whole.hdf5"), randomSnapshot(5000, m_seed));
    std::filesystem::resize_file(path("whole.hdf5"), std::filesystem::file_size(path("whole.hdf5")) / 2);
    const std::string message = readError(path("whole.hdf5"));
    EXPECT_NE(message.find("damaged or cut short"), std::string::npos) << message;
    EXPECT_NE(message.find("libhdf5 says: truncated file"), std::string::npos) << message;
}

TEST_F(GadgetHdf5Test, NonHdf5FileIsRefused) {
    std::ofstream(path("bodies.csv")) << "x,y,z,vx,vy,vz,m\n1,2,3,4,5,6,7\n";
    EXPECT_FALSE(io::hasHdf5Signature(path("bodies.csv")));
    EXPECT_FALSE(io::hasHdf5Signature(path("absent.hdf5")));
    const std::string message = readError(path("bodies.csv"));
    EXPECT_NE(message.find("not an HDF5 file"), std::string::npos) << message;
    EXPECT_THROW(io::readGadgetHdf5Image(fileBytes(path("bodies.csv")), "bodies.csv"), SnapshotError);
    EXPECT_THROW(io::readGadgetHdf5Image({}, "empty.hdf5"), SnapshotError);
}

TEST_F(GadgetHdf5Test, MissingPieceOfSplitSnapshotIsNamed) {
    ASSERT_TRUE(runFixtures("write split " + quoted(path("").string()) + " 5"));
    std::filesystem::remove(path("split.1.hdf5"));
    try {
        io::readGadgetHdf5(path("split.2.hdf5"));
        FAIL() << "a snapshot with a missing piece was read";
    } catch (const SnapshotError& error) {
        EXPECT_EQ(error.file(), path("split.1.hdf5"));
        EXPECT_NE(std::string(error.what()).find("piece of a split snapshot is missing"), std::string::npos)
            << error.what();
    }
    std::filesystem::rename(path("split.0.hdf5"), path("renamed.hdf5"));
    const std::string message = readError(path("renamed.hdf5"));
    EXPECT_NE(message.find("split into 3 files"), std::string::npos) << message;
    EXPECT_THROW(io::readGadgetHdf5Image(fileBytes(path("renamed.hdf5")), "renamed.hdf5"), SnapshotError);
}

// --- the writer's refusals and failures
// -------------------------------------------------------------------------------

TEST_F(GadgetHdf5Test, WriterRefusesBodiesNoFileCanHold) {
    Snapshot snapshot = randomSnapshot(10, m_seed);
    snapshot.bodies.component[7] = kComponentCount;
    EXPECT_THROW(writeFile(path("bad.hdf5"), snapshot), SnapshotError);
    EXPECT_THROW(writeFile(path("empty.hdf5"), Snapshot{}), SnapshotError);
    EXPECT_TRUE(std::filesystem::is_empty(m_folder.path())) << "a refused write left a file behind";
}

TEST_F(GadgetHdf5Test, FailedWriteNamesTheDatasetAndLeavesNoFile) {
    // A file size limit makes every write past 64 KiB fail with EFBIG, as a full disk fails with ENOSPC. It runs in a
    // forked child (the death test's), so the limit stays there and the child sees this test's folder.
    const Snapshot snapshot = randomSnapshot(100000, m_seed);
    const std::filesystem::path target = path("limited.hdf5");
    const auto writeUnderLimit = [&] {
        const rlimit limit{64 << 10, 64 << 10};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        ::signal(SIGXFSZ, SIG_IGN);
        try {
            writeFile(target, snapshot);
        } catch (const SnapshotError& error) {
            std::fprintf(stderr, "%s\n", error.what());
            std::exit(3);
        }
        std::exit(0);
    };
    EXPECT_EXIT(writeUnderLimit(), ::testing::ExitedWithCode(3), "cannot write dataset PartType.*File too large");
    EXPECT_TRUE(std::filesystem::is_empty(m_folder.path())) << "the failed write left a file behind";
}

} // namespace
} // namespace gravlab
