// Session files: a session with every field changed (random values, seed printed) saves and loads back equal, and the
// saved text holds those values for an independent JSON reader; files written by hand (JSON literals below) load
// with the values they hold and defaults elsewhere; every bad file is refused with one line naming the file and the
// key; a failed save leaves no file.
#include <gravlab/sim/AtomicFile.hpp>

#include <TestSupport.hpp>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>
#include <session/SessionFile.hpp>
#include <sstream>
#include <string>

namespace gravlab::test {
namespace {

void writeText(const std::filesystem::path& file, const std::string& text) {
    std::ofstream(file, std::ios::binary) << text;
}

std::string readText(const std::filesystem::path& file) {
    std::ifstream stream(file, std::ios::binary);
    std::ostringstream text;
    text << stream.rdbuf();
    return text.str();
}

/// A session whose every field differs from its default, with random numbers drawn from random.
SavedSession changedSession(std::mt19937_64& random, const std::filesystem::path& folder) {
    auto uniform = [&](double low, double high) { return std::uniform_real_distribution<double>(low, high)(random); };
    auto uniformFloat = [&](double low, double high) { return static_cast<float>(uniform(low, high)); };
    SavedSession session;
    SimParams& params = session.params;
    params.scenario = "plummer";
    params.scenarioParams = {{"virial-ratio", uniform(0.1, 2.9)}};
    params.bodyCount = std::uniform_int_distribution<std::uint64_t>(2000, 100000)(random);
    params.seed = random(); // any 64-bit value, most above 2^53
    params.initialFile = (folder / "snapshots" / "ics.hdf5").string();
    params.initialFileFormat = SnapshotFormat::Hdf5;
    params.recentre = true;
    params.units = unitSystemFromCgs(kParsecInCm * 1e3, kSolarMassInGrams * 1e10, 1e5);
    params.units.massName = "ten billion suns";
    params.gravitationalConstant = uniform(1.0, 1e5);
    params.timeStep = uniform(1e-4, 0.1);
    params.softeningLength = uniform(1e-3, 1.0);
    params.openingAngle = uniform(0.2, 1.1);
    params.solver = "tree";
    params.backend = BackendKind::Cpu;
    params.orb = {.domainCount = std::uniform_int_distribution<std::uint32_t>(2, 1000)(random),
                  .balance = OrbBalance::Work,
                  .rebuildInterval = std::uniform_int_distribution<std::uint32_t>(2, 1000)(random),
                  .imbalanceLimit = uniform(1.01, 10.0)};
    session.camera = CameraState{.target = {uniformFloat(-100, 100), uniformFloat(-100, 100), uniformFloat(-1, 1)},
                                 .distance = uniformFloat(0.01, 1000),
                                 .yaw = uniformFloat(-3.1, 3.1),
                                 .pitch = uniformFloat(-1.5, 1.5),
                                 .verticalFieldOfView = uniformFloat(0.05, 2.5)};
    session.colorMode = ColorMode::LeafDepth;
    session.colorScale = ColorScaleChoice::Logarithmic;
    session.treeOverlay = {
        .enabled = true, .depths = {3, 11}, .onlyPickedPath = true, .opacity = uniformFloat(0.05, 1)};
    session.orbOverlay = {.showCells = true, .innerCells = true, .opacity = uniformFloat(0.05, 1)};
    session.paused = true;
    session.stepsPerFrame = std::uniform_int_distribution<int>(2, 10000)(random);
    session.autoRefreshEnergy = false;
    return session;
}

TEST(SessionFile, AChangedSessionSavesAndLoadsBackEqual) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const TemporaryFolder folder;
    for (int round = 0; round < 20; ++round) { // floats and degrees are written in few digits: try many values
        const SavedSession original = changedSession(random, folder.path());
        ASSERT_NE(original, SavedSession{});
        const std::filesystem::path file = folder.path() / "session.json";
        saveSession(file, original);
        EXPECT_EQ(loadSession(file), original) << readText(file);

        // An independent reader finds the values under the documented keys.
        const nlohmann::json json = nlohmann::json::parse(readText(file));
        EXPECT_EQ(json["version"], 1);
        EXPECT_EQ(json["params"]["timeStep"].get<double>(), original.params.timeStep);
        EXPECT_EQ(json["params"]["seed"].get<std::uint64_t>(), original.params.seed);
        EXPECT_EQ(json["params"]["orb"]["domainCount"], original.params.orb.domainCount);
        EXPECT_EQ(json["params"]["orb"]["balance"], "work");
        EXPECT_EQ(json["params"]["initialFileFormat"], "hdf5");
        EXPECT_EQ(json["params"]["units"]["massName"], "ten billion suns");
        EXPECT_EQ(json["view"]["colorMode"], "leaf-depth");
        EXPECT_EQ(json["view"]["colorScale"], "log");
        EXPECT_EQ(json["run"]["stepsPerFrame"], *original.stepsPerFrame);
        // Degrees within a float's resolution of the radians saved.
        EXPECT_NEAR(json["camera"]["yawDegrees"].get<double>(), original.camera->yaw * 180.0 / std::numbers::pi, 1e-5);
        EXPECT_EQ(json["camera"]["target"][1].get<float>(), original.camera->target[1]);
    }
}

TEST(SessionFile, FloatsAreWrittenInTheFewestDigits) {
    const TemporaryFolder folder;
    SavedSession session;
    session.camera = CameraState{}; // yaw -90 degrees, pitch 30, field of view 45, distance 10
    session.treeOverlay.opacity = 0.55f;
    const std::filesystem::path file = folder.path() / "plain.json";
    saveSession(file, session);
    const std::string text = readText(file);
    for (const char* expected : {"\"opacity\": 0.55", "\"yawDegrees\": -90", "\"pitchDegrees\": 30",
                                 "\"verticalFieldOfViewDegrees\": 45", "\"distance\": 10"})
        EXPECT_NE(text.find(expected), std::string::npos) << expected << " in\n" << text;
    EXPECT_EQ(loadSession(file), session);
}

TEST(SessionFile, AHandWrittenFileLoadsWithItsValues) {
    const TemporaryFolder folder;
    const std::filesystem::path file = folder.path() / "written.json";
    writeText(file, R"({
  "version": 1,
  "params": {"scenario": "disk-galaxy", "bodyCount": 1e4, "seed": 18446744073709551615, "timeStep": 0.002,
             "initialFile": "ics/run.csv", "initialFileFormat": "csv",
             "units": {"lengthInCm": 3.0856775814913673e21, "massInGrams": 1.98841e43, "velocityInCmPerSecond": 1e5},
             "solver": "tree", "backend": "cpu", "orb": {"domainCount": 8, "balance": "work"}},
  "camera": {"target": [1.5, -2, 0.25], "distance": 35, "yawDegrees": 45, "pitchDegrees": -10},
  "view": {"colorMode": "orb-domain", "treeOverlay": {"enabled": true, "maxDepth": 6},
           "orbOverlay": {"showCells": true, "opacity": 0.5}},
  "run": {"paused": true, "stepsPerFrame": 4}
})");
    const SavedSession session = loadSession(file);
    const SimParams defaults;
    EXPECT_EQ(session.params.scenario, "disk-galaxy");
    EXPECT_EQ(session.params.bodyCount, 10000u);
    EXPECT_EQ(session.params.seed, 18446744073709551615u);
    EXPECT_EQ(session.params.timeStep, 0.002);
    EXPECT_EQ(session.params.softeningLength, defaults.softeningLength);
    EXPECT_EQ(session.params.initialFile, (folder.path() / "ics/run.csv").string()) << "relative to the session";
    EXPECT_EQ(session.params.initialFileFormat, SnapshotFormat::Csv);
    EXPECT_EQ(session.params.units.lengthName, "kpc") << "names follow from the scales when left out";
    EXPECT_NEAR(session.params.units.gravitationalConstant(), 43009.2, 0.1);
    EXPECT_EQ(session.params.solver, "tree");
    EXPECT_EQ(session.params.backend, BackendKind::Cpu);
    EXPECT_EQ(session.params.orb.domainCount, 8u);
    EXPECT_EQ(session.params.orb.balance, OrbBalance::Work);
    EXPECT_EQ(session.params.orb.rebuildInterval, defaults.orb.rebuildInterval);
    ASSERT_TRUE(session.camera.has_value());
    EXPECT_EQ(session.camera->target, (std::array<float, 3>{1.5f, -2.0f, 0.25f}));
    EXPECT_EQ(session.camera->distance, 35.0f);
    EXPECT_FLOAT_EQ(session.camera->yaw, float(std::numbers::pi / 4));
    EXPECT_FLOAT_EQ(session.camera->pitch, float(-std::numbers::pi / 18));
    EXPECT_EQ(session.camera->verticalFieldOfView, CameraState{}.verticalFieldOfView);
    EXPECT_EQ(session.colorMode, ColorMode::OrbDomain);
    EXPECT_TRUE(session.treeOverlay.enabled);
    EXPECT_EQ(session.treeOverlay.depths, (TreeDepthRange{0, 6}));
    EXPECT_TRUE(session.orbOverlay.showCells);
    EXPECT_EQ(session.orbOverlay.opacity, 0.5f);
    EXPECT_TRUE(session.paused);
    EXPECT_EQ(session.stepsPerFrame, 4);
    EXPECT_TRUE(session.autoRefreshEnergy);
}

