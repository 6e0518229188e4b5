// Copying the panels' view of the simulation (see the header).
#include "SessionStatus.hpp"

#include <gravlab/sim/Simulation.hpp>

namespace gravlab {

SessionStatus captureStatus(const Simulation& simulation) {
    return {.params = simulation.params(),
            .time = simulation.time(),
            .stepCount = simulation.stepCount(),
            .timeDirection = simulation.timeDirection(),
            .bodyCount = simulation.bodyCount(),
            .lastStepTimings = simulation.backend().lastStepTimings(),
            .timeSteps = simulation.backend().timeStepStatistics(),
            .backendDescription = simulation.backend().description(),
            .device = simulation.backend().device(),
            .orb = simulation.visuals().orbStatus()};
}

} // namespace gravlab
