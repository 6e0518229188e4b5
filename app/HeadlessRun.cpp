// The headless frame loop: simulation steps, offscreen rendering through EGL, PNG files.
#include "HeadlessRun.hpp"

#include "OutputFolder.hpp"

#include <BodyVertexFeed.hpp>
#include <HeadlessContext.hpp>
#include <Image.hpp>
#include <OffscreenTarget.hpp>
#include <SceneRenderer.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

namespace gravlab {

namespace {

void reportProgress(std::ostream& progress, bool onOneLine, int framesWritten, int frameCount,
                    const Simulation& simulation, double secondsElapsed) {
    const int tenth = std::max(frameCount / 10, 1);
    if (!onOneLine && framesWritten % tenth != 0 && framesWritten != frameCount)
        return;
    char line[160];
    std::snprintf(line, sizeof(line), "gravlab: frame %d/%d  t = %.4g  (%.2f frames/s)", framesWritten, frameCount,
                  simulation.time(), framesWritten / std::max(secondsElapsed, 1e-9));
    if (onOneLine)
        progress << '\r' << line << "   " << std::flush;
    else
        progress << line << '\n';
}

} // namespace

HeadlessSettings headlessSettingsFrom(const AppOptions& options) {
    return {options.frameCount, options.stepsPerFrameFor(true), options.width,
            options.height,     options.outputFolder,           true};
}

void renderFramesHeadless(Simulation& simulation, const HeadlessSettings& settings, std::ostream& progress,
                          std::ostream& summary) {
    prepareOutputFolder(settings.outputFolder);

    // The context is declared first so that it is destroyed after every GL object below.
    const HeadlessContext context;
    SceneRenderer scene;
    const OffscreenTarget target(settings.width, settings.height);
    BodyVertexFeed feed(progress);
    feed.update(simulation.backend(), simulation.bodyCount(), scene.particles());

    const SceneBounds bounds = robustBounds(feed.copyToHost(simulation.backend(), simulation.bodyCount()));
    OrbitCamera camera;
    camera.fit(bounds, static_cast<float>(settings.width) / static_cast<float>(settings.height));
    const FrameLook look{particleStyleFor(simulation.bodyCount(), bounds.radius), 1.0f};

    const auto start = std::chrono::steady_clock::now();
    const auto frameCount = static_cast<std::size_t>(settings.frameCount);
    for (std::size_t frame = 0; frame < frameCount; ++frame) {
        try {
            if (frame > 0) {
                simulation.step(settings.stepsPerFrame);
                feed.update(simulation.backend(), simulation.bodyCount(), scene.particles());
            }
            scene.render(camera, look, {target.framebuffer(), target.width(), target.height()});
            writePng(settings.outputFolder / frameFileName(frame, frameCount), target.readPixels());
        } catch (const std::exception& error) {
            if (settings.progressOnOneLine && frame > 0)
                progress << '\n';
            throw std::runtime_error("stopped at frame " + std::to_string(frame) + " of " + std::to_string(frameCount) +
                                     " (the frames before it are in " + settings.outputFolder.string() +
                                     "): " + error.what());
        }
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        reportProgress(progress, settings.progressOnOneLine, static_cast<int>(frame + 1), settings.frameCount,
                       simulation, elapsed.count());
    }
    if (settings.progressOnOneLine)
        progress << '\n';

    std::error_code ignored;
    const std::filesystem::path shown = std::filesystem::absolute(settings.outputFolder, ignored);
    summary << "gravlab: wrote " << frameCount << " frames (" << settings.width << "x" << settings.height << ", "
            << context.description() << ", positions by " << feed.path() << ") to " << shown.string() << "/ ("
            << frameFileName(0, frameCount) << " ... " << frameFileName(frameCount - 1, frameCount) << ")\n";
}

} // namespace gravlab
