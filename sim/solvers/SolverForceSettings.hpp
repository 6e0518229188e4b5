#pragma once
// What a backend's cached accelerations were computed with, shared by the CPU backends (one process and across ranks)
// and the CUDA backend across ranks.
//
// Design note: cached accelerations stay valid while the solver and the parameters it reads stay the same; theta and
// the opening criterion shape only the solvers that read them (SolverInfo::usesOpeningAngle), so changing them under
// the direct sum keeps the forces. These backends ask the same question, so it is answered once here.
#include "solvers/CpuForceSolver.hpp"

#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SolverRegistry.hpp>

#include <string_view>

namespace gravlab {

struct SolverForceSettings {
    const SolverInfo* solver = nullptr;
    ForceParams forces;

    /// Whether accelerations computed with other are valid for these settings.
    bool sameForces(const SolverForceSettings& other) const;
    /// params' solver and force parameters; throws InvalidParameterError when the solver does not run on device,
    /// naming backend (e.g. "the CPU backend") as the place it was asked for.
    static SolverForceSettings of(const SimParams& params, std::string_view backend, Device device = Device::Cpu);
};

} // namespace gravlab
