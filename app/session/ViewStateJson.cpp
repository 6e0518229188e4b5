// Camera and overlay settings to and from JSON (see ViewStateJson.hpp).
#include "ViewStateJson.hpp"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <numbers>

namespace gravlab {
namespace {

inline constexpr ParamRange kTargetRange{"target", -std::numeric_limits<float>::max(),
                                         std::numeric_limits<float>::max(), true, "N-body length units"};
inline constexpr ParamRange kYawDegreesRange{"yawDegrees", -360.0, 360.0, true, "degrees round +z"};

float floatFromFile(double value) {
    return static_cast<float>(value);
}

float radiansFromFileDegrees(double degrees) {
    return static_cast<float>(degrees * (std::numbers::pi / 180.0));
}

/// The decimal with the fewest significant digits that readBack turns into value again (see the design note); exact,
/// the value's own conversion, always does.
template <typename ReadBack> double shortestDecimal(double exact, float value, ReadBack readBack) {
    for (int digits = 1; digits < 17; ++digits) {
        char text[40];
        std::snprintf(text, sizeof text, "%.*g", digits, exact);
        const double candidate = std::strtod(text, nullptr);
        if (readBack(candidate) == value)
            return candidate;
    }
    return exact;
}

double fileNumber(float value) {
    return shortestDecimal(value, value, floatFromFile);
}

double fileDegrees(float radians) {
    return shortestDecimal(radians * (180.0 / std::numbers::pi), radians, radiansFromFileDegrees);
}

/// fileDegrees within range: the camera clamps to its own limit in float radians, which may be a hair beyond the
/// range's degrees; the limit itself is written then.
double fileDegreesWithin(float radians, const ParamRange& range) {
    const double degrees = fileDegrees(radians);
    return degrees < range.min ? range.min : degrees > range.max ? range.max : degrees;
}

void readFloat(JsonObjectReader& reader, std::string_view key, float& target, const ParamRange& range) {
    double value = 0;
    if (reader.read(key, value, range))
        target = floatFromFile(value);
}

void readDegrees(JsonObjectReader& reader, std::string_view key, float& radians, const ParamRange& range) {
    double degrees = 0;
    if (reader.read(key, degrees, range))
        radians = radiansFromFileDegrees(degrees);
}

std::array<float, 3> readTarget(const JsonObjectReader& reader, const Json& value) {
    if (!value.is_array() || value.size() != 3)
        reader.fail("target", "expected an array of three numbers [x, y, z], found " + describeJsonValue(value));
    std::array<float, 3> target{};
    for (std::size_t axis = 0; axis < 3; ++axis)
        target[axis] = floatFromFile(reader.numberValue("target", value[axis], kTargetRange));
    return target;
}

} // namespace

Json cameraToJson(const CameraState& camera) {
    return {{"target",
             Json::array({fileNumber(camera.target[0]), fileNumber(camera.target[1]), fileNumber(camera.target[2])})},
            {"distance", fileNumber(camera.distance)},
            {"yawDegrees", fileDegrees(camera.yaw)},
            {"pitchDegrees", fileDegrees(camera.pitch)},
            {"verticalFieldOfViewDegrees", fileDegreesWithin(camera.verticalFieldOfView, kFieldOfViewDegreesRange)}};
}

CameraState readCamera(JsonObjectReader& reader) {
    CameraState camera;
    if (const Json* target = reader.find("target"))
        camera.target = readTarget(reader, *target);
    readFloat(reader, "distance", camera.distance, kCameraDistanceRange);
    readDegrees(reader, "yawDegrees", camera.yaw, kYawDegreesRange);
    readDegrees(reader, "pitchDegrees", camera.pitch, kCameraPitchDegreesRange);
    readDegrees(reader, "verticalFieldOfViewDegrees", camera.verticalFieldOfView, kFieldOfViewDegreesRange);
    return camera;
}

Json treeOverlayToJson(const TreeOverlaySettings& overlay) {
    return {{"enabled", overlay.enabled},
            {"minDepth", overlay.depths.min},
            {"maxDepth", overlay.depths.max},
            {"onlyPickedPath", overlay.onlyPickedPath},
            {"opacity", fileNumber(overlay.opacity)}};
}

TreeOverlaySettings readTreeOverlay(JsonObjectReader& reader) {
    TreeOverlaySettings overlay;
    reader.read("enabled", overlay.enabled);
    reader.readWhole("minDepth", overlay.depths.min, kOverlayDepthRange);
    reader.readWhole("maxDepth", overlay.depths.max, kOverlayDepthRange);
    if (overlay.depths.min > overlay.depths.max)
        reader.fail("maxDepth", std::to_string(overlay.depths.max) + " is less than minDepth " +
                                    std::to_string(overlay.depths.min) + ": allowed 0 <= minDepth <= maxDepth <= " +
                                    std::to_string(kMaxOverlayDepth) + " (octree depths to draw, 0 = root)");
    reader.read("onlyPickedPath", overlay.onlyPickedPath);
    readFloat(reader, "opacity", overlay.opacity, kOverlayOpacityRange);
    return overlay;
}

Json orbOverlayToJson(const OrbOverlaySettings& overlay) {
    return {
        {"showCells", overlay.showCells}, {"innerCells", overlay.innerCells}, {"opacity", fileNumber(overlay.opacity)}};
}

OrbOverlaySettings readOrbOverlay(JsonObjectReader& reader) {
    OrbOverlaySettings overlay;
    reader.read("showCells", overlay.showCells);
    reader.read("innerCells", overlay.innerCells);
    readFloat(reader, "opacity", overlay.opacity, kOverlayOpacityRange);
    return overlay;
}

} // namespace gravlab
