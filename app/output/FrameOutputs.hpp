#pragma once
// Where the headless run's frames go: PNG files through the writer pool, an MP4 through ffmpeg, or both.
//
// Design note: everything that can refuse the outputs happens in the constructor, which the launcher calls before
// the simulation creates its bodies: the PNG folder is created and probed (exit status 2 when unusable, like any bad
// flag), the movie's folder likewise, ffmpeg is looked up on PATH (absent: one line naming 'apt-get install ffmpeg',
// exit status 1), the encoder is chosen and tried, and ffmpeg is started, waiting on its pipe. A frame is then handed
// to the movie first, which reads the pixels while the render thread waits, and moved to the PNG pool after, so the
// pixels are never copied. Any failure is a FileWriteError naming the file; the first one stops the run.
#include "MovieEncoder.hpp"
#include "PngWriterPool.hpp"

#include <gravlab/render/Image.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

namespace gravlab {

struct FrameOutputSettings {
    std::size_t frameCount = 0;                     ///< frames the run renders; sizes the zero padding of PNG names
    int width = 0;                                  ///< pixels of each frame
    int height = 0;                                 ///< pixels
    std::optional<std::filesystem::path> pngFolder; ///< frame_00000.png, ... go here; none: no PNG files
    std::optional<std::filesystem::path> movieFile; ///< the MP4; none: no movie
    double framesPerSecond = 30;                    ///< of the movie
    std::optional<std::string> movieEncoder;        ///< ffmpeg's encoder name; none: chosen (MovieCodec.hpp)
};

class FrameOutputs {
public:
    /// Prepares every output of settings (see the design note); the encoder's choice and why the GPU's was passed
    /// over go to log. Throws UsageError for an unusable folder, std::runtime_error for a missing ffmpeg or an
    /// encoder that does not work (naming the movie file).
    FrameOutputs(const FrameOutputSettings& settings, std::ostream& log);

    /// Hands frame frameIndex to the movie, then to the PNG writers; throws the first failure of either.
    void deliver(std::size_t frameIndex, ImageRgba8 image);
    /// Waits for the PNG writers and completes the movie; throws the first failure.
    void finish();

    /// Where the frames went, for the summary: "to DIR/ (frame_00000.png ... frame_00119.png)" and/or "to
    /// merger.mp4 (120 frames, libx264, 30 frames/s)".
    std::string describe() const;
    /// What a failed run leaves, for its error message: the PNG folder with the frames completed before, and that the
    /// movie was not written.
    std::string describeRemains() const;

private:
    FrameOutputSettings m_settings;
    std::optional<MovieEncoder> m_movie;
    std::optional<PngWriterPool> m_pngWriters;
};

} // namespace gravlab
