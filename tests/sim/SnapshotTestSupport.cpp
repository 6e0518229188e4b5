// The snapshot tests' reference files and comparisons (see SnapshotTestSupport.hpp).
#include "SnapshotTestSupport.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace gravlab::snapshottest {

testing::AssertionResult writeReferenceSnapshots(const std::filesystem::path& folder, std::uint64_t seed) {
    const std::filesystem::path python = GRAVLAB_TEST_PYTHON3;
    const std::filesystem::path script = std::filesystem::path(GRAVLAB_TEST_DATA_DIR) / "write_reference_snapshots.py";
    if (!std::filesystem::exists(python))
        return testing::AssertionFailure()
               << "python3 was not found when configuring (" << python
               << "): the snapshot tests need it to write their reference files with " << script
               << ". It comes with the Debian package python3 (a dependency of python3-glad): run scripts/setup.sh";
    std::string command = "'";
    command.append(python.string()).append("' '").append(script.string()).append("' --seed ");
    command.append(std::to_string(seed)).append(" --out '").append(folder.string()).append("'");
    const int status = std::system(command.c_str());
    if (status != 0)
        return testing::AssertionFailure() << command << " failed with status " << status;
    return testing::AssertionSuccess();
}

ExpectedSnapshot readExpected(const std::filesystem::path& snapshotFile) {
    std::ifstream in(snapshotFile.string() + ".expected");
    EXPECT_TRUE(in) << "cannot open " << snapshotFile << ".expected";
    ExpectedSnapshot expected;
    std::string word;
    in >> word >> word;
    expected.time = std::strtod(word.c_str(), nullptr);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        ExpectedBody body;
        unsigned component = 0;
        fields >> component >> body.id;
        body.component = std::uint8_t(component);
        for (float& value : body.values) {
            fields >> word;
            value = float(std::strtod(word.c_str(), nullptr)); // hex text of a float32: exact in double and back
        }
        EXPECT_TRUE(fields) << "unreadable line in " << snapshotFile << ".expected: " << line;
        expected.bodies.push_back(body);
    }
    return expected;
}

testing::AssertionResult contains(const std::string& text, const std::string& part) {
    if (text.find(part) != std::string::npos)
        return testing::AssertionSuccess();
    return testing::AssertionFailure() << "\n  " << text << "\ndoes not contain\n  " << part;
}

bool sameBits(float a, float b) {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

bool sameBits(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

void expectSnapshotMatches(const Snapshot& snapshot, const ExpectedSnapshot& expected) {
    const Bodies& bodies = snapshot.bodies;
    EXPECT_TRUE(sameBits(snapshot.time, expected.time)) << snapshot.time << " != " << expected.time;
    ASSERT_TRUE(bodies.consistent());
    ASSERT_EQ(bodies.size(), expected.bodies.size());
    int reported = 0;
    for (std::size_t i = 0; i < bodies.size() && reported < 5; ++i) {
        const ExpectedBody& want = expected.bodies[i];
        const std::array<float, 7> got{bodies.mass[i], bodies.x[i],  bodies.y[i], bodies.z[i],
                                       bodies.vx[i],   bodies.vy[i], bodies.vz[i]};
        bool same = want.id == bodies.id[i] && want.component == bodies.component[i] &&
                    sameBits(bodies.colorKey[i], componentColorKey(want.component));
        for (std::size_t field = 0; field < got.size(); ++field)
            same = same && sameBits(got[field], want.values[field]);
        if (!same) {
            ++reported;
            ADD_FAILURE() << "body " << i << ": id " << bodies.id[i] << " (expected " << want.id << "), component "
                          << int(bodies.component[i]) << " (expected " << int(want.component) << "), mass " << got[0]
                          << " (expected " << want.values[0] << "), x " << got[1] << " (expected " << want.values[1]
                          << "), ... vz " << got[6] << " (expected " << want.values[6] << ")";
        }
    }
}

float randomFiniteFloat(std::mt19937_64& random) {
    while (true) {
        const auto value = std::bit_cast<float>(std::uint32_t(random()));
        if (std::isfinite(value))
            return value;
    }
}

float randomMass(std::mt19937_64& random) {
    while (true) {
        const float value = std::fabs(randomFiniteFloat(random));
        if (value > 0)
            return value;
    }
}

Snapshot randomSnapshot(std::size_t count, std::mt19937_64& random, const std::vector<std::uint8_t>& components) {
    Snapshot snapshot;
    do
        snapshot.time = std::bit_cast<double>(std::uint64_t(random()));
    while (!std::isfinite(snapshot.time));
    Bodies& bodies = snapshot.bodies;
    bodies.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        for (auto* array : {&bodies.x, &bodies.y, &bodies.z, &bodies.vx, &bodies.vy, &bodies.vz})
            (*array)[i] = randomFiniteFloat(random);
        bodies.mass[i] = randomMass(random);
        bodies.id[i] = random();
        bodies.component[i] = components[random() % components.size()];
        bodies.colorKey[i] = componentColorKey(bodies.component[i]);
    }
    return snapshot;
}

std::vector<std::byte> readBytes(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    const std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    std::transform(chars.begin(), chars.end(), bytes.begin(), [](char c) { return std::byte(c); });
    return bytes;
}

void writeBytes(const std::filesystem::path& file, const std::vector<std::byte>& bytes) {
    std::ofstream out(file, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    ASSERT_TRUE(out) << "cannot write " << file;
}

void writeText(const std::filesystem::path& file, const std::string& text) {
    std::ofstream out(file, std::ios::binary);
    out << text;
    ASSERT_TRUE(out) << "cannot write " << file;
}

std::vector<std::string> folderEntries(const std::filesystem::path& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace gravlab::snapshottest
