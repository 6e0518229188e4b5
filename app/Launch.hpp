#pragma once
// Choosing between the window and headless rendering, and running the chosen one.
//
// Design note: a window is tried only when a display is announced (DISPLAY or WAYLAND_DISPLAY) and --headless was not
// given; if the window cannot be created even then, gravlab says why and renders headless instead of failing, so
// the default command always leaves a result.
#include "CommandLine.hpp"

#include <ostream>

namespace gravlab {

/// Whether the environment names a display server (it may still refuse a window).
bool displayAnnounced();

/// Runs gravlab with validated options; returns the exit status. Throws on failures (main reports them).
int runGravlab(const AppOptions& options, std::ostream& out, std::ostream& err);

} // namespace gravlab
