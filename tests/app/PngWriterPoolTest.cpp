// The PNG writer pool: every frame handed in comes out as a PNG that an independent decoder (stb_image) reads back to
// the same pixels; a failing write (a folder that vanished, a full disk) stops the pool with an error naming the file
// and leaves only complete files; the queue's bound follows the worker count and the frame size.
#include "OutputTestSupport.hpp"

#include <gravlab/sim/AtomicFile.hpp>

#include <TestSupport.hpp>
#include <gtest/gtest.h>
#include <map>
#include <output/PngWriterPool.hpp>

namespace gravlab::test {
namespace {

std::filesystem::path framePath(const std::filesystem::path& folder, int index) {
    return folder / ("frame_" + std::to_string(index) + ".png");
}

/// Every file in folder must be a complete frame: a name the test handed in, decoding to exactly those pixels.
void expectOnlyCompleteFrames(const std::filesystem::path& folder, const std::map<std::string, ImageRgba8>& handedIn) {
    for (const std::string& name : folderEntries(folder)) {
        const auto frame = handedIn.find(name);
        ASSERT_NE(frame, handedIn.end()) << "unexpected file left behind: " << name;
        const std::optional<ImageRgba8> decoded = decodePng(folder / name);
        ASSERT_TRUE(decoded.has_value()) << name << " is not a complete PNG";
        EXPECT_EQ(decoded->width, frame->second.width) << name;
        EXPECT_EQ(decoded->height, frame->second.height) << name;
        EXPECT_TRUE(decoded->pixels == frame->second.pixels) << name << " decodes to other pixels";
    }
}

TEST(PngWriterPool, WritesEveryFrameSoThatAnIndependentDecoderReadsBackItsPixels) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const TemporaryFolder folder;
    constexpr int kFrames = 24;
    // Odd sizes catch stride mistakes; three workers and a queue of two make frames finish out of order.
    std::uniform_int_distribution<int> side(17, 131);
    std::map<std::string, ImageRgba8> handedIn;
    {
        PngWriterPool pool(3, 2);
        for (int i = 0; i < kFrames; ++i) {
            ImageRgba8 frame = randomFrame(random, side(random), side(random));
            handedIn[framePath(folder.path(), i).filename().string()] = frame;
            pool.submit(framePath(folder.path(), i), std::move(frame));
        }
        pool.finish();
        EXPECT_EQ(pool.filesWritten(), static_cast<std::size_t>(kFrames));
    }
    EXPECT_EQ(folderEntries(folder.path()).size(), static_cast<std::size_t>(kFrames));
    expectOnlyCompleteFrames(folder.path(), handedIn);
}

TEST(PngWriterPool, AFolderThatVanishedStopsThePoolWithAnErrorNamingTheFile) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const TemporaryFolder folder;
    const std::filesystem::path gone = folder.path() / "frames";
    std::filesystem::create_directories(gone);
    std::filesystem::remove(gone);

    PngWriterPool pool(2, 2);
    std::optional<FileWriteError> failure;
    int accepted = 0;
    try {
        // A worker's failure reaches the producer at a later submit() (or at finish()): the queue holds at most two
        // frames and two are being written, so at most a handful more are accepted after the first one fails.
        for (; accepted < 64; ++accepted)
            pool.submit(framePath(gone, accepted), randomFrame(random, 32, 24));
        pool.finish();
    } catch (const FileWriteError& error) {
        failure = error;
    }
    ASSERT_TRUE(failure.has_value()) << "writing into a removed folder reported no error";
    EXPECT_LT(accepted, 64) << "the pool kept queuing frames after a write had failed";
    EXPECT_EQ(failure->file().parent_path(), gone);
    const std::string what = failure->what();
    EXPECT_NE(what.find(failure->file().string()), std::string::npos) << what;
    EXPECT_NE(what.find("does not exist"), std::string::npos) << what;
    EXPECT_EQ(pool.filesWritten(), 0u);
    EXPECT_FALSE(std::filesystem::exists(gone));
}

TEST(PngWriterPool, AFullDiskStopsWithTheReasonAndLeavesOnlyCompleteFrames) {
    // 256 KiB hold a few 96x96 frames of random pixels (36 KiB of pixels, as much again after deflate) but not 40.
    const TinyTmpfs disk(256);
    if (!disk.mounted())
        GTEST_SKIP() << disk.skipReason();
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    constexpr int kFrames = 40;

    std::map<std::string, ImageRgba8> handedIn;
    std::optional<FileWriteError> failure;
    std::size_t written = 0;
    {
        PngWriterPool pool(2, 4);
        bool finishing = false;
        try {
            for (int i = 0; i < kFrames; ++i) {
                ImageRgba8 frame = randomFrame(random, 96, 96);
                handedIn[framePath(disk.path(), i).filename().string()] = frame;
                pool.submit(framePath(disk.path(), i), std::move(frame));
            }
            finishing = true;
            pool.finish();
        } catch (const FileWriteError& error) {
            failure = error;
        }
        // A submit() that rethrew left the other worker finishing its frame (whole, by design): finish() joins it, so
        // the count below includes that frame.
        if (!finishing) {
            try {
                pool.finish();
            } catch (const FileWriteError&) { // the same error again
            }
        }
        written = pool.filesWritten();
    }
    ASSERT_TRUE(failure.has_value()) << "40 frames of 36 KiB fitted into a 256 KiB disk";
    const std::string what = failure->what();
    EXPECT_NE(what.find(failure->file().string()), std::string::npos) << what;
    EXPECT_NE(what.find("No space left on device"), std::string::npos) << what;
    EXPECT_GT(written, 0u) << "not even the first frame fitted: the test's sizes are wrong";
    EXPECT_LT(written, static_cast<std::size_t>(kFrames));
    EXPECT_EQ(folderEntries(disk.path()).size(), written) << "a partial or temporary file was left behind";
    expectOnlyCompleteFrames(disk.path(), handedIn);
}

TEST(PngWriterPool, QueueBoundIsTwiceTheWorkersCappedByTheBytesOfPendingFrames) {
    const std::size_t hd = 1920u * 1080u * 4u;
    EXPECT_EQ(PngWriterPool::defaultPendingLimit(15, hd), 30u);
    EXPECT_EQ(PngWriterPool::defaultPendingLimit(1, hd), 2u);
    // 8192 x 8192 frames are 256 MiB: four fit under the 1 GiB cap.
    EXPECT_EQ(PngWriterPool::defaultPendingLimit(15, 8192u * 8192u * 4u), 4u);
    EXPECT_EQ(PngWriterPool::defaultPendingLimit(4, PngWriterPool::kPendingBytes * 2), 1u);
    EXPECT_GE(PngWriterPool::defaultWorkerCount(), 1u);
    EXPECT_LE(PngWriterPool::defaultWorkerCount(), std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace
} // namespace gravlab::test
