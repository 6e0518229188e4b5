#pragma once
// Whether the symmetric level choice's remembered slopes survive from one base step to the next, shared by the CPU and
// GPU tests: a backend must keep them across symmetric steps (the choice is pointless otherwise) and drop them after
// any step that does not keep them current (the start's choice, fixed steps), whose stale slopes would pick levels
// from accelerations long gone.
#include <gravlab/sim/SimulationBackend.hpp>

#include <cstddef>

namespace gravlab::test {

/// Steps stepped from start: one symmetric base step, one step of between, one more symmetric step. Returns whether
/// that last step read slopes, i.e. whether it differs from the same symmetric step taken by fresh from the state
/// before it loaded anew (a load has no slopes). The solver must be deterministic, so that fresh's first evaluation
/// gives the very accelerations stepped holds. The slopes move a level only for bodies near a level's bound: with 600
/// Plummer bodies a quarter of the seeds moved none; the tests take 6,000.
inline bool symmetricStepReadsSlopesAfter(SimulationBackend& stepped, SimulationBackend& fresh, const Bodies& start,
                                          const SimParams& symmetric, const SimParams& between) {
    stepped.load(start);
    stepped.step(symmetric, 1);
    stepped.step(between, 1);
    Bodies before;
    stepped.readBodies(before);
    stepped.step(symmetric, 1);
    fresh.load(before);
    fresh.step(symmetric, 1);
    Bodies withMemory;
    Bodies without;
    stepped.readBodies(withMemory);
    fresh.readBodies(without);
    for (std::size_t i = 0; i < without.size(); ++i)
        if (withMemory.vx[i] != without.vx[i] || withMemory.vy[i] != without.vy[i] || withMemory.vz[i] != without.vz[i])
            return true;
    return false;
}

} // namespace gravlab::test
