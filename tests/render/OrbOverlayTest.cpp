// ORB cells through the real frame path (OrbCellFeed -> SceneRenderer into an OffscreenTarget): a fake visual source
// returns a known bisection (three domains, random cuts), and the test projects every leaf's corners with its own
// matrices to find where the edges must land. Each domain's edges carry that domain's palette colour, nothing is lit
// away from the edges, inner cells are drawn only on request, and the feed collects again only when told to.
#include "RenderTestSupport.hpp"

#include <gravlab/render/ColorPalettes.hpp>
#include <gravlab/render/OffscreenTarget.hpp>
#include <gravlab/render/OrbCellFeed.hpp>
#include <gravlab/render/SceneRenderer.hpp>

#include <algorithm>
#include <random>

namespace gravlab::test {
namespace {

using OrbOverlay = HeadlessGlTest;

/// Three domains, breadth first as backends return them: the root cut along x at cutX into leaf 0 (left) and a cell
/// cut along y at cutY into leaves 1 and 2.
std::vector<OrbCell> threeDomains(const glm::vec3& lower, const glm::vec3& upper, float cutX, float cutY) {
    return {orbCell(lower, upper, 1, 0, 0, 3), orbCell(lower, {cutX, upper.y, upper.z}, -1, -1, 0, 1),
            orbCell({cutX, lower.y, lower.z}, upper, 3, 1, 1, 2),
            orbCell({cutX, lower.y, lower.z}, {upper.x, cutY, upper.z}, -1, -1, 1, 1),
            orbCell({cutX, cutY, lower.z}, upper, -1, -1, 2, 1)};
}

/// Where each leaf's edges must land in a width x height image from camera.
std::vector<std::vector<Segment>> leafEdgesInView(const std::vector<OrbCell>& cells, const OrbitCamera& camera,
                                                  int width, int height) {
    std::vector<std::vector<Segment>> edges;
    for (const OrbCell& c : cells)
        if (c.isLeaf())
            edges.push_back(projectedBoxEdges(glm::vec3(c.lower[0], c.lower[1], c.lower[2]),
                                              glm::vec3(c.upper[0], c.upper[1], c.upper[2]), camera, width, height));
    return edges;
}

struct EdgeSample {
    std::size_t leaf;
    glm::vec2 pixel;
};

/// 15 points along each leaf's edges, less those within 3 pixels of another domain's edge, where the 3x3 block read
/// around a point may hold that domain's colour instead.
std::vector<EdgeSample> samplesAwayFromOtherDomains(const std::vector<std::vector<Segment>>& leafEdges) {
    std::vector<EdgeSample> samples;
    for (std::size_t leaf = 0; leaf < leafEdges.size(); ++leaf)
        for (const Segment& edge : leafEdges[leaf])
            for (int k = 1; k < 16; ++k) {
                const glm::vec2 sample = glm::mix(edge.a, edge.b, float(k) / 16.0f);
                float otherDomain = 1e9f;
                for (std::size_t other = 0; other < leafEdges.size(); ++other)
                    if (other != leaf)
                        for (const Segment& e : leafEdges[other])
                            otherDomain = std::min(otherDomain, distanceToSegment(sample, e));
                if (otherDomain >= 3.0f)
                    samples.push_back({leaf, sample});
            }
    return samples;
}

TEST_F(OrbOverlay, EachDomainsEdgesAreLitInItsPaletteColourAndNothingElsewhere) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> half(0.5f, 1.0f);
    // Corners within sqrt(3) of the target, 8 units away with a 45 degree field of view: all well inside the image.
    const glm::vec3 upper(half(random), half(random), half(random));
    const glm::vec3 lower = -upper;
    const float cutX = std::uniform_real_distribution<float>(-0.3f, 0.3f)(random);
    const float cutY = std::uniform_real_distribution<float>(-0.3f, 0.3f)(random);
    const std::vector<OrbCell> cells = threeDomains(lower, upper, cutX, cutY);
    const KnownOrbVisuals source(cells);
    // A view along a cut plane stacks the domains' edges on each other, leaving too few points whose colour can be
    // told apart (about 1 view in 100 left fewer than 60): such a view is drawn again, before anything is rendered.
    OrbitCamera camera;
    int width = 0, height = 0;
    std::vector<std::vector<Segment>> leafEdges;
    std::vector<EdgeSample> samples;
    for (int view = 0; view < 20 && samples.size() <= 60; ++view) {
        camera = randomCameraAtEightUnits(random);
        width = std::uniform_int_distribution<int>(180, 320)(random);
        height = std::uniform_int_distribution<int>(121, 240)(random);
        leafEdges = leafEdgesInView(cells, camera, width, height);
        samples = samplesAwayFromOtherDomains(leafEdges);
    }
    ASSERT_GT(samples.size(), 60u) << "no view of 20 left enough edge points away from other domains' edges";
    SCOPED_TRACE("size " + std::to_string(width) + "x" + std::to_string(height));

