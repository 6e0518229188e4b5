// Double-precision state through GADGET HDF5 files, against h5py as the independent side: bodies with low parts are
// written as float64 Coordinates and Velocities holding the joined pairs (h5py reads them back and prints them as exact
// hexadecimal doubles), and a float64 file written by h5py is read into pairs within 48 bits of its doubles.
#include "TestSupport.hpp"

#include <gravlab/sim/Precision.hpp>
#include <gravlab/sim/Snapshot.hpp>

#include <LowPartTags.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <sys/wait.h>

namespace gravlab {
namespace {

/// Runs a Python program with the file as its argument; returns its standard output, or fails the test.
std::string runPython(const std::string& program, const std::filesystem::path& file) {
    const std::string command =
        std::string(GRAVLAB_TEST_PYTHON3) + " -c '" + program + "' '" + file.string() + "' 2>&1";
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) {
        ADD_FAILURE() << "cannot start " << GRAVLAB_TEST_PYTHON3;
        return {};
    }
    std::string output;
    char chunk[4096];
    while (const std::size_t got = std::fread(chunk, 1, sizeof chunk, pipe))
        output.append(chunk, got);
    const int status = ::pclose(pipe);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "python failed:\n" << output;
    return output;
}

TEST(DoublePrecisionFile, PairsAreWrittenAsFloat64ThatH5pyReadsBackExactly) {
    const std::uint64_t seed = test::freshSeed();
    SCOPED_TRACE(test::seedTrace(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> coordinate(-1.0, 1.0);
    Snapshot snapshot;
    snapshot.bodies.resize(50);
    snapshot.bodies.numberSequentially();
    convertPrecision(snapshot.bodies, Precision::Double);
    for (std::size_t i = 0; i < snapshot.bodies.size(); ++i) {
        storePositionFp64(snapshot.bodies, i, {coordinate(random), coordinate(random), coordinate(random)});
        storeVelocityFp64(snapshot.bodies, i, {coordinate(random), coordinate(random), coordinate(random)});
        snapshot.bodies.mass[i] = 0.02f;
    }
    ASSERT_NE(snapshot.bodies.xLow[1], 0.0f) << "random doubles have low parts";
    storePositionFp64(snapshot.bodies, 0, {-0.0, 0.5, 0.25}); // a negative zero must keep its sign both ways
    test::TemporaryFolder folder;
    const std::filesystem::path file = folder.path() / "pairs.hdf5";
    writeSnapshot(file, snapshot, SnapshotFormat::Hdf5);

    const std::string listing =
        runPython("import h5py, sys\n"
                  "g = h5py.File(sys.argv[1], \"r\")[\"PartType1\"]\n"
                  "assert g[\"Coordinates\"].dtype == \"<f8\" and g[\"Velocities\"].dtype == \"<f8\"\n"
                  "for p, v in zip(g[\"Coordinates\"][:], g[\"Velocities\"][:]):\n"
                  "    print(\" \".join(float(c).hex() for c in list(p) + list(v)))\n",
                  file);
    EXPECT_EQ(listing.substr(0, listing.find(' ')), "-0x0.0p+0") << "the stored double of the pair (-0, 0)";
    std::istringstream lines(listing);
    for (std::size_t i = 0; i < snapshot.bodies.size(); ++i) {
        const std::array<double, 3> position = positionFp64(snapshot.bodies, i);
        const std::array<double, 3> velocity = velocityFp64(snapshot.bodies, i);
        for (const double expected : {position[0], position[1], position[2], velocity[0], velocity[1], velocity[2]}) {
            std::string word;
            ASSERT_TRUE(lines >> word) << "h5py listed fewer values than written:\n" << listing;
            EXPECT_EQ(std::strtod(word.c_str(), nullptr), expected) << "body " << i;
        }
    }

    // And back: the reader splits the doubles into the same pairs.
    const Snapshot read = readSnapshot(file);
    ASSERT_TRUE(read.bodies.hasLowParts());
    EXPECT_EQ(read.bodies.x, snapshot.bodies.x);
    EXPECT_TRUE(std::signbit(read.bodies.x[0]) && !std::signbit(read.bodies.xLow[0]));
    EXPECT_EQ(read.bodies.xLow, snapshot.bodies.xLow);
    EXPECT_EQ(read.bodies.vzLow, snapshot.bodies.vzLow);
}

TEST(DoublePrecisionFile, Float64FromH5pyIsReadIntoPairsAndFloat32IntoSinglePrecision) {
    test::TemporaryFolder folder;
    const std::filesystem::path file = folder.path() / "thirds.hdf5";
    // Coordinates k/3 (no float and no pair holds them exactly), written as GADGET-4 does, in float64; velocities in
    // float32, which the reader gives zero low parts.
    runPython("import h5py, numpy, sys\n"
              "f = h5py.File(sys.argv[1], \"w\")\n"
              "h = f.create_group(\"Header\")\n"
              "n = numpy.array([0, 4, 0, 0, 0, 0], dtype=numpy.uint64)\n"
              "h.attrs[\"NumPart_ThisFile\"] = n\n"
              "h.attrs[\"NumPart_Total\"] = n\n"
              "h.attrs[\"MassTable\"] = numpy.array([0, 0.25, 0, 0, 0, 0], dtype=numpy.float64)\n"
              "h.attrs[\"Time\"] = 0.0\n"
              "h.attrs[\"Redshift\"] = 0.0\n"
              "h.attrs[\"BoxSize\"] = 0.0\n"
              "h.attrs[\"NumFilesPerSnapshot\"] = numpy.int32(1)\n"
              "g = f.create_group(\"PartType1\")\n"
              "g[\"Coordinates\"] = numpy.arange(1, 13, dtype=numpy.float64).reshape(4, 3) / 3.0\n"
              "g[\"Velocities\"] = numpy.full((4, 3), 0.5, dtype=numpy.float32)\n"
              "g[\"ParticleIDs\"] = numpy.arange(4, dtype=numpy.uint64)\n",
              file);
    const Snapshot read = readSnapshot(file);
    ASSERT_EQ(read.bodies.size(), 4u);
    ASSERT_TRUE(read.bodies.hasLowParts());
    for (std::size_t i = 0; i < 4; ++i) {
        const std::array<double, 3> position = positionFp64(read.bodies, i);
        for (int k = 0; k < 3; ++k) {
            const double expected = double(3 * i + k + 1) / 3.0;
            // A pair holds 48 bits: within 2^-48 of the value relative, against 2^-24 for the float part alone.
            EXPECT_NEAR(position[k], expected, std::abs(expected) * 0x1p-47) << "body " << i << " axis " << k;
        }
        EXPECT_NE(read.bodies.xLow[i], 0.0f) << "(3 i + 1) / 3 is no float: body " << i << " needs a low part";
        EXPECT_EQ(read.bodies.vyLow[i], 0.0f);
        EXPECT_EQ(read.bodies.vy[i], 0.5f);
    }
}

} // namespace
} // namespace gravlab
