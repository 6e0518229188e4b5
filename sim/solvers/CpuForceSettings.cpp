// The CPU backends' force settings (CpuForceSettings.hpp).
#include "solvers/CpuForceSettings.hpp"

namespace gravlab {

bool CpuForceSettings::sameForces(const CpuForceSettings& other) const {
    return solver == other.solver &&
           forces.gravity.gravitationalConstant == other.forces.gravity.gravitationalConstant &&
           forces.gravity.softeningLength == other.forces.gravity.softeningLength &&
           (!solver->usesOpeningAngle || (forces.openingAngle == other.forces.openingAngle &&
                                          forces.openingCriterion == other.forces.openingCriterion &&
                                          forces.forceAccuracy == other.forces.forceAccuracy));
}

CpuForceSettings CpuForceSettings::of(const SimParams& params, std::string_view backend) {
    const SolverInfo& solver = findSolver(params.solver);
    requireSolverRunsOn(solver, Device::Cpu, backend);
    return {&solver,
            {{params.gravitationalConstant, params.softeningLength},
             float(params.openingAngle),
             params.openingCriterion,
             float(params.forceAccuracy)}};
}

} // namespace gravlab
