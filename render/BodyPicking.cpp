// Cursor to nearest projected body.
#include <gravlab/render/BodyPicking.hpp>

#include <cmath>

namespace gravlab {

namespace {

/// Where body lands on screen and how far in front of the eye, or nothing when it is not on screen.
struct Projection {
    glm::vec2 pixel;
    float eyeDepth;
};

std::optional<Projection> project(const RenderVertex& body, const PickRequest& request) {
    const glm::vec4 clip = request.viewProjection * glm::vec4(body.x, body.y, body.z, 1.0f);
    // w is the distance in front of the eye; outside -w <= z <= w the near or far plane clips the body. Written so
    // that NaN (a non-finite position) fails the test.
    if (!(clip.w > 0.0f && clip.z >= -clip.w && clip.z <= clip.w))
        return std::nullopt;
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    return Projection{{0.5f * (ndc.x + 1.0f) * request.viewportSize.x, 0.5f * (1.0f - ndc.y) * request.viewportSize.y},
                      clip.w};
}

} // namespace

std::optional<PickedBody> pickNearestBody(std::span<const RenderVertex> bodies, const PickRequest& request) {
    // Pass 1: the smallest distance on screen.
    float nearest = request.maxPixelDistance;
    bool any = false;
    for (const RenderVertex& body : bodies) {
        if (const std::optional<Projection> projected = project(body, request)) {
            const float distance = glm::length(projected->pixel - request.cursor);
            if (distance <= nearest) {
                nearest = distance;
                any = true;
            }
        }
    }
    if (!any)
        return std::nullopt;
    // Pass 2: among the bodies on that spot, the one in front.
    std::optional<PickedBody> picked;
    float frontDepth = 0.0f;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const std::optional<Projection> projected = project(bodies[i], request);
        if (!projected)
            continue;
        const float distance = glm::length(projected->pixel - request.cursor);
        if (distance > nearest + kSameSpotPixels || (picked && projected->eyeDepth >= frontDepth))
            continue;
        picked = PickedBody{i, glm::vec3(bodies[i].x, bodies[i].y, bodies[i].z), distance};
        frontDepth = projected->eyeDepth;
    }
    return picked;
}

} // namespace gravlab
