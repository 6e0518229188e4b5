// The movie encoders Gravlab knows, the trial encode that tells whether one works, and ffmpeg's command lines.
#include "MovieCodec.hpp"

#include "ChildProcess.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <regex>
#include <stdexcept>

namespace gravlab {
namespace {

/// Encoders with options of Gravlab's choosing (see the design note); other names get ffmpeg's defaults.
struct KnownCodec {
    const char* name;
    std::vector<std::string> options;
};

const std::array<KnownCodec, 2>& knownCodecs() {
    static const std::array<KnownCodec, 2> codecs{{
        {"libx264", {"-preset", "veryfast", "-crf", "20", "-threads", "0"}},
        // NVENC's constant-quality mode: variable bit rate steered by -cq alone (-b:v 0 lifts the bit-rate target).
        {"h264_nvenc", {"-preset", "p4", "-rc", "vbr", "-cq", "21", "-b:v", "0"}},
    }};
    return codecs;
}

constexpr const char* kGpuCodec = "h264_nvenc";
constexpr const char* kCpuCodec = "libx264";

/// A trial encode that does not end in this time is taken as failed (a driver that hangs).
constexpr std::chrono::seconds kTrialTimeout{30};

std::string sizeText(int width, int height) {
    return std::to_string(width) + "x" + std::to_string(height);
}

std::string rateText(double framesPerSecond) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.10g", framesPerSecond);
    return text;
}

/// The arguments from the padding filter to the pixel format: what the trial and the real encode share.
std::vector<std::string> codecArguments(const MovieFormat& format, const MovieCodec& codec) {
    std::vector<std::string> arguments;
    if (format.encodedWidth() != format.width || format.encodedHeight() != format.height)
        arguments.insert(arguments.end(), {"-vf", "pad=" + std::to_string(format.encodedWidth()) + ":" +
                                                      std::to_string(format.encodedHeight())});
    arguments.insert(arguments.end(), {"-c:v", codec.name});
    arguments.insert(arguments.end(), codec.options.begin(), codec.options.end());
    arguments.insert(arguments.end(), {"-pix_fmt", "yuv420p"});
    return arguments;
}

/// Quiet ffmpeg: errors only, no banner, no progress line; what it prints is then worth quoting.
std::vector<std::string> quietArguments() {
    return {"-hide_banner", "-nostats", "-loglevel", "error"};
}

} // namespace

MovieCodec movieCodecNamed(const std::string& name) {
    for (const KnownCodec& known : knownCodecs())
        if (name == known.name)
            return {name, known.options};
    return {name, {}};
}

std::vector<std::string> movieEncodingArguments(const MovieFormat& format, const MovieCodec& codec,
                                                const std::filesystem::path& output) {
    std::vector<std::string> arguments = quietArguments();
    // -y: the output name exists already (the empty file that reserves the temporary name).
    arguments.insert(arguments.end(),
                     {"-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-video_size", sizeText(format.width, format.height),
                      "-framerate", rateText(format.framesPerSecond), "-i", "pipe:0", "-an"});
    const std::vector<std::string> codecPart = codecArguments(format, codec);
    arguments.insert(arguments.end(), codecPart.begin(), codecPart.end());
    // The index in front, so players can start before the whole file has arrived.
    arguments.insert(arguments.end(), {"-movflags", "+faststart", "-f", "mp4", output.string()});
    return arguments;
}

std::optional<std::string> trialEncodeFailure(const std::filesystem::path& ffmpeg, const MovieFormat& format,
                                              const MovieCodec& codec) {
    std::vector<std::string> arguments = quietArguments();
    arguments.insert(arguments.end(), {"-f", "lavfi", "-i",
                                       "color=black:s=" + sizeText(format.width, format.height) +
                                           ":r=" + rateText(format.framesPerSecond),
                                       "-frames:v", "1"});
    const std::vector<std::string> codecPart = codecArguments(format, codec);
    arguments.insert(arguments.end(), codecPart.begin(), codecPart.end());
    arguments.insert(arguments.end(), {"-f", "null", "-"});

    ChildProcess trial(ffmpeg, arguments, ChildProcess::Input::Nothing);
    const ChildExit exit = trial.finish(kTrialTimeout);
    if (exit.succeeded())
        return std::nullopt;
    const std::string words = ffmpegLastWords(trial);
    return words.empty() ? "ffmpeg ended with " + exit.describe() : words;
}

MovieCodecChoice chooseMovieCodec(const std::filesystem::path& ffmpeg, const MovieFormat& format,
                                  const std::optional<std::string>& requested) {
    if (requested) {
        MovieCodec codec = movieCodecNamed(*requested);
        if (const std::optional<std::string> failure = trialEncodeFailure(ffmpeg, format, codec))
            throw std::runtime_error("ffmpeg cannot encode " + sizeText(format.width, format.height) +
                                     " frames with the encoder '" + *requested + "' (--movie-encoder): " + *failure);
        return {std::move(codec), {}};
    }
    MovieCodec gpu = movieCodecNamed(kGpuCodec);
    const std::optional<std::string> gpuFailure = trialEncodeFailure(ffmpeg, format, gpu);
    if (!gpuFailure)
        return {std::move(gpu), {}};
    MovieCodec cpu = movieCodecNamed(kCpuCodec);
    if (const std::optional<std::string> cpuFailure = trialEncodeFailure(ffmpeg, format, cpu))
        throw std::runtime_error("ffmpeg can encode with neither " + std::string(kGpuCodec) + " (" + *gpuFailure +
                                 ") nor " + kCpuCodec + " (" + *cpuFailure +
                                 "); name an encoder that works with --movie-encoder");
    return {std::move(cpu), std::string(kGpuCodec) + " does not work here: " + *gpuFailure};
}

std::string ffmpegLastWords(const ChildProcess& ffmpeg) {
    static const std::regex contextPrefix(R"(\[[^\]]* @ 0x[0-9a-fA-F]+\] )");
    return std::regex_replace(ffmpeg.lastErrorLines(), contextPrefix, "");
}

std::filesystem::path requireFfmpeg() {
    if (std::optional<std::filesystem::path> ffmpeg = findOnPath("ffmpeg"))
        return *ffmpeg;
    throw std::runtime_error("movies need ffmpeg, which is not on PATH; install it with 'apt-get install ffmpeg' "
                             "(PNG frames need no ffmpeg)");
}

} // namespace gravlab
