#pragma once
// The file panel: load initial conditions from a snapshot file and save the current state as one.
//
// Design note: like the other panels it draws a read-only view and returns requests; the viewer applies them
// (loading goes through the session controller as a parameter edit with SimParams::initialFile, so a bad file leaves
// the running simulation as it was and its message is shown here; saving writes Simulation::snapshot()). The path
// field is the panel's own state. The save format follows the extension (.hdf5, .tipsy, .csv) unless chosen.
#include <gravlab/sim/Snapshot.hpp>

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace gravlab {

struct FilePanelView {
    std::string_view loadedFile; ///< empty when the bodies come from a scenario
    std::string_view message;    ///< the outcome of the last load or save (an error is shown in red)
    bool messageIsError = false;
};

struct FilePanelRequests {
    std::optional<std::string> load;          ///< path to load as the initial conditions
    std::optional<std::string> save;          ///< path to write the current state to
    std::optional<SnapshotFormat> saveFormat; ///< nullopt: from the extension
};

class FilePanel {
public:
    FilePanelRequests draw(const FilePanelView& view);

private:
    std::array<char, 1024> m_path{};
    int m_saveFormat = 0; ///< 0: from the extension, else 1 + the SnapshotFormat entry
};

} // namespace gravlab
