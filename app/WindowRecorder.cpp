// Recording the window's frames into a movie (see WindowRecorder.hpp).
#include "WindowRecorder.hpp"

#include "OutputFolder.hpp"

#include <ctime>
#include <exception>

namespace gravlab {

WindowRecorder::WindowRecorder(RecordingSettings settings, std::ostream& log)
    : m_settings(std::move(settings)), m_log(log) {}

void WindowRecorder::toggle(int width, int height) {
    if (m_movie)
        stop();
    else
        start(width, height);
}

void WindowRecorder::start(int width, int height) {
    if (width < 1 || height < 1) {
        report("cannot record a minimised window", true);
        return;
    }
    try {
        prepareOutputFolder(m_settings.folder);
        const std::filesystem::path ffmpeg = requireFfmpeg();
        const std::filesystem::path file = recordingFileName(m_settings.folder, std::time(nullptr));
        const MovieFormat format{width, height, m_settings.framesPerSecond};
        MovieCodecChoice choice = chooseMovieCodec(ffmpeg, format, m_settings.encoder);
        m_movie.emplace(ffmpeg, file, format, std::move(choice.codec));
        report("recording " + std::to_string(width) + "x" + std::to_string(height) + " to " + file.string() + " with " +
                   m_movie->codec().name,
               false);
    } catch (const std::exception& error) {
        m_movie.reset();
        report(std::string("cannot record: ") + error.what(), true);
    }
}

void WindowRecorder::captureFrame(const RenderTarget& source) {
    const int width = source.width, height = source.height;
    if (!m_movie || width < 1 || height < 1)
        return;
    const MovieFormat& format = m_movie->format();
    if (width != format.width || height != format.height) {
        complete(" (the window changed size from " + std::to_string(format.width) + "x" +
                 std::to_string(format.height) + " to " + std::to_string(width) + "x" + std::to_string(height) +
                 "; a movie keeps one size)");
        return;
    }
    try {
        m_movie->addFrame(m_readback.read(source.framebuffer, width, height));
    } catch (const std::exception& error) {
        fail(error.what());
    }
}

void WindowRecorder::stop() {
    complete("");
}

void WindowRecorder::complete(const std::string& why) {
    if (!m_movie)
        return;
    try {
        m_movie->finish();
        report("saved " + std::to_string(m_movie->framesWritten()) + " frames to " + m_movie->file().string() + why,
               false);
    } catch (const std::exception& error) {
        report(std::string("recording failed: ") + error.what(), true);
    }
    m_movie.reset();
}

void WindowRecorder::fail(const std::string& message) {
    m_movie.reset(); // kills ffmpeg; the unfinished movie is removed
    report("recording failed: " + message, true);
}

void WindowRecorder::report(std::string message, bool isError) {
    m_log << "gravlab: " << message << '\n';
    m_lastOutcome = std::move(message);
    m_lastOutcomeIsError = isError;
}

RecordingView WindowRecorder::view() const {
    RecordingView view;
    view.recording = m_movie.has_value();
    view.frameCount = m_movie ? m_movie->framesWritten() : 0;
    view.lastOutcome = m_lastOutcome;
    view.lastOutcomeIsError = m_lastOutcomeIsError;
    return view;
}

} // namespace gravlab