TEST(SessionFile, MissingKeysTakeTheDefaults) {
    const TemporaryFolder folder;
    const std::filesystem::path file = folder.path() / "small.json";
    writeText(file, R"({"version": 1, "params": {"scenario": "plummer"}})");
    SavedSession expected;
    expected.params.scenario = "plummer";
    const SavedSession session = loadSession(file);
    EXPECT_EQ(session, expected);
    EXPECT_FALSE(session.camera.has_value()) << "no camera: fitted to the bodies";
    EXPECT_FALSE(session.stepsPerFrame.has_value()) << "no steps per frame: the mode's own";
}

struct BadFile {
    std::string text;
    std::string keyPath;  ///< empty: the problem is the file as a whole
    std::string expected; ///< part of the message saying what is wrong or allowed
};

TEST(SessionFile, EachBadFileIsRefusedWithOneLineNamingTheFileAndTheKey) {
    const std::vector<BadFile> badFiles = {
        {R"({"version": 1, "params": {"softenningLength": 0.1}})", "params.softenningLength",
         "is not a known key here: allowed scenario, bodyCount"},
        {R"({"version": 1, "camera": {"distance": 3}, "cameras": {}})", "cameras", "allowed version, params, camera"},
        {R"({"version": 1, "params": {"bodyCount": "many"}})", "params.bodyCount",
         "expected a number, found the string \"many\": allowed 1 <= bodyCount <= 268435456"},
        {R"({"version": 1, "params": {"recentre": 1}})", "params.recentre", "expected true or false, found 1"},
        {R"({"version": 1, "params": {"timeStep": -1}})", "params.timeStep",
         "-1 is out of range: allowed 0 < timeStep <= 1 (time step in N-body time units)"},
        {R"({"version": 1, "params": {"bodyCount": 100.5}})", "params.bodyCount", "100.5 is not a whole number"},
        {R"({"version": 1, "params": {"seed": -3}})", "params.seed", "-3 is not a whole number from 0 to"},
        {R"({"version": 1, "params": {"solver": "warp"}})", "params.solver", "solver = 'warp' is not known: allowed"},
        {R"({"version": 1, "params": {"scenario": "nebula"}})", "params.scenario",
         "scenario = 'nebula' is not known: allowed"},
        {R"({"version": 1, "params": {"scenario": "plummer", "scenarioParams": {"mass": 2}}})", "params.scenarioParams",
         "'mass' is not one of scenario 'plummer': allowed 'virial-ratio'"},
        {R"({"version": 1, "params": {"scenario": "plummer", "scenarioParams": {"virial-ratio": "hot"}}})",
         "params.scenarioParams", "parameter 'virial-ratio' must be a number, found \"hot\""},
        {R"({"version": 1, "params": {"scenario": "plummer", "scenarioParams": {"virial-ratio": 5}}})",
         "params.scenarioParams", "allowed 0 <= virial-ratio <= 3"},
        {R"({"version": 1, "params": {"backend": "gpu"}})", "params.backend",
         "'gpu' is not known: allowed 'auto', 'cuda', 'cpu' or 'gl'"},
        {R"({"version": 1, "params": {"initialFileFormat": "fits"}})", "params.initialFileFormat",
         "'fits' is not known: allowed 'tipsy'"},
        {R"({"version": 1, "params": {"bodyCount": 10, "orb": {"domainCount": 20}}})", "params.orb.domainCount",
         "more than the 10 bodies"},
        {R"({"version": 1, "params": {"units": {"lengthInCm": 3e21}}})", "params.units.lengthInCm",
         "either all 0 (N-body units) or all positive"},
        {R"({"version": 1, "camera": {"target": [1, 2]}})", "camera.target", "expected an array of three numbers"},
        {R"({"version": 1, "camera": {"pitchDegrees": 120}})", "camera.pitchDegrees", "120 is out of range"},
        {R"({"version": 1, "view": {"colorMode": "rainbow"}})", "view.colorMode", "'rainbow' is not known"},
        {R"({"version": 1, "view": {"colorScale": "cubic"}})", "view.colorScale", "'cubic' is not known"},
        {R"({"version": 1, "view": {"treeOverlay": {"minDepth": 5, "maxDepth": 2}}})", "view.treeOverlay.maxDepth",
         "2 is less than minDepth 5"},
        {R"({"version": 1, "run": {"stepsPerFrame": 0}})", "run.stepsPerFrame", "0 is out of range"},
        {R"({"version": 2, "params": {}})", "version",
         "2 is not supported: this gravlab reads session files of version 1"},
        {R"({"params": {}})", "version", "missing"},
        {R"([1, 2])", "(top level)", "expected an object"},
        {"{\n  \"version\": 1,\n  \"params\": {\"timeStep\": 0.01,}\n}", "",
         "not valid JSON: parse error at line 3, column"},
    };
    const TemporaryFolder folder;
    const std::filesystem::path file = folder.path() / "bad.json";
    for (const BadFile& bad : badFiles) {
        SCOPED_TRACE(bad.text);
        writeText(file, bad.text);
        try {
            loadSession(file);
            ADD_FAILURE() << "accepted";
        } catch (const SessionFileError& error) {
            const std::string message = error.what();
            const std::string prefix = file.string() + ": " + (bad.keyPath.empty() ? "" : bad.keyPath + ": ");
            EXPECT_EQ(message.rfind(prefix, 0), 0u) << message;
            EXPECT_EQ(error.keyPath(), bad.keyPath);
            EXPECT_NE(message.find(bad.expected), std::string::npos) << message;
            EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
        }
    }
}

