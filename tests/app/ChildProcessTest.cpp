// Child processes: the exit status and the last lines of standard error come back as the child left them, a child
// that stopped reading makes writes fail (not kill the test with SIGPIPE), an unfinished child is killed rather than
// waited for, and PATH lookup finds executables only.
#include "OutputTestSupport.hpp"

#include <TestSupport.hpp>
#include <chrono>
#include <fstream>
#include <gtest/gtest.h>
#include <output/ChildProcess.hpp>

namespace gravlab::test {
namespace {

TEST(ChildProcess, ReportsTheExitStatusAndTheLastLinesOfStandardError) {
    ChildProcess child("/bin/sh", {"-c", "echo one >&2; echo two >&2; printf 'three\\n\\n' >&2; exit 4"},
                       ChildProcess::Input::Nothing);
    const ChildExit exit = child.finish();
    EXPECT_TRUE(exit.exited);
    EXPECT_EQ(exit.code, 4);
    EXPECT_FALSE(exit.succeeded());
    EXPECT_EQ(exit.describe(), "exit status 4");
    EXPECT_EQ(child.lastErrorLines(2), "two | three");
    EXPECT_EQ(child.lastErrorLines(1), "three");
}

TEST(ChildProcess, FeedsStandardInputThroughThePipe) {
    const TemporaryFolder folder;
    const std::filesystem::path copy = folder.path() / "copy";
    ChildProcess child("/bin/sh", {"-c", "cat > '" + copy.string() + "'"}, ChildProcess::Input::Pipe);
    const std::string text = "frames through a pipe\n";
    for (int i = 0; i < 1000; ++i)
        child.writeInput(text.data(), text.size());
    EXPECT_TRUE(child.finish().succeeded());
    std::ifstream file(copy);
    const std::string copied((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    ASSERT_EQ(copied.size(), 1000 * text.size());
    EXPECT_EQ(copied.substr(0, text.size()), text);
}

TEST(ChildProcess, WritingToAChildThatExitedThrowsInsteadOfRaisingSigpipe) {
    ChildProcess child("/bin/sh", {"-c", "echo 'gave up' >&2; exit 7"}, ChildProcess::Input::Pipe);
    const std::vector<char> block(256 * 1024, 'x');
    // The pipe holds up to 1 MiB, so some writes succeed before the child's exit is noticed; 64 MiB cannot fit.
    bool failed = false;
    for (int i = 0; i < 256 && !failed; ++i) {
        try {
            child.writeInput(block.data(), block.size());
        } catch (const ChildInputError& error) {
            failed = true;
            EXPECT_NE(std::string(error.what()).find("exited"), std::string::npos) << error.what();
        }
    }
    EXPECT_TRUE(failed) << "64 MiB went into a pipe nobody reads";
    const ChildExit exit = child.finish();
    EXPECT_EQ(exit.code, 7);
    EXPECT_EQ(child.lastErrorLines(), "gave up");
}

TEST(ChildProcess, AnUnfinishedChildIsKilledWhenItsOwnerGoesAway) {
    const auto start = std::chrono::steady_clock::now();
    {
        // sleep ignores its closed standard input; only a kill ends it before 60 s.
        const ChildProcess child("/bin/sleep", {"60"}, ChildProcess::Input::Pipe);
    }
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(ChildProcess, FinishWithATimeoutKillsAChildThatDoesNotEnd) {
    ChildProcess child("/bin/sleep", {"60"}, ChildProcess::Input::Nothing);
    const ChildExit exit = child.finish(std::chrono::milliseconds(200));
    EXPECT_TRUE(exit.timedOut);
    EXPECT_FALSE(exit.succeeded());
}

TEST(ChildProcess, AProgramThatDoesNotExistIsAnErrorNamingIt) {
    const TemporaryFolder folder;
    const std::filesystem::path missing = folder.path() / "no-such-program";
    try {
        ChildProcess child(missing, {}, ChildProcess::Input::Pipe);
        FAIL() << "a missing program was started";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find(missing.string()), std::string::npos) << error.what();
    }
}

TEST(ChildProcess, FindOnPathFindsExecutableFilesInPathOrder) {
    const TemporaryFolder folder;
    const std::filesystem::path first = folder.path() / "first", second = folder.path() / "second";
    std::filesystem::create_directories(first);
    std::filesystem::create_directories(second);
    std::ofstream(first / "tool") << "not executable";
    writeScript(second / "tool", "exit 0\n");
    writeScript(first / "other", "exit 0\n");
    const ScopedPath path(first.string() + ":" + second.string());
    EXPECT_EQ(findOnPath("tool"), second / "tool");
    EXPECT_EQ(findOnPath("other"), first / "other");
    EXPECT_FALSE(findOnPath("absent").has_value());
}

} // namespace
} // namespace gravlab::test
