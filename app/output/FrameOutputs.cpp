// Opening, feeding and completing the headless run's outputs (see FrameOutputs.hpp).
#include "FrameOutputs.hpp"

#include "CommandLine.hpp"
#include "OutputFolder.hpp"

#include <cstdio>
#include <stdexcept>
#include <system_error>

namespace gravlab {
namespace {

std::string shownFolder(const std::filesystem::path& folder) {
    std::error_code ignored;
    return std::filesystem::absolute(folder, ignored).string() + "/";
}

/// The movie's own checks: a file name, not a folder, in a folder that exists or can be made and takes files.
void prepareMovieFile(const std::filesystem::path& file) {
    std::error_code ignored;
    if (file.filename().empty() || std::filesystem::is_directory(file, ignored))
        throw UsageError("--movie: " + file.string() + " is a folder; give the movie's file name, such as " +
                         (file / "merger.mp4").string());
    prepareOutputFolder(file.has_parent_path() ? file.parent_path() : std::filesystem::path("."), "--movie");
}

} // namespace

FrameOutputs::FrameOutputs(const FrameOutputSettings& settings, std::ostream& log) : m_settings(settings) {
    if (m_settings.pngFolder)
        prepareOutputFolder(*m_settings.pngFolder);
    if (m_settings.movieFile) {
        const std::filesystem::path& file = *m_settings.movieFile;
        prepareMovieFile(file);
        const std::filesystem::path ffmpeg = requireFfmpeg();
        const MovieFormat format{m_settings.width, m_settings.height, m_settings.framesPerSecond};
        MovieCodecChoice choice;
        try {
            choice = chooseMovieCodec(ffmpeg, format, m_settings.movieEncoder);
        } catch (const std::runtime_error& error) {
            throw FileWriteError(file, error.what());
        }
        log << "gravlab: encoding " << file.string() << " with ffmpeg's " << choice.codec.name
            << (choice.note.empty() ? "" : " (" + choice.note + ")") << '\n';
        m_movie.emplace(ffmpeg, file, format, std::move(choice.codec));
    }
    if (m_settings.pngFolder) {
        const unsigned workers = PngWriterPool::defaultWorkerCount();
        const std::size_t frameBytes =
            std::size_t{4} * static_cast<std::size_t>(m_settings.width) * static_cast<std::size_t>(m_settings.height);
        m_pngWriters.emplace(workers, PngWriterPool::defaultPendingLimit(workers, frameBytes));
    }
}

void FrameOutputs::deliver(std::size_t frameIndex, ImageRgba8 image) {
    if (m_movie)
        m_movie->addFrame(image);
    if (m_pngWriters)
        m_pngWriters->submit(*m_settings.pngFolder / frameFileName(frameIndex, m_settings.frameCount),
                             std::move(image));
}

void FrameOutputs::finish() {
    if (m_pngWriters)
        m_pngWriters->finish();
    if (m_movie)
        m_movie->finish();
}

std::string FrameOutputs::describe() const {
    std::string text;
    if (m_pngWriters)
        text += "to " + shownFolder(*m_settings.pngFolder) + " (" + frameFileName(0, m_settings.frameCount) + " ... " +
                frameFileName(m_settings.frameCount - 1, m_settings.frameCount) + ", encoded by " +
                std::to_string(m_pngWriters->workerCount()) +
                (m_pngWriters->workerCount() == 1 ? " writer thread)" : " writer threads)");
    if (m_movie) {
        char rate[32];
        std::snprintf(rate, sizeof(rate), "%.4g", m_movie->format().framesPerSecond);
        text += std::string(text.empty() ? "" : " and ") + "to " + m_movie->file().string() + " (" +
                std::to_string(m_movie->framesWritten()) + " frames, " + m_movie->codec().name + ", " + rate +
                " frames/s)";
    }
    return text;
}

std::string FrameOutputs::describeRemains() const {
    std::string text;
    if (m_pngWriters)
        text += "the frames completed before are in " + shownFolder(*m_settings.pngFolder);
    if (m_movie)
        text += std::string(text.empty() ? "" : "; ") + "the movie " + m_movie->file().string() + " was not written";
    return text;
}

} // namespace gravlab
