#pragma once
// Which body a click meant: the one whose projection lies nearest to the cursor.
//
// Design note: the bodies are projected with the same view and projection matrices the frame was drawn with
// (clip = P V p, pixel = viewport transform of clip / w, rows counted from the top like window cursor coordinates), and
// the smallest distance in pixels wins. Bodies whose distances are within kSameSpotPixels of the smallest count as the
// same spot, and of those the one nearest the eye wins: it is the one drawn in front, and in a dense core the user
// means the star they see, not one hidden behind it. Bodies behind the eye, outside the near and far planes or with
// non-finite positions are not on screen and cannot be picked, nor can a body further than maxPixelDistance from the
// cursor (a click on empty sky picks nothing). Two passes over the host copy of the vertices (the smallest distance,
// then the front body at it): O(N), some 10 ms for a million bodies, paid once per click.
#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <glm/glm.hpp>
#include <optional>
#include <span>

namespace gravlab {

struct PickRequest {
    glm::mat4 viewProjection{1.0f}; ///< projection * view of the frame the cursor points into
    glm::vec2 cursor{0.0f};         ///< cursor position, pixels from the top-left corner
    glm::vec2 viewportSize{1.0f};   ///< viewport width and height in the cursor's pixels
    float maxPixelDistance = 12.0f; ///< bodies further than this from the cursor are not picked
};

/// Screen distances this close to the smallest one are the same spot (see the design note).
inline constexpr float kSameSpotPixels = 0.5f;

struct PickedBody {
    std::size_t index;   ///< into the vertices searched
    glm::vec3 position;  ///< the body's position, N-body length units
    float pixelDistance; ///< from the cursor to the body's projection
};

/// The body nearest to the cursor on screen (see the design note), or none.
std::optional<PickedBody> pickNearestBody(std::span<const RenderVertex> bodies, const PickRequest& request);

} // namespace gravlab
