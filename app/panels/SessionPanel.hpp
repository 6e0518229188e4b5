#pragma once
// The session panel: a file path with Save and Load buttons for the whole setup (session/SessionFile.hpp), and what
// the last of them did.
//
// Design note: a small ImGui window of its own, display and edit only like the other panels: it returns which button
// was pressed with the path typed, and the viewer saves or loads. The path is edited in a fixed buffer, as
// ImGui::InputText wants; the outcome shown (saved, loaded, or why not) is the viewer's, so a failed load shows its
// message here while the simulation keeps running what it ran.
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gravlab {

struct SessionPanelView {
    std::string_view outcome; ///< what the last save or load did; empty before the first
    bool outcomeIsError = false;
};

struct SessionPanelRequests {
    std::optional<std::filesystem::path> save; ///< write the session to this file
    std::optional<std::filesystem::path> load; ///< read this file and apply it
};

class SessionPanel {
public:
    /// initialPath: the path the field shows first (the --session file, or a default name).
    explicit SessionPanel(const std::filesystem::path& initialPath);
    SessionPanelRequests draw(const SessionPanelView& view);

private:
    std::array<char, 4096> m_path{}; ///< the text field's buffer, NUL-terminated
};

} // namespace gravlab
