#pragma once
// Which ffmpeg encoder makes Gravlab's movies, with which options, and the ffmpeg command lines around it.
//
// Design note: movies are made by Debian's ffmpeg executable, run as a child process and fed raw RGBA frames through
// a pipe, rather than by linking libavcodec. The child needs no ABI coupling to one FFmpeg release (the libav* APIs
// change between major versions; the command line has been stable for a decade), chooses encoders by name (the GPU's
// h264_nvenc or libx264, or anything the user names), and a crashing encoder or driver takes down ffmpeg, not the
// simulation. The price is one copy of each frame through the pipe, small next to the encoding itself.
//   Encoders: h264_nvenc when a trial encode shows that it works (an NVIDIA driver with NVENC hardware; data-centre
// parts such as the H100 have none, and the trial is how to tell), else libx264 with preset veryfast at CRF 20: on
// 1080p frames of the default scene it encoded 40 frames/s on 2 cores of this development machine (ultrafast: about
// 100 frames/s but 2.3x larger files), so a 16-core machine keeps well above 60 frames/s. yuv420p is the pixel format
// every player decodes; it needs even sizes, so an odd width or height is padded by one black column or row inside
// ffmpeg (the pad filter), never by a CPU copy here. The trial encode runs the real size and codec options on one
// black frame from ffmpeg's lavfi source into the null muxer, so an encoder named with --movie-encoder that cannot
// work is refused before any frame is simulated, with ffmpeg's own words.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gravlab {

class ChildProcess;

/// The frames handed to a movie: their size and how fast they play.
struct MovieFormat {
    int width = 0;  ///< pixels of each frame handed in
    int height = 0; ///< pixels
    double framesPerSecond = 30;

    /// The movie's size: yuv420p needs even sides, so odd ones gain one black column or row.
    int encodedWidth() const { return width + (width & 1); }
    int encodedHeight() const { return height + (height & 1); }
};

/// An ffmpeg video encoder and the options Gravlab passes after -c:v.
struct MovieCodec {
    std::string name;                 ///< "libx264", "h264_nvenc", ...
    std::vector<std::string> options; ///< e.g. "-preset", "veryfast", "-crf", "20"
};

/// The encoder called name with Gravlab's options for it: fast constant-quality settings for libx264 and h264_nvenc,
/// ffmpeg's defaults for any other name.
MovieCodec movieCodecNamed(const std::string& name);

/// ffmpeg's arguments (after the program name) that read raw RGBA frames of format from standard input and write an
/// MP4 with codec to output, whatever output's name ends with.
std::vector<std::string> movieEncodingArguments(const MovieFormat& format, const MovieCodec& codec,
                                                const std::filesystem::path& output);

/// Why the ffmpeg at ffmpeg cannot encode format with codec (its last error lines, or how it ended), or nothing when a
/// one-frame trial encode succeeds.
std::optional<std::string> trialEncodeFailure(const std::filesystem::path& ffmpeg, const MovieFormat& format,
                                              const MovieCodec& codec);

struct MovieCodecChoice {
    MovieCodec codec;
    /// Why the GPU encoder was passed over ("h264_nvenc does not work here: ..."); empty when it was chosen or when
    /// the user named the encoder.
    std::string note;
};

/// requested when given, else h264_nvenc when its trial encode works, else libx264; throws std::runtime_error quoting
/// ffmpeg when the chosen encoder's trial encode fails.
MovieCodecChoice chooseMovieCodec(const std::filesystem::path& ffmpeg, const MovieFormat& format,
                                  const std::optional<std::string>& requested);

/// ffmpeg's last error lines (ChildProcess::lastErrorLines) without the "[h264_nvenc @ 0x55d0c8a1f480] " context
/// prefixes, which name an address nobody can use.
std::string ffmpegLastWords(const ChildProcess& ffmpeg);

/// The ffmpeg on PATH; throws std::runtime_error saying how to install it when there is none.
std::filesystem::path requireFfmpeg();

} // namespace gravlab