TEST(SessionFile, AMissingFileIsRefusedNamingIt) {
    const TemporaryFolder folder;
    const std::filesystem::path file = folder.path() / "absent.json";
    try {
        loadSession(file);
        ADD_FAILURE() << "a missing file was loaded";
    } catch (const SessionFileError& error) {
        EXPECT_EQ(std::string(error.what()), file.string() + ": cannot be read: No such file or directory");
    }
}

TEST(SessionFile, AFailedSaveLeavesNoFile) {
    const TemporaryFolder folder;
    const std::filesystem::path inMissingFolder = folder.path() / "missing" / "session.json";
    EXPECT_THROW(saveSession(inMissingFolder, SavedSession{}), FileWriteError);
    EXPECT_FALSE(std::filesystem::exists(inMissingFolder.parent_path()));

    // A target that cannot be replaced (a folder of that name): the finished temporary file is removed again.
    const std::filesystem::path overFolder = folder.path() / "taken.json";
    std::filesystem::create_directory(overFolder);
    try {
        saveSession(overFolder, SavedSession{});
        ADD_FAILURE() << "saved over a folder";
    } catch (const FileWriteError& error) {
        EXPECT_NE(std::string(error.what()).find(overFolder.string()), std::string::npos) << error.what();
    }
    std::vector<std::filesystem::path> left;
    for (const auto& entry : std::filesystem::directory_iterator(folder.path()))
        left.push_back(entry.path());
    EXPECT_EQ(left, std::vector<std::filesystem::path>{overFolder}) << "no temporary file is left";
    EXPECT_TRUE(std::filesystem::is_empty(overFolder));
}

} // namespace
} // namespace gravlab::test
