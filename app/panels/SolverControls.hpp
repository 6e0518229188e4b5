#pragma once
// The solver section of the simulation panel: which force solver runs, its opening angle, the precision of the state,
// and where the last step's time went.
//
// Design note: like the rest of the panel these widgets edit a copy of SimParams and report whether it changed; the
// viewer validates and applies it. The pair-once solver exists only in the CUDA core, so on the CPU backend its entry
// is shown disabled with the reason rather than offered and then refused. Theta stays visible for the other solvers,
// disabled, so the slider does not jump around the panel when the solver changes.
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <span>

namespace gravlab {

/// Solver combo, theta slider and precision combo; returns whether edited changed. device: where the steps run (the
/// combo greys the solvers with no implementation there).
bool drawSolverControls(SimParams& edited, Device device);

/// One row per phase of the last step (as the backend reports them) with milliseconds and share, and the total.
void drawPhaseTimings(std::span<const PhaseTiming> timings);

} // namespace gravlab
