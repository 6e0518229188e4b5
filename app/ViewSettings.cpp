// Names and parsing of the colour mode and the overlay's depth range; the camera's pose to and from its plain state.
#include "ViewSettings.hpp"

#include <array>
#include <charconv>
#include <string>

namespace gravlab {

namespace {

/// A whole number taking all of text, or nothing.
std::optional<int> wholeNumber(std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

[[noreturn]] void throwBadDepthRange(std::string_view text, const std::string& problem) {
    throw InvalidParameterError("overlay-depth", "overlay-depth = '" + std::string(text) + "' " + problem +
                                                     ": allowed MIN:MAX with whole numbers 0 <= MIN <= MAX <= " +
                                                     std::to_string(kMaxOverlayDepth) +
                                                     " (octree depths to draw, 0 = root), e.g. 0:4");
}

} // namespace

std::string_view toString(ColorMode mode) {
    return enumName(mode);
}

ColorMode parseColorMode(std::string_view name) {
    return parseEnumName<ColorMode>(name);
}

TreeDepthRange parseTreeDepthRange(std::string_view text) {
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos)
        throwBadDepthRange(text, "is not of the form MIN:MAX");
    const std::optional<int> min = wholeNumber(text.substr(0, colon));
    const std::optional<int> max = wholeNumber(text.substr(colon + 1));
    if (!min || !max)
        throwBadDepthRange(text, "does not hold two whole numbers");
    if (*min < 0 || *max > kMaxOverlayDepth)
        throwBadDepthRange(text, "is out of range");
    if (*min > *max)
        throwBadDepthRange(text, "has MIN > MAX");
    return {*min, *max};
}

TreeCellQuery treeCellQueryFor(const TreeOverlaySettings& settings,
                               const std::optional<std::array<float, 3>>& pickedPoint) {
    TreeCellQuery query;
    query.minDepth = settings.depths.min;
    query.maxDepth = settings.depths.max;
    if (settings.onlyPickedPath)
        query.containingPoint = pickedPoint;
    return query;
}

CameraState cameraStateOf(const OrbitCamera& camera) {
    const glm::vec3& target = camera.target();
    return {.target = {target.x, target.y, target.z},
            .distance = camera.distance(),
            .yaw = camera.yaw(),
            .pitch = camera.pitch(),
            .verticalFieldOfView = camera.verticalFieldOfView()};
}

void applyCameraState(const CameraState& state, OrbitCamera& camera) {
    camera.setTarget({state.target[0], state.target[1], state.target[2]});
    camera.setDistance(state.distance);
    camera.setAngles(state.yaw, state.pitch);
    camera.setVerticalFieldOfView(state.verticalFieldOfView);
}

} // namespace gravlab
