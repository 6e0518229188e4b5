// ORB boxes clipped to the region of interest, through the real frame path (OrbCellFeed -> SceneRenderer into an
// OffscreenTarget): one domain reaches 300 units out of a region 1.6 units wide, its neighbour lies wholly outside.
// The test projects the region and the clipped box with its own GLM matrices: every lit pixel lies on the clipped
// box's edges inside the projected region, the box's own edges are lit in the domain's colour where the projection
// puts them, and the edges on the cut face are at most half as bright (dashed, fainter).
#include "RenderTestSupport.hpp"

#include <gravlab/render/BoxClipping.hpp>
#include <gravlab/render/ColorPalettes.hpp>
#include <gravlab/render/OffscreenTarget.hpp>
#include <gravlab/render/OrbCellFeed.hpp>
#include <gravlab/render/SceneRenderer.hpp>

#include <algorithm>
#include <random>

namespace gravlab::test {
namespace {

using OrbClipping = HeadlessGlTest;

/// Whether the edge from corner along axisBit (corner bits: 1 x, 2 y, 4 z set on the upper side) lies on the face
/// (faceAxis, upperSide).
bool edgeOnFace(int corner, int axisBit, int faceAxis, bool upperSide) {
    const int faceBitOfCorner = 1 << faceAxis;
    return axisBit != faceBitOfCorner && ((corner & faceBitOfCorner) != 0) == upperSide;
}

TEST_F(OrbClipping, AFarReachingDomainIsDrawnOnlyInsideTheRegionWithItsCutFaceFainter) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> jitter(-0.15f, 0.15f);
    const SceneBounds bounds{{0.3f + jitter(random), -0.2f + jitter(random), 0.1f + jitter(random)},
                             0.8f / kRegionRadii};
    const AxisBox region = regionOfInterest(bounds); // the centre +- 0.8
    const glm::vec3 c = bounds.centre;
    // Root along x from c.x - 0.5 to c.x + 500, cut at c.x + 300: leaf 0 reaches 300 units beyond the region's upper
    // x face, leaf 1 lies wholly outside.
    const glm::vec3 lower = c + glm::vec3(-0.5f, -0.6f + jitter(random), -0.45f + jitter(random));
    const glm::vec3 upper = c + glm::vec3(500.0f, 0.55f + jitter(random), 0.4f + jitter(random));
    const float cutX = c.x + 300.0f;
    const KnownOrbVisuals source({orbCell(lower, upper, 1, 0, 0, 2),
                                  orbCell(lower, {cutX, upper.y, upper.z}, -1, -1, 0, 1),
                                  orbCell({cutX, lower.y, lower.z}, upper, -1, -1, 1, 1)});

    const int width = std::uniform_int_distribution<int>(260, 340)(random);
    const int height = std::uniform_int_distribution<int>(200, 260)(random);
    OrbitCamera camera;
    camera.fit(bounds, float(width) / float(height));
    camera.setAngles(std::uniform_real_distribution<float>(-3.1f, 3.1f)(random),
                     std::uniform_real_distribution<float>(-1.2f, 1.2f)(random));
    // 5 units away the region's corners (at most 1.39 from the centre) stay inside a 45 degree view.
    camera.setDistance(5.0f);

    SceneRenderer renderer;
    OrbCellFeed feed;
    ASSERT_TRUE(feed.update(source, false, renderer.orbOverlay(), region));
    EXPECT_EQ(renderer.orbOverlay().boxCount(), 1u) << "leaf 1 lies outside the region";
    EXPECT_EQ(renderer.orbOverlay().skippedBoxCount(), 1u);
    EXPECT_EQ(renderer.orbOverlay().clippedBoxCount(), 1u);
    EXPECT_EQ(renderer.orbOverlay().domainCount(), 2u);
    EXPECT_FALSE(feed.update(source, false, renderer.orbOverlay(), region)) << "same region: nothing to redo";

    const OffscreenTarget target(width, height);
    FrameLook look;
    look.orbOverlay.opacity = 1.0f;
    renderer.render(camera, look, {target.framebuffer(), width, height});
    const ImageRgba8 image = target.readPixels();

    const glm::vec3 clippedUpper(region.upper.x, upper.y, upper.z);
    const std::vector<Segment> edges = projectedBoxEdges(lower, clippedUpper, camera, width, height);
    const std::vector<Segment> regionEdges = projectedBoxEdges(region.lower, region.upper, camera, width, height);
    glm::vec2 regionMin(1e9f), regionMax(-1e9f);
    for (const Segment& e : regionEdges) {
        regionMin = glm::min(regionMin, glm::min(e.a, e.b));
        regionMax = glm::max(regionMax, glm::max(e.a, e.b));
    }

