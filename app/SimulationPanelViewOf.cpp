// The simulation panel's view of a session (SimulationPanelViewOf.hpp).
#include "SimulationPanelViewOf.hpp"

#include <gravlab/sim/InteractiveSize.hpp>

namespace gravlab {
namespace {

/// From the last step() call's phases, which cover the frame's steps (fewer when a snapshot save split them).
std::uint64_t interactiveBodiesOf(const SessionStatus& status, int stepsPerFrame) {
    return interactiveBodiesFromLiveStep(findSolver(status.params.solver), status.bodyCount,
                                         1e-3 * totalMilliseconds(status.lastStepTimings), stepsPerFrame);
}

} // namespace

SimulationPanelView simulationPanelViewOf(const SessionStatus& status, const SessionController& session,
                                          const FramePipeline& pipeline, std::string_view renderer,
                                          const RecordingView& recording) {
    std::optional<EnergyReading> energy;
    if (const EnergyHistory& history = session.energyHistory(); !history.empty())
        energy = EnergyReading{history.latest().relativeDrift, history.latest().simulationTime,
                               session.secondsSinceLastMeasurement().value_or(0.0), history.latest().computeSeconds};
    return {.params = status.params,
            .time = status.time,
            .stepCount = status.stepCount,
            .timeDirection = status.timeDirection,
            .bodyCount = status.bodyCount,
            .paused = session.paused(),
            .stepsPerFrame = session.stepsPerFrame(),
            .device = status.device,
            .backendDescription = status.backendDescription,
            .rendererDescription = renderer,
            .vertexPath = pipeline.vertexPath(),
            .lastStepTimings = status.lastStepTimings,
            .interactiveBodies = interactiveBodiesOf(status, session.stepsPerFrame()),
            .timeSteps = &status.timeSteps,
            .energy = energy,
            .autoRefreshEnergy = session.autoRefreshEnergy(),
            .lastError = session.lastError(),
            .recording = recording};
}

} // namespace gravlab
