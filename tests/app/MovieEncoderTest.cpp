// Movies through ffmpeg: ffprobe counts the frames handed in at the padded size, ffmpeg's decoder gives back their
// colours in the right row order, the movie appears under its name only once complete, a requested encoder that
// ffmpeg lacks is refused quoting ffmpeg, and an ffmpeg that dies mid-run stops the encoder naming the movie and
// leaves no file. Skips, saying so, only when ffmpeg or ffprobe is not installed.
#include "OutputTestSupport.hpp"

#include <TestSupport.hpp>
#include <gtest/gtest.h>
#include <output/ChildProcess.hpp>
#include <output/MovieEncoder.hpp>

namespace gravlab::test {
namespace {

class MovieEncoderTest : public ::testing::Test {
protected:
    void SetUp() override {
        const std::optional<std::filesystem::path> ffmpeg = findOnPath("ffmpeg");
        if (!ffmpeg || !findOnPath("ffprobe"))
            GTEST_SKIP() << "ffmpeg or ffprobe is not on PATH (apt-get install ffmpeg), so movies cannot be checked";
        m_ffmpeg = *ffmpeg;
    }
    std::filesystem::path m_ffmpeg;
};

TEST_F(MovieEncoderTest, FfprobeCountsTheFramesAtThePaddedSizeAndTheirColoursSurvive) {
    const std::uint64_t seed = freshSeed();
    SCOPED_TRACE(seedTrace(seed));
    std::mt19937_64 random(seed);
    const TemporaryFolder folder;
    const std::filesystem::path movie = folder.path() / "movie.mp4";
    // Odd sides: the movie must be padded to even ones for yuv420p.
    const MovieFormat format{2 * std::uniform_int_distribution<int>(24, 80)(random) + 1,
                             2 * std::uniform_int_distribution<int>(16, 60)(random) + 1, 24};
    const int frameCount = std::uniform_int_distribution<int>(5, 12)(random);
    std::uniform_int_distribution<int> channel(16, 235); // inside video range, so it survives the YUV round trip
    std::vector<std::array<std::uint8_t, 3>> tops, bottoms;

    // Lossless x264 (QP 0), so what is checked is the path of the pixels, not the encoder's quality.
    MovieEncoder encoder(m_ffmpeg, movie, format, MovieCodec{"libx264", {"-preset", "ultrafast", "-qp", "0"}});
    for (int i = 0; i < frameCount; ++i) {
        tops.push_back({static_cast<std::uint8_t>(channel(random)), static_cast<std::uint8_t>(channel(random)),
                        static_cast<std::uint8_t>(channel(random))});
        bottoms.push_back({static_cast<std::uint8_t>(channel(random)), static_cast<std::uint8_t>(channel(random)),
                           static_cast<std::uint8_t>(channel(random))});
        encoder.addFrame(twoToneFrame(format.width, format.height, tops.back(), bottoms.back()));
    }
    EXPECT_FALSE(std::filesystem::exists(movie)) << "the movie appeared under its name before it was complete";
    encoder.finish();
    EXPECT_EQ(encoder.framesWritten(), static_cast<std::size_t>(frameCount));
    EXPECT_EQ(folderEntries(folder.path()), std::vector<std::string>{"movie.mp4"}) << "a temporary file was left";

    const std::optional<std::string> probed = probeMovie(movie);
    ASSERT_TRUE(probed.has_value()) << "ffprobe could not read the movie";
    EXPECT_EQ(*probed, std::to_string(format.width + 1) + "," + std::to_string(format.height + 1) + "," +
                           std::to_string(frameCount));

    // Pixels in the middle of each half, away from the edge between them, where 2x2 chroma subsampling mixes colours.
    // What remains is rounding in the RGB -> YUV (video range) -> RGB round trip: at most 4 levels of 255 over 3000
    // random colours through the same ffmpeg; 6 leaves a margin, while a frame out of order or upside down is off by
    // tens.
    const int encodedWidth = format.width + 1, encodedHeight = format.height + 1;
    for (int i = 0; i < frameCount; ++i) {
        const std::optional<std::vector<std::uint8_t>> decoded =
            decodeMovieFrame(movie, i, encodedWidth, encodedHeight);
        ASSERT_TRUE(decoded.has_value()) << "ffmpeg could not decode frame " << i;
        const auto at = [&](int x, int y, int c) {
            return int((*decoded)[(std::size_t(y) * encodedWidth + x) * 3 + c]);
        };
        for (int c = 0; c < 3; ++c) {
            EXPECT_NEAR(at(format.width / 2, format.height / 4, c), tops[i][c], 6)
                << "frame " << i << " top, channel " << c;
            EXPECT_NEAR(at(format.width / 2, 3 * format.height / 4, c), bottoms[i][c], 6)
                << "frame " << i << " bottom, channel " << c;
        }
    }
}

TEST_F(MovieEncoderTest, AnEncoderFfmpegLacksIsRefusedInFfmpegsWords) {
    const MovieFormat format{64, 48, 30};
    try {
        chooseMovieCodec(m_ffmpeg, format, std::string("no_such_encoder"));
        FAIL() << "an unknown encoder passed the trial encode";
    } catch (const std::runtime_error& error) {
        const std::string what = error.what();
        EXPECT_NE(what.find("'no_such_encoder'"), std::string::npos) << what;
        EXPECT_NE(what.find("Unknown encoder"), std::string::npos) << what;
    }
    EXPECT_EQ(chooseMovieCodec(m_ffmpeg, format, std::string("libx264")).codec.name, "libx264");
}

TEST_F(MovieEncoderTest, WithoutARequestTheGpuEncoderIsUsedWhenItWorksAndLibx264Otherwise) {
    const MovieFormat format{64, 48, 30};
    const MovieCodecChoice choice = chooseMovieCodec(m_ffmpeg, format, std::nullopt);
    const bool nvencWorks = !trialEncodeFailure(m_ffmpeg, format, movieCodecNamed("h264_nvenc")).has_value();
    EXPECT_EQ(choice.codec.name, nvencWorks ? "h264_nvenc" : "libx264");
    EXPECT_EQ(choice.note.empty(), nvencWorks) << choice.note;
}

TEST_F(MovieEncoderTest, AnFfmpegThatDiesMidRunStopsNamingTheMovieAndLeavesNoFile) {
    const TemporaryFolder folder;
    const std::filesystem::path dyingFfmpeg = folder.path() / "ffmpeg";
    // Takes the first 600 KB (part of the third frame), then fails as an encoder would on a full disk.
    writeScript(dyingFfmpeg, "head -c 600000 > /dev/null\necho 'simulated encoder crash' >&2\nexit 3\n");
    const std::filesystem::path movieFolder = folder.path() / "movies";
    std::filesystem::create_directories(movieFolder);
    const std::filesystem::path movie = movieFolder / "crash.mp4";
    const MovieFormat format{256, 256, 30}; // 256 KiB per frame

    std::optional<FileWriteError> failure;
    {
        MovieEncoder encoder(dyingFfmpeg, movie, format, movieCodecNamed("libx264"));
        const ImageRgba8 frame = twoToneFrame(256, 256, {200, 40, 40}, {40, 40, 200});
        try {
            for (int i = 0; i < 64; ++i) // 16 MiB: far more than the pipe holds
                encoder.addFrame(frame);
            encoder.finish();
        } catch (const FileWriteError& error) {
            failure = error;
        }
    }
    ASSERT_TRUE(failure.has_value()) << "a dead ffmpeg went unnoticed";
    const std::string what = failure->what();
    EXPECT_EQ(failure->file(), movie);
    EXPECT_NE(what.find(movie.string()), std::string::npos) << what;
    EXPECT_NE(what.find("simulated encoder crash"), std::string::npos) << what;
    EXPECT_NE(what.find("exit status 3"), std::string::npos) << what;
    EXPECT_TRUE(folderEntries(movieFolder).empty()) << "the failed movie left a file behind";
}

} // namespace
} // namespace gravlab::test
