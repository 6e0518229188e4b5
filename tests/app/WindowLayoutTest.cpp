// Panels moved back into a smaller display by the least distance, large panels keep their title bar on screen, and the
// UI scale from the monitor's content scale.
#include "WindowLayout.hpp"

#include "OutputFolder.hpp"
#include "panels/ErrorBanner.hpp"

#include <TestSupport.hpp>
#include <fstream>
#include <gtest/gtest.h>

namespace gravlab {
namespace {

TEST(WindowLayout, PanelsInsideStayPut) {
    EXPECT_EQ(clampPanelPosition({100, 50}, {300, 200}, {1280, 720}), glm::vec2(100, 50));
}

TEST(WindowLayout, PanelsOutsideMoveBackJustInside) {
    // A 300 x 200 panel at (1100, 600) after the window shrank to 1024 x 600: its right and bottom edges meet the
    // display's, at (724, 400).
    EXPECT_EQ(clampPanelPosition({1100, 600}, {300, 200}, {1024, 600}), glm::vec2(724, 400));
    EXPECT_EQ(clampPanelPosition({-40, -10}, {300, 200}, {1024, 600}), glm::vec2(0, 0));
}

TEST(WindowLayout, PanelsLargerThanTheDisplayKeepTheirTitleBar) {
    EXPECT_EQ(clampPanelPosition({200, 300}, {900, 800}, {640, 480}), glm::vec2(0, 0));
    EXPECT_EQ(clampPanelPosition({200, 300}, {100, 800}, {640, 480}), glm::vec2(200, 0));
}

TEST(WindowLayout, UiScaleFollowsTheContentScaleWithinRange) {
    EXPECT_EQ(uiScaleForContentScale(2.0f, 2.0f), 2.0f);
    EXPECT_EQ(uiScaleForContentScale(1.0f, 1.5f), 1.5f);
    EXPECT_EQ(uiScaleForContentScale(9.0f, 9.0f), kMaxUiScale);
    EXPECT_EQ(uiScaleForContentScale(0.1f, 0.2f), kMinUiScale);
    EXPECT_EQ(uiScaleForContentScale(0.0f, 0.0f), 1.0f);
}

TEST(WindowLayout, ScreenshotNamesAreNumberedWhenTaken) {
    test::TemporaryFolder folder;
    const std::time_t time = 1700000000;
    const std::filesystem::path first = screenshotFileName(folder.path(), time);
    EXPECT_EQ(first.extension(), ".png");
    EXPECT_EQ(first.filename().string().rfind("gravlab_screenshot_", 0), 0u) << first;
    std::ofstream(first) << "taken";
    const std::filesystem::path second = screenshotFileName(folder.path(), time);
    EXPECT_EQ(second.stem().string(), first.stem().string() + "_2");
}

TEST(ErrorBanner, ShowsUntilDismissed) {
    ErrorBanner banner;
    EXPECT_FALSE(banner.shows(""));
    EXPECT_TRUE(banner.shows("the file is missing"));
    banner.dismiss("the file is missing");
    EXPECT_FALSE(banner.shows("the file is missing"));
    EXPECT_TRUE(banner.shows("another error"));
}

} // namespace
} // namespace gravlab
