#pragma once
// Errors where they are seen: a red banner across the top of the window instead of a line at the bottom of a panel.
//
// Design note: the viewer collects the messages of the moment (the session's last error, a failed file or session
// load, a failed screenshot); the banner shows each until the user dismisses it. Dismissing remembers the message
// text, so the same error does not come back every frame, while a new or repeated-after-change error shows again.
// The banner is a fixed, undecorated ImGui window at the top centre, so it never hides behind a panel.
#include <string>
#include <vector>

namespace gravlab {

class ErrorBanner {
public:
    /// Draws the messages not dismissed yet (empty ones are skipped); forgets dismissals of messages no longer given.
    void draw(const std::vector<std::string>& messages);
    /// Whether message would be shown (not empty, not dismissed), for tests and callers.
    bool shows(const std::string& message) const;
    void dismiss(const std::string& message) { m_dismissed.push_back(message); }

private:
    std::vector<std::string> m_dismissed;
};

} // namespace gravlab
