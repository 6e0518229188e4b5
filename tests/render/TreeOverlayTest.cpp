// The octree overlay through the real frame path (TreeOverlayFeed -> SceneRenderer into an OffscreenTarget): a fake
// visual source returns known cells, and the test computes from the camera matrices, independently of the shader, where
// each cube edge must land. Lit edges there, black everywhere else (so cells outside the queried depth range are not
// drawn), the depth palette's ends, the picked body's white marker, and the feed's rule for when it queries again.
#include "RenderTestSupport.hpp"

#include <gravlab/render/OffscreenTarget.hpp>
#include <gravlab/render/SceneRenderer.hpp>
#include <gravlab/render/TreeOverlayFeed.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

namespace gravlab::test {
namespace {

using TreeOverlay = HeadlessGlTest;

/// A visual source whose "tree" is a fixed list of cells; it answers queries by the depth range and point as documented
/// in TreeView.hpp, and remembers how often and with what it was asked.
class KnownCellsVisuals final : public InertVisuals {
public:
    explicit KnownCellsVisuals(std::vector<TreeCellBox> cells) : m_cells(std::move(cells)) {}
    void collectTreeCells(const TreeCellQuery& query, std::vector<TreeCellBox>& out) const override {
        ++queryCount;
        lastQuery = query;
        out.clear();
        for (const TreeCellBox& cell : m_cells) {
            const bool inRange = cell.depth >= query.minDepth && cell.depth <= query.maxDepth;
            if (inRange && (!query.containingPoint || contains(cell, *query.containingPoint)) &&
                out.size() < query.maxCells)
                out.push_back(cell);
        }
    }
    mutable int queryCount = 0;
    mutable TreeCellQuery lastQuery;

private:
    static bool contains(const TreeCellBox& cell, const std::array<float, 3>& p) {
        return std::abs(p[0] - cell.centerX) <= cell.halfSize && std::abs(p[1] - cell.centerY) <= cell.halfSize &&
               std::abs(p[2] - cell.centerZ) <= cell.halfSize;
    }
    std::vector<TreeCellBox> m_cells;
};

/// The 12 edges of cell's cube projected to pixels with the test's own projection.
std::vector<Segment> projectedEdges(const TreeCellBox& cell, const OrbitCamera& camera, int width, int height) {
    const glm::vec3 centre(cell.centerX, cell.centerY, cell.centerZ);
    return projectedBoxEdges(centre - cell.halfSize, centre + cell.halfSize, camera, width, height);
}

/// Renders source's cells for query (and no bodies) and reads the frame back.
ImageRgba8 renderOverlay(const VisualSource& source, const TreeCellQuery& query, const OrbitCamera& camera, int width,
                         int height, SceneRenderer& renderer) {
    TreeOverlayFeed feed;
    feed.update(source, query, renderer.treeOverlay());
    const OffscreenTarget target(width, height);
    renderer.render(camera, FrameLook{}, {target.framebuffer(), width, height});
    return target.readPixels();
}

TreeCellQuery depthQuery(int minDepth, int maxDepth) {
    TreeCellQuery query;
    query.minDepth = minDepth;
    query.maxDepth = maxDepth;
    return query;
}

TEST_F(TreeOverlay, DrawsLitEdgesWhereTheQueriedCellProjectsAndNothingElsewhere) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> offset(-0.3f, 0.3f);
    // A cube of half size <= 0.9 centred within 0.3 of the target has corners within 1.9 of it; 8 units away with a
    // 45 degree field of view the image shows +-2.5 units at the nearest corner's depth, so every corner is inside.
    const TreeCellBox wanted{offset(random), offset(random), offset(random),
                             std::uniform_real_distribution<float>(0.4f, 0.9f)(random), 3};
    // Cells outside the queried depths: a large root whose edges cross the image, and a small deep cell.
    const KnownCellsVisuals source({{0.2f, -0.1f, 0.1f, 1.8f, 0}, wanted, {1.1f, -0.9f, 0.7f, 0.1f, 6}});
    const OrbitCamera camera = randomCameraAtEightUnits(random);
    const int width = std::uniform_int_distribution<int>(150, 320)(random);
    const int height = std::uniform_int_distribution<int>(101, 240)(random);
    SCOPED_TRACE("size " + std::to_string(width) + "x" + std::to_string(height));
    SceneRenderer renderer;
    const ImageRgba8 image = renderOverlay(source, depthQuery(2, 4), camera, width, height, renderer);
    ASSERT_EQ(source.queryCount, 1);
    EXPECT_EQ(renderer.treeOverlay().cellCount(), 1u);

