// The clipping arithmetic of ORB boxes against the region of interest, on boxes whose results are worked out by hand.
#include <gravlab/render/BoxClipping.hpp>

#include <gtest/gtest.h>

namespace gravlab {
namespace {

/// The region every case below is clipped to: centre (1, 2, 3), robust radius 0.5, 2 radii -> [0, 2] x [1, 3] x [2, 4].
AxisBox testRegion() {
    return regionOfInterest(SceneBounds{{1.0f, 2.0f, 3.0f}, 0.5f}, 2.0f);
}

TEST(BoxClipping, RegionIsTheCubeOfTheGivenRadiiAroundTheRobustCentre) {
    EXPECT_EQ(testRegion(), (AxisBox{{0.0f, 1.0f, 2.0f}, {2.0f, 3.0f, 4.0f}}));
    const AxisBox byDefault = regionOfInterest(SceneBounds{{0.0f, 0.0f, 0.0f}, 3.0f});
    EXPECT_EQ(byDefault, (AxisBox{glm::vec3(-3.0f * kRegionRadii), glm::vec3(3.0f * kRegionRadii)}));
}

TEST(BoxClipping, FaceBitsAreLowerThenUpperPerAxis) {
    EXPECT_EQ(faceBit(0, false), 1u);
    EXPECT_EQ(faceBit(0, true), 2u);
    EXPECT_EQ(faceBit(1, false), 4u);
    EXPECT_EQ(faceBit(2, true), 32u);
}

TEST(BoxClipping, ABoxInsideTheRegionIsUnchanged) {
    const AxisBox box{{0.5f, 1.5f, 2.5f}, {1.5f, 2.5f, 3.5f}};
    EXPECT_EQ(clipBoxToRegion(box, testRegion()), (ClippedBox{box, 0u}));
    // Sharing the region's faces is not a cut: the faces are the box's own.
    EXPECT_EQ(clipBoxToRegion(testRegion(), testRegion()), (ClippedBox{testRegion(), 0u}));
}

TEST(BoxClipping, ABoxReachingFarOutIsCutAtTheRegionAndSaysWhichFacesWereCut) {
    // An outer domain reaching an escaped body at x = -100: only its lower x face is the region's.
    EXPECT_EQ(clipBoxToRegion({{-100.0f, 1.5f, 2.5f}, {1.5f, 2.5f, 3.5f}}, testRegion()),
              (ClippedBox{{{0.0f, 1.5f, 2.5f}, {1.5f, 2.5f, 3.5f}}, 1u}));
    // Through the region along y, and out of its upper z face: lower y (4) + upper y (8) + upper z (32) = 44.
    EXPECT_EQ(clipBoxToRegion({{0.5f, -10.0f, 3.0f}, {1.5f, 10.0f, 50.0f}}, testRegion()),
              (ClippedBox{{{0.5f, 1.0f, 3.0f}, {1.5f, 3.0f, 4.0f}}, 44u}));
    // The root cell of a scene with escapees on every side: the region itself, all six faces cut.
    EXPECT_EQ(clipBoxToRegion({{-300.0f, -7.0f, -1.0f}, {9.0f, 400.0f, 4.5f}}, testRegion()),
              (ClippedBox{testRegion(), 63u}));
}

TEST(BoxClipping, ABoxOutsideOrOnlyTouchingTheRegionIsSkipped) {
    EXPECT_FALSE(clipBoxToRegion({{3.0f, 1.5f, 2.5f}, {5.0f, 2.5f, 3.5f}}, testRegion()));    // beyond upper x
    EXPECT_FALSE(clipBoxToRegion({{0.5f, -9.0f, 2.5f}, {1.5f, 0.5f, 3.5f}}, testRegion()));   // below lower y
    EXPECT_FALSE(clipBoxToRegion({{2.0f, 1.5f, 2.5f}, {5.0f, 2.5f, 3.5f}}, testRegion()));    // touches x = 2 only
    EXPECT_FALSE(clipBoxToRegion({{-5.0f, 1.5f, 2.5f}, {0.0f, 2.5f, 3.5f}}, testRegion()));   // touches x = 0 only
    EXPECT_FALSE(clipBoxToRegion({{-5.0f, -5.0f, 5.0f}, {5.0f, 5.0f, 9.0f}}, testRegion()));  // above, though wide
}

TEST(BoxClipping, AFlatBoxIsKeptWhereItsPlaneCrossesTheRegion) {
    // All bodies on the plane z = 3: a box of zero depth, inside, drawn as it is.
    const AxisBox flat{{0.5f, 1.5f, 3.0f}, {1.5f, 2.5f, 3.0f}};
    EXPECT_EQ(clipBoxToRegion(flat, testRegion()), (ClippedBox{flat, 0u}));
    const AxisBox onFace{{-1.0f, 1.5f, 4.0f}, {1.5f, 2.5f, 4.0f}};
    EXPECT_EQ(clipBoxToRegion(onFace, testRegion()), (ClippedBox{{{0.0f, 1.5f, 4.0f}, {1.5f, 2.5f, 4.0f}}, 1u}));
    EXPECT_FALSE(clipBoxToRegion({{0.5f, 1.5f, 4.5f}, {1.5f, 2.5f, 4.5f}}, testRegion()));
}

} // namespace
} // namespace gravlab
