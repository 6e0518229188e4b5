// The cached forces' settings (SolverForceSettings.hpp).
#include "solvers/SolverForceSettings.hpp"

namespace gravlab {

bool SolverForceSettings::sameForces(const SolverForceSettings& other) const {
    return solver == other.solver &&
           forces.gravity.gravitationalConstant == other.forces.gravity.gravitationalConstant &&
           forces.gravity.softeningLength == other.forces.gravity.softeningLength &&
           (!solver->usesOpeningAngle || (forces.openingAngle == other.forces.openingAngle &&
                                          forces.openingCriterion == other.forces.openingCriterion &&
                                          forces.forceAccuracy == other.forces.forceAccuracy));
}

SolverForceSettings SolverForceSettings::of(const SimParams& params, std::string_view backend, Device device) {
    const SolverInfo& solver = findSolver(params.solver);
    requireSolverRunsOn(solver, device, backend);
    return {&solver,
            {params.gravity(), float(params.openingAngle), params.openingCriterion, float(params.forceAccuracy)}};
}

} // namespace gravlab
