// The parameters the OpenGL compute backend takes (see GlBackendParams.hpp).
#include <gravlab/sim/GlBackendParams.hpp>
#include <gravlab/sim/SolverRegistry.hpp>

namespace gravlab {

std::optional<InvalidParameterError> glBackendRefusal(const SimParams& params) {
    const SolverInfo& solver = findSolver(params.solver);
    if (!solver.runsOn(Device::Gl)) {
        try {
            requireSolverRunsOn(solver, Device::Gl, "backend 'gl'");
        } catch (const InvalidParameterError& error) {
            return error;
        }
    }
    if (params.softeningLength <= 0.0)
        return InvalidParameterError("softening", "softening = 0 is not taken by backend 'gl' (its shader cannot "
                                                  "report two bodies at one point): give --softening > 0, or run the "
                                                  "exact Newtonian sum with --backend cpu or cuda");
    if (params.precision != Precision::Single)
        return InvalidParameterError("precision", "precision = 'double' is not taken by backend 'gl' (its state is "
                                                  "float): choose --precision single, or --backend cpu or cuda");
    if (params.timeSteps.mode != TimeStepMode::Fixed)
        return InvalidParameterError("time-steps", "time-steps = 'hierarchical' is not taken by backend 'gl': choose "
                                                   "--time-steps fixed, or --backend cpu or cuda");
    if (params.orb.domainCount > 0)
        return InvalidParameterError("orb-domains", "orb-domains = " + std::to_string(params.orb.domainCount) +
                                                        " is not taken by backend 'gl' (no ORB domains there): "
                                                        "choose --orb-domains 0, or --backend cpu or cuda");
    return std::nullopt;
}

void requireGlBackendTakes(const SimParams& params) {
    if (std::optional<InvalidParameterError> refusal = glBackendRefusal(params))
        throw *refusal;
}

} // namespace gravlab
