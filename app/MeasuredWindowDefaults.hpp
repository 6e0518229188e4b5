#pragma once
// The window's body count and steps per frame from a quick measurement on the backend it will step on.
//
// Design note: a window on the CPU is measured before the simulation exists (Launch.cpp); one that moves onto the GL
// compute backend is measured again once the window's context exists (ViewerGlBackend.cpp), since the two differ by
// orders of magnitude. Both say on the log what they measured and chose, so a user who wonders why the scene has
// this many bodies reads the reason and the flag that overrides it.
#include <gravlab/sim/InteractiveSize.hpp>

#include <iosfwd>

namespace gravlab {

/// Measures params' solver on the backend makeBackend makes and chooses the window's defaults for stepsPerFrame
/// (InteractiveSize.hpp), writing one line about it to log.
InteractiveDefaults measureWindowDefaults(const SimParams& params, int stepsPerFrame, const BackendFactory& makeBackend,
                                          std::ostream& log);

} // namespace gravlab
