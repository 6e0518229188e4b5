#pragma once
// One MP4 movie: frames go through a pipe into an ffmpeg child, which writes them to a temporary name beside the
// movie; the movie appears under its name only when ffmpeg has finished it.
//
// Design note: the choice of ffmpeg as a child process over libavcodec, and of the encoder, is MovieCodec.hpp's. Here:
// the output is an AtomicFile in ByName mode, so ffmpeg writes to the hidden temporary name (with -f mp4, since that
// name does not end in .mp4) and finish() renames it into place after ffmpeg exited with status 0; any failure, and
// destroying an unfinished encoder, leaves no movie and no temporary file (the child is killed first: it is declared
// after the file, so it is destroyed before it). Frames are written synchronously from the caller's thread: ffmpeg
// buffers a few frames and encodes on its own threads, and a pipe that blocks when ffmpeg falls behind is the
// back-pressure that keeps memory bounded. When ffmpeg dies (a bad encoder option, a full disk, a crash) the write
// fails with EPIPE instead of a signal (ChildProcess), and the error names the movie file, how ffmpeg ended and its
// last error lines.
#include "ChildProcess.hpp"
#include "MovieCodec.hpp"

#include <gravlab/render/Image.hpp>
#include <gravlab/sim/AtomicFile.hpp>

#include <cstddef>
#include <filesystem>

namespace gravlab {

class MovieEncoder {
public:
    /// Starts the ffmpeg at ffmpeg encoding format with codec into file's temporary name. Throws FileWriteError
    /// naming file when its folder cannot take it or ffmpeg cannot be started.
    MovieEncoder(const std::filesystem::path& ffmpeg, const std::filesystem::path& file, const MovieFormat& format,
                 MovieCodec codec);

    /// Hands one frame of format's size, top row first, to ffmpeg; throws FileWriteError naming the movie and quoting
    /// ffmpeg when it no longer takes frames.
    void addFrame(const ImageRgba8& frame);
    /// Ends the input, waits for ffmpeg to complete the file and renames it into place; throws FileWriteError naming
    /// the movie and quoting ffmpeg when it failed. Call once.
    void finish();

    std::size_t framesWritten() const { return m_framesWritten; }
    const std::filesystem::path& file() const { return m_output.target(); }
    const MovieCodec& codec() const { return m_codec; }
    const MovieFormat& format() const { return m_format; }

private:
    /// Waits (briefly) for a failed ffmpeg and throws the error naming the movie, what happened and ffmpeg's words.
    [[noreturn]] void failWithFfmpegReport(const std::string& what);

    AtomicFile m_output;
    MovieFormat m_format;
    MovieCodec m_codec;
    ChildProcess m_ffmpeg;
    std::size_t m_framesWritten = 0;
};

} // namespace gravlab
