#pragma once
// The gravlab command line: flags to AppOptions, or an exit status and a message.
//
// Design note: parsing is a pure function (no printing, no exit()) so the tests drive it directly. Every number, here
// and in the subcommands, is read from its text by addNumberOption (OptionParsing.hpp) with the ranges below or
// SimParams', so a bad value always produces one sentence naming the flag, quoting the value as typed and stating what
// is allowed, and exit status 2; validateSimParams then checks what ranges alone cannot (domains against bodies).
// CLI11 never converts a number itself: it reads "" as 0, reports "abc" without the range, wraps "--bodies -5" into a
// huge unsigned count, and a double shows "1.0000000001" as "1". CLI11's own errors (unknown flag, missing value)
// also give status 2.
// ORB: --orb-domains D sets the domain count (0: off). Any other ORB flag (--orb-balance, --orb-every,
// --orb-imbalance, --orb-cells, --color orb-domain) without --orb-domains switches ORB on with
// defaultOrbDomainCount(N) = min(64, N) domains, and while ORB is on the bodies are coloured by domain unless --color
// says otherwise. Any of those flags with an explicit --orb-domains 0 is a usage error naming both, since ORB off
// would silently ignore them.
// Sessions: --session FILE reads a session file (session/SessionFile.hpp) as soon as CLI11 meets the flag
// (trigger_on_parse), before the callbacks of the other flags run, so the file's values are the base that every flag
// given on the same command line overrides, wherever it stands; this is the one file parsing reads. A file that cannot
// be used is a usage error (status 2) whose line names the file, the key path and what is allowed, like a bad flag
// value. A session's view counts as asked for: its ORB cells or orb-domain colours switch ORB on when it is off, as
// the flags do, while only ORB flags given on the command line colour the bodies by domain or conflict with
// --orb-domains 0. A session also chooses the body count and the solver, so the GPU's larger defaults do not apply.
#include "AccuracyCommand.hpp"
#include "BenchCommand.hpp"
#include "ConvertCommand.hpp"
#include "TimeStepBenchCommand.hpp"
#include "ViewSettings.hpp"
#include "session/Comparison.hpp"
#include "session/SnapshotSaver.hpp"
#include "session/ViewState.hpp"

#include <gravlab/sim/ColorScale.hpp>
#include <gravlab/sim/SimParams.hpp>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace gravlab {

/// A mistake in how gravlab was called (exit status 2), as opposed to a failure while running (status 1).
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline constexpr ParamRange kFrameCountRange{"frames", 1.0, 1e6, true, "number of frames to render"};
inline constexpr ParamRange kWidthRange{"width", 16.0, 8192.0, true, "image or window width in pixels"};
inline constexpr ParamRange kHeightRange{"height", 16.0, 8192.0, true, "image or window height in pixels"};
inline constexpr ParamRange kQuitAfterRange{"quit-after", 0.0, 1e6, false, "seconds the window stays open"};
inline constexpr ParamRange kUiScaleRange{"ui-scale", 0.5, 4.0, true, "size of the panels' text and widgets"};
inline constexpr ParamRange kFramesPerSecondRange{"fps", 1.0, 240.0, true, "frames per second of movies"};