    const std::vector<Segment> edges = projectedEdges(wanted, camera, width, height);
    ASSERT_EQ(edges.size(), 12u);
    for (std::size_t e = 0; e < edges.size(); ++e) {
        for (int k = 1; k < 16; ++k) {
            const glm::vec2 sample = glm::mix(edges[e].a, edges[e].b, float(k) / 16.0f);
            const std::array<int, 3> rgb = brightestAround(image, sample);
            // A 1-pixel line covers one pixel per step along its major axis, within half a pixel of the exact line,
            // so the 3x3 block around any point of it holds a line pixel. Over black it reads colour x opacity:
            // the palette's shallow end (0.30, 1.00, 0.45) x 0.55 = (42, 140, 63) of 255 (cells of one depth are all
            // "shallowest"); overlapping edges only add to it. Green must lead, with margin for 8-bit rounding.
            ASSERT_GT(rgb[1], 100) << "edge " << e << " unlit near pixel (" << sample.x << ", " << sample.y << ")";
            ASSERT_GT(rgb[1], 3 * rgb[0] / 2) << "edge " << e << " is not the shallow (green) colour";
            ASSERT_GT(rgb[1], 3 * rgb[2] / 2) << "edge " << e << " is not the shallow (green) colour";
        }
    }
    int darkChecked = 0;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const glm::vec2 centre(x + 0.5f, y + 0.5f);
            float nearest = 1e9f;
            for (const Segment& edge : edges)
                nearest = std::min(nearest, distanceToSegment(centre, edge));
            // Rasterised line pixels lie within about 0.7 pixels of the exact segment (half a pixel across, and the
            // ends); 1.5 leaves room for rounding in the two projections.
            if (nearest < 1.5f)
                continue;
            const std::uint8_t* p = image.pixel(x, y);
            ASSERT_LE(std::max({p[0], p[1], p[2]}), 1) << "light away from the cell's edges at (" << x << ", " << y
                                                       << "): a cell outside the queried depths was drawn?";
            ++darkChecked;
        }
    }
    EXPECT_GT(darkChecked, width * height / 2);
}

TEST_F(TreeOverlay, ShallowestCellsAreGreenAndDeepestMagenta) {
    // Eye on -y looking at +y: world x runs left to right, z bottom to top; two cells side by side.
    OrbitCamera camera;
    camera.setAngles(glm::radians(-90.0f), 0.0f);
    camera.setDistance(8.0f);
    const TreeCellBox shallow{-1.2f, 0.0f, 0.0f, 0.6f, 2};
    const TreeCellBox deep{1.2f, 0.0f, 0.0f, 0.6f, 7};
    const KnownCellsVisuals source({shallow, deep});
    SceneRenderer renderer;
    const ImageRgba8 image = renderOverlay(source, depthQuery(0, 24), camera, 240, 160, renderer);

    // The middle of each cube's front bottom edge (along x), off any corner where edges overlap.
    const auto middleOfBottomEdge = [&](const TreeCellBox& cell) {
        const std::vector<Segment> edges = projectedEdges(cell, camera, 240, 160);
        return glm::mix(edges[0].a, edges[0].b, 0.5f); // corners 0 and 1: -y, -z face, along x
    };
    const std::array<int, 3> green = brightestAround(image, middleOfBottomEdge(shallow));
    const std::array<int, 3> magenta = brightestAround(image, middleOfBottomEdge(deep));
    // Palette ends over black: shallow (0.30, 1.00, 0.45) x opacity 0.55 = (42, 140, 63); deep (1.00, 0.30, 0.85) x
    // opacity 0.55 x 0.4 (deepest cells are fainter) = (56, 17, 48). Margins allow 8-bit rounding and a doubled line.
    EXPECT_GT(green[1], 100);
    EXPECT_GT(green[1], 3 * green[0] / 2) << "the shallowest cell should be green";
    EXPECT_GT(magenta[0], 40);
    EXPECT_LT(magenta[0], green[1]) << "the deepest cells should be fainter than the shallowest";
    EXPECT_GT(magenta[0], 2 * magenta[1]) << "the deepest cell should be magenta";
    EXPECT_GT(magenta[2], 2 * magenta[1]) << "the deepest cell should be magenta";
}