    SceneRenderer renderer;
    OrbCellFeed feed;
    ASSERT_TRUE(feed.update(source, false, renderer.orbOverlay()));
    EXPECT_EQ(renderer.orbOverlay().boxCount(), 3u) << "leaves only: inner cells were not asked for";
    const OffscreenTarget target(width, height);
    FrameLook look;
    look.orbOverlay.opacity = 1.0f; // colours over black then read back exactly as the palette says
    renderer.render(camera, look, {target.framebuffer(), width, height});
    const ImageRgba8 image = target.readPixels();

    std::vector<std::uint32_t> leafDomains;
    for (const OrbCell& c : cells)
        if (c.isLeaf())
            leafDomains.push_back(c.firstDomain);
    for (const EdgeSample& sample : samples) {
        const glm::vec3 expected =
            255.0f * paletteColor(BodyPalette::DomainHues, orbDomainColorScalar(leafDomains[sample.leaf]));
        const std::array<int, 3> rgb = brightestAround(image, sample.pixel);
        // Opaque lines over black: the palette colour itself, up to 8-bit rounding (2 of 255).
        for (int channel = 0; channel < 3; ++channel)
            ASSERT_NEAR(rgb[channel], expected[channel], 2.5f)
                << "domain " << leafDomains[sample.leaf] << " channel " << channel << " near pixel (" << sample.pixel.x
                << ", " << sample.pixel.y << ")";
    }

    int darkChecked = 0;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const glm::vec2 centre(x + 0.5f, y + 0.5f);
            float nearest = 1e9f;
            for (const std::vector<Segment>& edges : leafEdges)
                for (const Segment& edge : edges)
                    nearest = std::min(nearest, distanceToSegment(centre, edge));
            // Rasterised line pixels lie within about 0.7 pixels of the exact segment; 1.5 leaves room for rounding.
            if (nearest < 1.5f)
                continue;
            const std::uint8_t* p = image.pixel(x, y);
            ASSERT_LE(std::max({p[0], p[1], p[2]}), 1)
                << "light away from every domain's edges at (" << x << ", " << y << ")";
            ++darkChecked;
        }
    }
    EXPECT_GT(darkChecked, width * height / 2);
}

TEST_F(OrbOverlay, InnerCellsAreDrawnOnlyOnRequestAndFaintWhite) {
    const std::vector<OrbCell> cells = threeDomains({-1, -0.8f, -0.6f}, {1, 0.8f, 0.6f}, 0.1f, -0.2f);
    OrbOverlayRenderer overlay;
    overlay.upload(cells, false);
    EXPECT_EQ(overlay.boxCount(), 3u);
    EXPECT_EQ(overlay.domainCount(), 3u);
    overlay.upload(cells, true);
    EXPECT_EQ(overlay.boxCount(), 5u) << "3 leaves and 2 inner cells";
    EXPECT_EQ(overlay.domainCount(), 3u);
    overlay.upload({}, true);
    EXPECT_EQ(overlay.boxCount(), 0u);
}

TEST_F(OrbOverlay, FeedCollectsAgainOnlyWhenInvalidatedOrTheInnerCellChoiceChanged) {
    const KnownOrbVisuals source(threeDomains({-1, -1, -1}, {1, 1, 1}, 0.0f, 0.0f));
    OrbOverlayRenderer overlay;
    OrbCellFeed feed;
    EXPECT_TRUE(feed.update(source, false, overlay));
    EXPECT_FALSE(feed.update(source, false, overlay)) << "nothing changed: no collection expected";
    EXPECT_EQ(source.collectCount, 1);
    EXPECT_EQ(feed.cellCount(), 5u);
    EXPECT_TRUE(feed.update(source, true, overlay));
    EXPECT_EQ(overlay.boxCount(), 5u);
    feed.invalidate();
    EXPECT_TRUE(feed.update(source, true, overlay)) << "after a step the domains must be collected again";
    EXPECT_EQ(source.collectCount, 3);
    feed.clear(overlay);
    EXPECT_EQ(overlay.boxCount(), 0u);
    EXPECT_TRUE(feed.update(source, true, overlay)) << "after clear() the next update must collect";
}

TEST_F(OrbOverlay, ABackendWithoutDomainsDrawsNothing) {
    const InertVisuals source;
    SceneRenderer renderer;
    OrbCellFeed feed;
    feed.update(source, true, renderer.orbOverlay());
    EXPECT_EQ(renderer.orbOverlay().boxCount(), 0u);
    const OffscreenTarget target(64, 48);
    renderer.render(OrbitCamera{}, FrameLook{}, {target.framebuffer(), 64, 48});
    const ImageRgba8 image = target.readPixels();
    int brightest = 0;
    for (std::size_t i = 0; i < image.pixels.size(); i += 4)
        brightest = std::max({brightest, int{image.pixels[i]}, int{image.pixels[i + 1]}, int{image.pixels[i + 2]}});
    EXPECT_LE(brightest, 1);
}

} // namespace
} // namespace gravlab::test
