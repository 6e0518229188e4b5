#pragma once
// The two constants of softened gravity every force and energy evaluation takes: G and the Plummer softening.
//
// Design note: a header of its own, so that SimParams (which hands them out, SimParams::gravity) and the solvers'
// interfaces (DirectSumCpu.hpp and the rest) share the type without including each other.

namespace gravlab {

struct GravityParams {
    double gravitationalConstant; ///< G, N-body units
    double softeningLength;       ///< Plummer epsilon, N-body length units
};

} // namespace gravlab