struct AppOptions {
    SimParams simulation;
    /// Render frames through EGL to PNG files (or a movie) instead of opening a window; --frames, --out and --movie
    /// imply it.
    bool headless = false;
    int frameCount = 120;
    /// Headless PNG frames go here; the window's recordings go to the default one (--out implies --headless).
    std::filesystem::path outputFolder = "gravlab_frames";
    bool outputFolderGiven = false; ///< --out was given: with --movie, PNG frames are written as well
    /// Headless frames are encoded into this MP4 through ffmpeg (--movie), instead of PNG files unless --out is given.
    std::optional<std::filesystem::path> movieFile;
    /// ffmpeg's encoder for movies and the window's recordings (--movie-encoder); none: h264_nvenc when it works,
    /// else libx264.
    std::optional<std::string> movieEncoder;
    double framesPerSecond = 30; ///< playback rate of movies and recordings (--fps)
    int width = 1280;            ///< pixels
    int height = 720;            ///< pixels
    /// Window: scale of the panels' text and widgets (--ui-scale); none: the monitor's content scale.
    std::optional<double> uiScale;
    bool fullscreen = false; ///< window: start fullscreen (--fullscreen; F11 toggles)
    /// Window: close after this many seconds and print the frames and steps per second (--quit-after).
    std::optional<double> quitAfterSeconds;
    /// Headless: refit the still camera when the bodies leave the view (--camera follow), or never (--camera fixed).
    bool cameraFollowsBodies = true;
    /// Simulation steps between drawn frames. Unset: 1 in a window (smooth motion), kHeadlessStepsPerFrame headless
    /// (so the default frame count reaches the default scene's first encounter).
    std::optional<int> stepsPerFrame;
    /// What colours the bodies (--color).
    ColorMode colorMode = ColorMode::Component;
    /// Log, linear or auto for the per-body quantities (--color-scale).
    ColorScaleChoice colorScale = ColorScaleChoice::Auto;
    /// The octree cells drawn as wireframe, in the window and in headless frames (--overlay-depth switches them on
    /// for its depths).
    TreeOverlaySettings treeOverlay;
    /// The ORB cells (the domains) drawn as wireframe boxes, in the window and in headless frames (--orb-cells).
    OrbOverlaySettings orbOverlay;
    /// The session file given with --session, whose values the other flags override.
    std::optional<std::filesystem::path> sessionFile;
    /// The camera's pose from a session file; none: fitted to the bodies.
    std::optional<CameraState> camera;
    /// From a session file: the window starts paused (headless runs step regardless).
    bool startPaused = false;
    /// From a session file: the window measures the energy every 2 s while quick.
    bool autoRefreshEnergy = true;
    /// Whether --bodies / --solver (or a session file) chose them; when not, a run on the GPU takes larger defaults
    /// (Launch.cpp).
    bool bodyCountGiven = false;
    bool solverGiven = false;
    /// Whether --G was given: it then wins over the G a loaded file's units imply.
    bool gravitationalConstantGiven = false;
    /// Snapshots while running (--save-every, --save-dir, --save-format).
    SnapshotSaving saving;
    /// Where a headless run writes the plots' time series (energy error, momenta, virial ratio, Lagrangian radii, step
    /// phases) after its last frame (--plots-csv); the window's plots panel starts with it as its export path.
    std::optional<std::filesystem::path> plotsCsv;
    /// Steps between the plots' samples in a headless run (--plots-every); 0: one sample per frame.
    std::uint64_t plotsEverySteps = 0;
    /// A second run of the same state side by side (--compare SOLVER[:THETA]); none: one run.
    std::optional<ComparisonChoice> compare;
    /// Where the comparison's divergence history is written as CSV when the run ends (--compare-csv).
    std::optional<std::filesystem::path> compareCsv;

    /// Headless runs write PNG frames unless only a movie was asked for.
    bool writesPngFrames() const { return !movieFile || outputFolderGiven; }
    int stepsPerFrameFor(bool headlessRun) const {
        return stepsPerFrame.value_or(headlessRun ? kHeadlessStepsPerFrame : 1);
    }
    static constexpr int kHeadlessStepsPerFrame = 16;
};

struct CommandLineOutcome {
    /// Set when gravlab should run with these options.
    std::optional<AppOptions> options;
    /// Set instead of options when the command was `gravlab bench ...`.
    std::optional<BenchOptions> bench;
    /// Set instead of options when the command was `gravlab accuracy ...`.
    std::optional<AccuracyOptions> accuracy;
    /// Set instead of options when the command was `gravlab timesteps-bench ...`.
    std::optional<TimeStepBenchOptions> timeStepBench;
    /// Set instead of options when the command was `gravlab convert ...`.
    std::optional<ConvertOptions> convert;
    /// When options, bench and accuracy are empty: 0 after --help or --list-scenarios, 2 for a usage error.
    int exitCode = 0;
    /// When options, bench and accuracy are empty: the text to print (help or list on stdout, an error on stderr).
    std::string message;
};

CommandLineOutcome parseCommandLine(int argc, const char* const* argv);

} // namespace gravlab
