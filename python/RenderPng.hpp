#pragma once
// One frame of a simulation's current bodies, drawn headless into a PNG file (Simulation.render_png).
#include <gravlab/sim/Simulation.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <filesystem>
#include <string>

namespace gravlab::python {

/// Draws the bodies as the headless mode draws its first frame (same frame pipeline, camera fitted to the bodies'
/// robust bounds, colours by colorMode) into a width x height PNG at path. Creates and destroys its own EGL context.
/// Returns what the frame pipeline logged (a note that CUDA-GL interop is unavailable), empty when nothing. Throws
/// EglError when no context can be made, std::runtime_error when the file cannot be written.
std::string renderPng(Simulation& simulation, const std::filesystem::path& path, int width, int height,
                      ColorMode colorMode);

} // namespace gravlab::python
