// Session files: the version, the four parts, reading the text and writing it atomically (see SessionFile.hpp).
#include "SessionFile.hpp"

#include "JsonReader.hpp"
#include "SimParamsJson.hpp"
#include "ViewStateJson.hpp"

#include <gravlab/sim/AtomicFile.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace gravlab {
namespace {

/// "FILE: KEY PATH: problem", or "FILE: problem" without a key path.
std::string sessionMessage(const std::filesystem::path& file, const std::string& keyPath, const std::string& problem) {
    return file.string() + ": " + (keyPath.empty() ? "" : keyPath + ": ") + problem;
}

Json runToJson(const SavedSession& session) {
    Json run = {{"paused", session.paused}};
    if (session.stepsPerFrame)
        run["stepsPerFrame"] = *session.stepsPerFrame;
    run["autoRefreshEnergy"] = session.autoRefreshEnergy;
    return run;
}

Json sessionToJson(const SavedSession& session) {
    SimParams params = session.params;
    if (!params.initialFile.empty()) // absolute, so that the file still finds it when loaded from another folder
        params.initialFile = std::filesystem::absolute(params.initialFile).lexically_normal().string();
    Json json = {{"version", kSessionFileVersion}, {"params", simParamsToJson(params)}};
    if (session.camera)
        json["camera"] = cameraToJson(*session.camera);
    json["view"] = {{"colorMode", std::string(enumName(session.colorMode))},
                    {"colorScale", std::string(enumName(session.colorScale))},
                    {"treeOverlay", treeOverlayToJson(session.treeOverlay)},
                    {"orbOverlay", orbOverlayToJson(session.orbOverlay)}};
    json["run"] = runToJson(session);
    return json;
}

void checkVersion(JsonObjectReader& reader) {
    const Json* version = reader.find("version");
    const std::string expected = "this gravlab reads session files of version " + std::to_string(kSessionFileVersion);
    if (version == nullptr)
        reader.fail("version", "missing: a session file starts with \"version\": " +
                                   std::to_string(kSessionFileVersion) + " (" + expected + ")");
    if (!version->is_number_integer() || version->get<long long>() != kSessionFileVersion)
        reader.fail("version", describeJsonValue(*version) + " is not supported: " + expected);
}

void readView(JsonObjectReader& reader, SavedSession& session) {
    reader.readName("colorMode", session.colorMode);
    reader.readName("colorScale", session.colorScale);
    reader.readObject("treeOverlay", [&](JsonObjectReader& tree) { session.treeOverlay = readTreeOverlay(tree); });
    reader.readObject("orbOverlay", [&](JsonObjectReader& orb) { session.orbOverlay = readOrbOverlay(orb); });
}

void readRun(JsonObjectReader& reader, SavedSession& session) {
    reader.read("paused", session.paused);
    int stepsPerFrame = 0;
    if (reader.readWhole("stepsPerFrame", stepsPerFrame, kStepsPerFrameRange))
        session.stepsPerFrame = stepsPerFrame;
    reader.read("autoRefreshEnergy", session.autoRefreshEnergy);
}

SavedSession sessionFromJson(const Json& json, const std::filesystem::path& file) {
    JsonObjectReader reader(json, "");
    checkVersion(reader);
    SavedSession session;
    if (const Json* params = reader.find("params"))
        session.params = simParamsFromJson(*params, "params");
    const std::filesystem::path initialFile(session.params.initialFile);
    if (!initialFile.empty() && initialFile.is_relative())
        session.params.initialFile = (file.parent_path() / initialFile).string();
    reader.readObject("camera", [&](JsonObjectReader& camera) { session.camera = readCamera(camera); });
    reader.readObject("view", [&](JsonObjectReader& view) { readView(view, session); });
    reader.readObject("run", [&](JsonObjectReader& run) { readRun(run, session); });
    reader.finish();
    return session;
}

std::string readText(const std::filesystem::path& file) {
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(file.c_str(), "rb"), std::fclose);
    if (!stream)
        throw SessionFileError(file, "", std::string("cannot be read: ") + std::strerror(errno));
    std::string text;
    char buffer[65536];
    std::size_t count = 0;
    while ((count = std::fread(buffer, 1, sizeof buffer, stream.get())) > 0)
        text.append(buffer, count);
    if (std::ferror(stream.get()))
        throw SessionFileError(file, "", std::string("cannot be read: ") + std::strerror(errno));
    return text;
}

/// nlohmann's message without its "[json.exception.parse_error.101] " prefix: it already names the line and column.
std::string parseProblem(const nlohmann::json::parse_error& error) {
    const std::string what = error.what();
    const std::size_t prefixEnd = what.rfind("] ", what.find(" parse error"));
    return "not valid JSON: " + (prefixEnd == std::string::npos ? what : what.substr(prefixEnd + 2));
}

} // namespace

SessionFileError::SessionFileError(const std::filesystem::path& file, const std::string& keyPath,
                                   const std::string& problem)
    : std::runtime_error(sessionMessage(file, keyPath, problem)), m_file(file), m_keyPath(keyPath) {}

void saveSession(const std::filesystem::path& file, const SavedSession& session) {
    std::string text;
    try {
        text = sessionToJson(session).dump(2) + "\n";
    } catch (const nlohmann::json::type_error& error) { // a name or path that is not UTF-8
        throw FileWriteError(file, std::string("cannot be written as JSON: ") + error.what());
    }
    AtomicFile output(file);
    output.write(text.data(), text.size());
    output.commit();
}

SavedSession loadSession(const std::filesystem::path& file) {
    const std::string text = readText(file);
    Json json;
    try {
        json = Json::parse(text);
    } catch (const nlohmann::json::parse_error& error) {
        throw SessionFileError(file, "", parseProblem(error));
    }
    try {
        return sessionFromJson(json, file);
    } catch (const JsonFieldError& error) {
        throw SessionFileError(file, error.keyPath(), error.what());
    }
}

} // namespace gravlab