TEST_F(TreeOverlay, PickedBodysMarkerIsWhiteAndOpaque) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    const OrbitCamera camera = randomCameraAtEightUnits(random);
    std::uniform_real_distribution<float> offset(-0.5f, 0.5f);
    const TreeCellBox marker{offset(random), offset(random), offset(random), 0.5f, 0};
    SceneRenderer renderer;
    renderer.treeOverlay().setMarker(marker);
    const OffscreenTarget target(200, 150);
    renderer.render(camera, FrameLook{}, {target.framebuffer(), 200, 150});
    const ImageRgba8 image = target.readPixels();
    for (const Segment& edge : projectedEdges(marker, camera, 200, 150)) {
        const std::array<int, 3> rgb = brightestAround(image, glm::mix(edge.a, edge.b, 0.5f));
        // Drawn white at alpha 1: every channel 255 (250 allows for rounding).
        EXPECT_GE(std::min({rgb[0], rgb[1], rgb[2]}), 250);
    }
}

TEST_F(TreeOverlay, FeedQueriesAgainOnlyWhenTheQueryChangedOrItWasInvalidated) {
    const KnownCellsVisuals source(
        {{0, 0, 0, 1, 0}, {0.5f, 0.5f, 0.5f, 0.5f, 1}, {-0.5f, 0.5f, 0.5f, 0.5f, 1}, {0.75f, 0.75f, 0.75f, 0.25f, 2}});
    TreeOverlayRenderer renderer;
    TreeOverlayFeed feed;
    TreeCellQuery query = depthQuery(0, 1);

    EXPECT_TRUE(feed.update(source, query, renderer));
    EXPECT_FALSE(feed.update(source, query, renderer)) << "same query, same tree: no new query expected";
    EXPECT_EQ(source.queryCount, 1);
    EXPECT_EQ(renderer.cellCount(), 3u);

    query.maxDepth = 2;
    EXPECT_TRUE(feed.update(source, query, renderer));
    EXPECT_EQ(renderer.cellCount(), 4u);
    query.containingPoint = std::array<float, 3>{0.9f, 0.9f, 0.9f};
    EXPECT_TRUE(feed.update(source, query, renderer));
    EXPECT_EQ(source.lastQuery.containingPoint, query.containingPoint);
    EXPECT_EQ(renderer.cellCount(), 3u) << "the path to (0.9, 0.9, 0.9) has one cell at each depth 0, 1, 2";
    EXPECT_EQ(source.queryCount, 3);

    feed.invalidate();
    EXPECT_TRUE(feed.update(source, query, renderer)) << "after a step the same query must be asked again";
    EXPECT_EQ(source.queryCount, 4);

    query.maxCells = 2;
    feed.update(source, query, renderer);
    EXPECT_TRUE(feed.capped());
    EXPECT_EQ(feed.cellCount(), 2u);

    feed.clear(renderer);
    EXPECT_EQ(renderer.cellCount(), 0u);
    EXPECT_TRUE(feed.update(source, query, renderer)) << "after clear() the next update must query";
}

TEST_F(TreeOverlay, ABackendWithoutATreeDrawsNothing) {
    const InertVisuals source;
    SceneRenderer renderer;
    OrbitCamera camera;
    const ImageRgba8 image = renderOverlay(source, TreeCellQuery{}, camera, 64, 48, renderer);
    EXPECT_EQ(renderer.treeOverlay().cellCount(), 0u);
    int brightest = 0;
    for (std::size_t i = 0; i < image.pixels.size(); i += 4)
        brightest = std::max({brightest, int{image.pixels[i]}, int{image.pixels[i + 1]}, int{image.pixels[i + 2]}});
    EXPECT_LE(brightest, 1);
}

} // namespace
} // namespace gravlab::test
