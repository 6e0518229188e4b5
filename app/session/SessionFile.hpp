#pragma once
// Saved sessions: the whole setup of a run (simulation parameters, camera, view and run settings) in a JSON file that
// `gravlab --session FILE` and the window's Session panel load again.
//
// Design note: one file, one JSON object, pretty-printed so that it can be edited by hand:
//   {"version": 1,
//    "params": {...SimParams, see SimParamsJson.hpp...},
//    "camera": {"target": [0, 0, 0], "distance": 10, "yawDegrees": -90, "pitchDegrees": 30,
//               "verticalFieldOfViewDegrees": 45},
//    "view": {"colorMode": "component", "colorScale": "auto",
//             "treeOverlay": {"enabled": false, "minDepth": 0, "maxDepth": 4, "onlyPickedPath": false,
//                             "opacity": 0.55},
//             "orbOverlay": {"showCells": false, "innerCells": false, "opacity": 0.85}},
//    "run": {"paused": false, "stepsPerFrame": 1, "autoRefreshEnergy": true}}
// "version" is required and must be 1. Every other key may be left out and then takes its default (SimParams', the
// view's, a fresh camera's), so a hand-written file holds only what differs from them, e.g.
//   {"version": 1, "params": {"scenario": "plummer", "bodyCount": 20000}}
// Two absences mean more than a default: no "camera" fits the camera to the bodies, and no "run.stepsPerFrame" takes
// the mode's own (1 in a window, 16 headless). A relative params.initialFile is relative to the session file's folder
// (saving writes it absolute), so a session can travel with its snapshot.
// Loading checks everything before anything is used and refuses the whole file at the first problem with one line,
// "FILE: KEY PATH: what was found and what is allowed" (JsonReader.hpp, SimParamsJson.hpp): an unknown key, a value
// of the wrong type, out of its range or an unknown name, malformed JSON (with nlohmann's line and column), another
// version, a file that cannot be read. Numbers are written so that they read back bit for bit: doubles in their
// shortest exact form, floats (camera, opacities) in the fewest digits that give the same float again, angles in
// degrees chosen the same way. Saving goes through AtomicFile (temporary file renamed into place), so a failed save
// leaves the previous file, or none, never a partial one. GL-free: it lives in the session library.
#include "ViewState.hpp"

#include <gravlab/sim/ColorScale.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace gravlab {

inline constexpr int kSessionFileVersion = 1;

struct SavedSession {
    SimParams params;
    /// The camera's pose; none: the camera is fitted to the bodies.
    std::optional<CameraState> camera;
    ColorMode colorMode = ColorMode::Component;
    ColorScaleChoice colorScale = ColorScaleChoice::Auto; ///< log, linear or auto for per-body quantities
    TreeOverlaySettings treeOverlay;
    OrbOverlaySettings orbOverlay;
    /// The window starts paused; headless runs step regardless.
    bool paused = false;
    /// Simulation steps per drawn frame, in kStepsPerFrameRange; none: 1 in a window, 16 headless.
    std::optional<int> stepsPerFrame;
    /// The window measures the energy every 2 s while that is quick (SessionController); headless never does.
    bool autoRefreshEnergy = true;
    bool operator==(const SavedSession&) const = default;
};

/// A session file that cannot be read or used; what() is one line: "FILE: KEY PATH: problem", or "FILE: problem"
/// when the problem is the file as a whole.
class SessionFileError : public std::runtime_error {
public:
    SessionFileError(const std::filesystem::path& file, const std::string& keyPath, const std::string& problem);
    const std::filesystem::path& file() const { return m_file; }
    /// "params.orb.domainCount"; empty when the problem is the file as a whole (unreadable, not JSON).
    const std::string& keyPath() const { return m_keyPath; }

private:
    std::filesystem::path m_file;
    std::string m_keyPath;
};

/// Writes session to file through a temporary file renamed into place. Throws FileWriteError (AtomicFile.hpp) naming
/// the file and the reason, leaving no file behind.
void saveSession(const std::filesystem::path& file, const SavedSession& session);

/// Reads and checks a session file; throws SessionFileError at the first problem, having used nothing.
SavedSession loadSession(const std::filesystem::path& file);

} // namespace gravlab
