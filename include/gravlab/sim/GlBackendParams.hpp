#pragma once
// What the OpenGL compute backend (render/compute/GlComputeBackend.hpp) steps, stated where validation can see it.
//
// Design note: the GL backend lives in render/ (it needs a GL context), but which parameters it takes is plain data
// that validateSimParams, the app's backend choice and the backend itself must agree on, so it is stated once here in
// sim: a solver with GL phases (SolverRegistry.hpp), softening > 0 (its shader keeps no per-target record of a
// coincident pair, so the exact Newtonian sum could not be reported as the other backends do), the single-precision
// state, fixed time steps and no ORB domains. Each refusal names the field, the value, and the backend that does it.
#include <gravlab/sim/SimParams.hpp>

#include <optional>
#include <string>

namespace gravlab {

/// Why the GL backend cannot run params, as InvalidParameterError would say it; nullopt when it can.
std::optional<InvalidParameterError> glBackendRefusal(const SimParams& params);

/// Throws glBackendRefusal(params) when there is one.
void requireGlBackendTakes(const SimParams& params);

} // namespace gravlab
