// --session on the command line: the file's values arrive in AppOptions, flags given on the same command line
// override them wherever they stand, the ORB rules apply to flags only, a bad file is a usage error naming the file
// and the key. And the camera's plain state: its defaults are a fresh OrbitCamera's, and it goes into a camera and
// comes back unchanged.
#include "CommandLineTestSupport.hpp"

#include <CommandLine.hpp>
#include <TestSupport.hpp>
#include <ViewSettings.hpp>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace gravlab::test {
namespace {

/// A hand-written session file in folder.
std::string writeSession(const TemporaryFolder& folder, const std::string& text) {
    const std::filesystem::path file = folder.path() / "session.json";
    std::ofstream(file) << text;
    return file.string();
}

constexpr const char* kSession = R"({
  "version": 1,
  "params": {"scenario": "plummer", "bodyCount": 3000, "timeStep": 0.004, "solver": "tree", "backend": "cpu",
             "orb": {"domainCount": 8}},
  "camera": {"distance": 25, "pitchDegrees": 60},
  "view": {"colorMode": "component", "treeOverlay": {"enabled": true, "minDepth": 1, "maxDepth": 3, "opacity": 0.3},
           "orbOverlay": {"innerCells": true}},
  "run": {"paused": true, "stepsPerFrame": 5, "autoRefreshEnergy": false}
})";

TEST(SessionOptions, TheFileGivesEveryValue) {
    const TemporaryFolder folder;
    const std::string file = writeSession(folder, kSession);
    const CommandLineOutcome outcome = parse({"--session", file});
    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    const AppOptions& options = *outcome.options;
    EXPECT_EQ(options.sessionFile, std::filesystem::path(file));
    EXPECT_EQ(options.simulation.scenario, "plummer");
    EXPECT_EQ(options.simulation.bodyCount, 3000u);
    EXPECT_EQ(options.simulation.timeStep, 0.004);
    EXPECT_EQ(options.simulation.solver, "tree");
    EXPECT_EQ(options.simulation.backend, BackendKind::Cpu);
    EXPECT_EQ(options.simulation.orb.domainCount, 8u);
    EXPECT_EQ(options.colorMode, ColorMode::Component) << "ORB from the file does not recolour what the file says";
    ASSERT_TRUE(options.camera.has_value());
    EXPECT_EQ(options.camera->distance, 25.0f);
    EXPECT_TRUE(options.treeOverlay.enabled);
    EXPECT_EQ(options.treeOverlay.depths, (TreeDepthRange{1, 3}));
    EXPECT_EQ(options.treeOverlay.opacity, 0.3f);
    EXPECT_TRUE(options.orbOverlay.innerCells);
    EXPECT_FALSE(options.orbOverlay.showCells);
    EXPECT_TRUE(options.startPaused);
    EXPECT_EQ(options.stepsPerFrame, 5);
    EXPECT_FALSE(options.autoRefreshEnergy);
    EXPECT_TRUE(options.bodyCountGiven && options.solverGiven) << "the GPU's larger defaults do not replace them";
}

TEST(SessionOptions, FlagsOverrideTheFileWhereverTheyStand) {
    const TemporaryFolder folder;
    const std::string file = writeSession(folder, kSession);
    for (const bool flagsFirst : {false, true}) {
        SCOPED_TRACE(flagsFirst ? "flags before --session" : "flags after --session");
        std::vector<std::string> arguments = {"--dt",          "0.0025", "--steps-per-frame", "9",
                                              "--orb-domains", "16",     "--overlay-depth",   "2:5"};
        arguments.insert(flagsFirst ? arguments.end() : arguments.begin(), {"--session", file});
        const CommandLineOutcome outcome = parse(arguments);
        ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
        EXPECT_EQ(outcome.options->simulation.timeStep, 0.0025);
        EXPECT_EQ(outcome.options->stepsPerFrame, 9);
        EXPECT_EQ(outcome.options->simulation.orb.domainCount, 16u);
        EXPECT_EQ(outcome.options->colorMode, ColorMode::OrbDomain) << "an ORB flag colours by domain, as always";
        EXPECT_EQ(outcome.options->treeOverlay.depths, (TreeDepthRange{2, 5}));
        EXPECT_EQ(outcome.options->treeOverlay.opacity, 0.3f) << "what no flag names stays the file's";
        EXPECT_EQ(outcome.options->simulation.bodyCount, 3000u);
        EXPECT_TRUE(outcome.options->startPaused);
    }
}

TEST(SessionOptions, AViewShowingDomainsSwitchesOrbOnButAnExplicitZeroWins) {
    const TemporaryFolder folder;
    const std::string file = writeSession(
        folder, R"({"version": 1, "params": {"bodyCount": 40}, "view": {"orbOverlay": {"showCells": true}}})");
    const CommandLineOutcome fromFile = parse({"--session", file});
    ASSERT_TRUE(fromFile.options.has_value()) << fromFile.message;
    EXPECT_EQ(fromFile.options->simulation.orb.domainCount, 40u) << "min(64, N) domains, as --orb-cells gives";
    const CommandLineOutcome off = parse({"--session", file, "--orb-domains", "0"});
    ASSERT_TRUE(off.options.has_value()) << "the file's cells are not a flag given with --orb-domains 0: "
                                         << off.message;
    EXPECT_EQ(off.options->simulation.orb.domainCount, 0u);
}

TEST(SessionOptions, ABadFileIsAUsageErrorNamingTheFileAndTheKey) {
    const TemporaryFolder folder;
    const std::string file = writeSession(folder, R"({"version": 1, "params": {"orb": {"domainCont": 4}}})");
    const CommandLineOutcome outcome = parse({"--dt", "0.1", "--session", file});
    EXPECT_FALSE(outcome.options.has_value());
    EXPECT_EQ(outcome.exitCode, 2);
    const std::string firstLine = outcome.message.substr(0, outcome.message.find('\n'));
    EXPECT_EQ(firstLine.rfind("gravlab: error: --session: " + file + ": params.orb.domainCont: is not a known key", 0),
              0u)
        << outcome.message;
    EXPECT_NE(firstLine.find("domainCount"), std::string::npos) << "the allowed keys are listed: " << firstLine;

    const CommandLineOutcome missing = parse({"--session", (folder.path() / "none.json").string()});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.message.find("none.json: cannot be read"), std::string::npos) << missing.message;
}

TEST(CameraState, TheDefaultsAreAFreshCamerasAndAStateComesBackUnchanged) {
    EXPECT_EQ(cameraStateOf(OrbitCamera{}), CameraState{});
    const CameraState state{
        .target = {1.5f, -0.25f, 3.0f}, .distance = 42.0f, .yaw = 1.25f, .pitch = -0.5f, .verticalFieldOfView = 0.75f};
    OrbitCamera camera;
    applyCameraState(state, camera);
    EXPECT_EQ(cameraStateOf(camera), state);

    // The camera keeps its own limits: the field of view within 1..170 degrees, the pitch within +-89.
    CameraState wide = state;
    wide.verticalFieldOfView = 3.1f;
    wide.pitch = 1.6f;
    applyCameraState(wide, camera);
    EXPECT_FLOAT_EQ(camera.verticalFieldOfView(), glm::radians(170.0f));
    EXPECT_FLOAT_EQ(camera.pitch(), OrbitCamera::kMaxPitch);
}

} // namespace
} // namespace gravlab::test
