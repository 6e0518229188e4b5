// Output folder preparation and frame names.
#include <CommandLine.hpp>
#include <OutputFolder.hpp>
#include <TestSupport.hpp>
#include <fstream>
#include <gtest/gtest.h>

namespace gravlab::test {
namespace {

TEST(OutputFolder, CreatesMissingNestedFoldersThatAreWritable) {
    const TemporaryFolder temporary;
    const std::filesystem::path folder = temporary.path() / "a" / "b" / "frames";
    prepareOutputFolder(folder);
    EXPECT_TRUE(std::filesystem::is_directory(folder));
    EXPECT_TRUE(std::filesystem::is_empty(folder)) << "the write probe must be cleaned up";
    prepareOutputFolder(folder); // an existing folder is fine too
}

TEST(OutputFolder, RefusesAPathThatIsAFileNamingIt) {
    const TemporaryFolder temporary;
    const std::filesystem::path file = temporary.path() / "not_a_folder";
    std::ofstream(file) << "x";
    try {
        prepareOutputFolder(file);
        FAIL() << "a regular file was accepted as the output folder";
    } catch (const UsageError& error) {
        const std::string what = error.what();
        EXPECT_NE(what.find("--out"), std::string::npos) << what;
        EXPECT_NE(what.find(file.string()), std::string::npos) << what;
    }
    EXPECT_THROW(prepareOutputFolder(file / "below"), UsageError);
    EXPECT_THROW(prepareOutputFolder(""), UsageError);
}

TEST(OutputFolder, FrameNamesArePaddedSoTheySortInOrder) {
    EXPECT_EQ(frameFileName(0, 120), "frame_00000.png");
    EXPECT_EQ(frameFileName(119, 120), "frame_00119.png");
    EXPECT_EQ(frameFileName(7, 1000000), "frame_000007.png");
    EXPECT_EQ(frameFileName(999999, 1000000), "frame_999999.png");
}

} // namespace
} // namespace gravlab::test
