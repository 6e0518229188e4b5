// Feeding frames to ffmpeg and putting the finished movie in place (see MovieEncoder.hpp).
#include "MovieEncoder.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <system_error>

namespace gravlab {
namespace {

/// How long a failed ffmpeg may take to exit once its input is closed before it is killed; it normally exits at
/// once, having failed.
constexpr std::chrono::seconds kFailedExitTimeout{5};

ChildProcess startFfmpeg(const std::filesystem::path& ffmpeg, const AtomicFile& output, const MovieFormat& format,
                         const MovieCodec& codec) {
    try {
        return ChildProcess(ffmpeg, movieEncodingArguments(format, codec, output.temporaryPath()),
                            ChildProcess::Input::Pipe);
    } catch (const std::runtime_error& error) {
        throw FileWriteError(output.target(), error.what());
    }
}

} // namespace

MovieEncoder::MovieEncoder(const std::filesystem::path& ffmpeg, const std::filesystem::path& file,
                           const MovieFormat& format, MovieCodec codec)
    : m_output(file, AtomicFile::Mode::ByName), m_format(format), m_codec(std::move(codec)),
      m_ffmpeg(startFfmpeg(ffmpeg, m_output, m_format, m_codec)) {}

void MovieEncoder::addFrame(const ImageRgba8& frame) {
    if (frame.width != m_format.width || frame.height != m_format.height)
        throw std::logic_error("a " + std::to_string(frame.width) + "x" + std::to_string(frame.height) +
                               " frame handed to a " + std::to_string(m_format.width) + "x" +
                               std::to_string(m_format.height) + " movie");
    try {
        m_ffmpeg.writeInput(frame.pixels.data(), frame.pixels.size());
    } catch (const ChildInputError& error) {
        failWithFfmpegReport("could not hand frame " + std::to_string(m_framesWritten + 1) +
                             " to ffmpeg: " + error.what());
    }
    ++m_framesWritten;
}

void MovieEncoder::finish() {
    const ChildExit exit = m_ffmpeg.finish();
    if (!exit.succeeded()) {
        const std::string words = ffmpegLastWords(m_ffmpeg);
        throw FileWriteError(m_output.target(), "ffmpeg failed to finish the movie after " +
                                                    std::to_string(m_framesWritten) + " frames (" + exit.describe() +
                                                    ")" + (words.empty() ? "" : ": " + words));
    }
    std::error_code error;
    if (std::filesystem::file_size(m_output.temporaryPath(), error) == 0 || error)
        throw FileWriteError(m_output.target(), "ffmpeg reported success but wrote nothing after " +
                                                    std::to_string(m_framesWritten) + " frames");
    m_output.commit();
}

void MovieEncoder::failWithFfmpegReport(const std::string& what) {
    const ChildExit exit = m_ffmpeg.finish(kFailedExitTimeout);
    const std::string words = ffmpegLastWords(m_ffmpeg);
    throw FileWriteError(m_output.target(),
                         what + "; ffmpeg ended with " + exit.describe() + (words.empty() ? "" : ": " + words));
}

} // namespace gravlab
