// The window's ergonomics flags: --ui-scale within [0.5, 4] and --fullscreen reach the options; values outside the
// range exit 2 naming the flag and the value.
#include "CommandLineTestSupport.hpp"

#include <gtest/gtest.h>

namespace gravlab {
namespace {

TEST(WindowOptions, DefaultsLeaveTheScaleToTheMonitorAndTheWindowWindowed) {
    const CommandLineOutcome outcome = test::parse({});
    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    EXPECT_FALSE(outcome.options->uiScale.has_value());
    EXPECT_FALSE(outcome.options->fullscreen);
}

TEST(WindowOptions, ScaleAndFullscreenReachTheOptions) {
    const CommandLineOutcome outcome = test::parse({"--ui-scale", "1.75", "--fullscreen"});
    ASSERT_TRUE(outcome.options.has_value()) << outcome.message;
    ASSERT_TRUE(outcome.options->uiScale.has_value());
    EXPECT_EQ(*outcome.options->uiScale, 1.75);
    EXPECT_TRUE(outcome.options->fullscreen);
}

TEST(WindowOptions, ScalesOutsideTheRangeAreRefused) {
    for (const std::string value : {"0.2", "5", "nan", "big"}) {
        const CommandLineOutcome outcome = test::parse({"--ui-scale", value});
        EXPECT_FALSE(outcome.options.has_value()) << value;
        EXPECT_EQ(outcome.exitCode, 2) << value;
        EXPECT_NE(outcome.message.find("--ui-scale"), std::string::npos) << outcome.message;
        EXPECT_NE(outcome.message.find(value), std::string::npos) << outcome.message;
    }
}

} // namespace
} // namespace gravlab
