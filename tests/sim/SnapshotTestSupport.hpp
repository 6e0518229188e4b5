#pragma once
// Shared by the snapshot file tests: the independent reference files and bit-exact comparisons.
//
// Design note: the references are written by tests/data/write_reference_snapshots.py with Python's struct and csv
// modules, which share no code with Gravlab's writers, together with the values each file holds as float.hex() text;
// the readers must return exactly those bits. Round trips use random float bit patterns (every exponent, subnormals,
// -0), not formulas, so a conversion that loses a bit anywhere in the range shows.
#include <gravlab/sim/Snapshot.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace gravlab::snapshottest {

struct ExpectedBody {
    std::uint8_t component = 0;
    std::uint64_t id = 0;
    std::array<float, 7> values{}; ///< mass, x, y, z, vx, vy, vz
};

struct ExpectedSnapshot {
    double time = 0;
    std::vector<ExpectedBody> bodies;
};

/// Runs the reference writer into folder (big.tipsy, big_padded.std, native.bin, ids.csv, plain.csv and their
/// .expected files); fails naming the interpreter when python3 is missing or the script fails.
testing::AssertionResult writeReferenceSnapshots(const std::filesystem::path& folder, std::uint64_t seed);

/// Reads the NAME.expected file the reference writer wrote next to NAME.
ExpectedSnapshot readExpected(const std::filesystem::path& snapshotFile);

/// Every value bit for bit, ids, components and the colour keys that follow from the components.
void expectSnapshotMatches(const Snapshot& snapshot, const ExpectedSnapshot& expected);

bool sameBits(float a, float b);
bool sameBits(double a, double b);

/// A random finite float from a random bit pattern, and a random positive one.
float randomFiniteFloat(std::mt19937_64& random);
float randomMass(std::mt19937_64& random);
/// count bodies of random values and of the given components (cycled through), ids random 64-bit.
Snapshot randomSnapshot(std::size_t count, std::mt19937_64& random, const std::vector<std::uint8_t>& components);

std::vector<std::byte> readBytes(const std::filesystem::path& file);
void writeBytes(const std::filesystem::path& file, const std::vector<std::byte>& bytes);
void writeText(const std::filesystem::path& file, const std::string& text);
/// Names of every entry of the folder (AtomicFile leftovers show up here).
std::vector<std::string> folderEntries(const std::filesystem::path& folder);

/// Whether text contains part; the failure shows both.
testing::AssertionResult contains(const std::string& text, const std::string& part);

/// The message of the SnapshotError that call() throws, or a failure naming what happened instead.
template <typename Call> std::string snapshotErrorOf(Call&& call) {
    try {
        call();
    } catch (const SnapshotError& error) {
        return error.what();
    } catch (const std::exception& error) {
        ADD_FAILURE() << "expected a SnapshotError, got another exception: " << error.what();
        return {};
    }
    ADD_FAILURE() << "expected a SnapshotError, nothing was thrown";
    return {};
}

} // namespace gravlab::snapshottest