    // 1. Light only on the clipped box's edges, and only inside the projected region.
    int lit = 0;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const std::uint8_t* p = image.pixel(x, y);
            if (std::max({p[0], p[1], p[2]}) <= 1)
                continue;
            ++lit;
            const glm::vec2 centre(x + 0.5f, y + 0.5f);
            float nearest = 1e9f;
            for (const Segment& e : edges)
                nearest = std::min(nearest, distanceToSegment(centre, e));
            ASSERT_LT(nearest, 1.5f) << "light off the clipped box's edges at (" << x << ", " << y << ")";
            ASSERT_TRUE(centre.x > regionMin.x - 1.5f && centre.x < regionMax.x + 1.5f &&
                        centre.y > regionMin.y - 1.5f && centre.y < regionMax.y + 1.5f)
                << "light outside the projected region at (" << x << ", " << y << ")";
        }
    }
    EXPECT_GT(lit, 100);

    // 2. The box's own edges (those not on the cut face, upper x) in the domain's colour; cut-face edges dimmer.
    // projectedBoxEdges lists, for corners i without the bit, the edge from i to i | bit, bits 1 (x), 2 (y), 4 (z).
    std::vector<Segment> ownEdges, cutEdges;
    std::size_t index = 0;
    for (int corner = 0; corner < 8; ++corner)
        for (const int axisBit : {1, 2, 4})
            if ((corner & axisBit) == 0)
                (edgeOnFace(corner, axisBit, 0, true) ? cutEdges : ownEdges).push_back(edges[index++]);
    ASSERT_EQ(cutEdges.size(), 4u);
    const glm::vec3 expected = 255.0f * paletteColor(BodyPalette::DomainHues, orbDomainColorScalar(0));
    int ownChecked = 0;
    for (const Segment& edge : ownEdges) {
        for (int k = 1; k < 16; ++k) {
            const glm::vec2 sample = glm::mix(edge.a, edge.b, float(k) / 16.0f);
            float nearOther = 1e9f; // where edges cross in projection the 3x3 block may be lit by both
            for (const Segment& other : edges)
                if (glm::length(other.a - edge.a) + glm::length(other.b - edge.b) > 1e-3f) // not edge itself
                    nearOther = std::min(nearOther, distanceToSegment(sample, other));
            if (nearOther < 3.0f)
                continue;
            const std::array<int, 3> rgb = brightestAround(image, sample);
            for (int channel = 0; channel < 3; ++channel)
                ASSERT_NEAR(rgb[channel], expected[channel], 2.5f)
                    << "own edge, channel " << channel << " near pixel (" << sample.x << ", " << sample.y << ")";
            ++ownChecked;
        }
    }
    EXPECT_GT(ownChecked, 24);

    int cutLit = 0, cutChecked = 0;
    for (const Segment& edge : cutEdges) {
        for (int k = 1; k < 32; ++k) {
            const glm::vec2 sample = glm::mix(edge.a, edge.b, float(k) / 32.0f);
            float nearOwn = 1e9f;
            for (const Segment& own : ownEdges)
                nearOwn = std::min(nearOwn, distanceToSegment(sample, own));
            if (nearOwn < 3.0f)
                continue;
            const std::array<int, 3> rgb = brightestAround(image, sample);
            for (int channel = 0; channel < 3; ++channel)
                // Seen edge-on, the cut face's 4 edges fall on 2 lines: two blends of kCutEdgeAlpha at most.
                ASSERT_LE(rgb[channel],
                          (1.0f - (1.0f - kCutEdgeAlpha) * (1.0f - kCutEdgeAlpha)) * expected[channel] + 2.5f)
                    << "cut edge as bright as the box's own near (" << sample.x << ", " << sample.y << ")";
            ++cutChecked;
            cutLit += std::max({rgb[0], rgb[1], rgb[2]}) >= 0.25f * std::max({expected.r, expected.g, expected.b});
        }
    }
    EXPECT_GT(cutChecked, 8);
    EXPECT_GT(cutLit, 0) << "the cut face must still be drawn, dashed";
}

TEST_F(OrbClipping, ANewRegionReUploadsTheHeldCellsWithoutAskingTheBackend) {
    const KnownOrbVisuals source({orbCell({-1, -1, -1}, {100, 1, 1}, -1, -1, 0, 1)});
    OrbOverlayRenderer overlay;
    OrbCellFeed feed;
    EXPECT_TRUE(feed.update(source, false, overlay));
    EXPECT_EQ(overlay.clippedBoxCount(), 0u) << "no region: drawn whole";
    EXPECT_FALSE(feed.update(source, false, overlay, AxisBox{{-2, -2, -2}, {2, 2, 2}}));
    EXPECT_EQ(overlay.clippedBoxCount(), 1u);
    EXPECT_FALSE(feed.update(source, false, overlay, AxisBox{{200, -2, -2}, {300, 2, 2}}));
    EXPECT_EQ(overlay.boxCount(), 0u);
    EXPECT_EQ(overlay.skippedBoxCount(), 1u);
    EXPECT_FALSE(feed.stale());
    feed.invalidate();
    EXPECT_TRUE(feed.stale());
}

} // namespace
} // namespace gravlab::test
