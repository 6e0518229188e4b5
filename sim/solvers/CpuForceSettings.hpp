#pragma once
// What a CPU backend's cached accelerations were computed with, shared by the single-process and the distributed CPU
// backends.
//
// Design note: cached accelerations stay valid while the solver and the parameters it reads stay the same; theta and
// the opening criterion shape only the solvers that read them (SolverInfo::usesOpeningAngle), so changing them under
// the direct sum keeps the forces. Both CPU backends ask the same question, so it is answered once here.
#include "solvers/CpuForceSolver.hpp"

#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SolverRegistry.hpp>

#include <string_view>

namespace gravlab {

struct CpuForceSettings {
    const SolverInfo* solver = nullptr;
    ForceParams forces;

    /// Whether accelerations computed with other are valid for these settings.
    bool sameForces(const CpuForceSettings& other) const;
    /// params' solver and force parameters; throws InvalidParameterError when the solver does not run on the CPU,
    /// naming backend (e.g. "the CPU backend") as the place it was asked for.
    static CpuForceSettings of(const SimParams& params, std::string_view backend);
};

} // namespace gravlab
