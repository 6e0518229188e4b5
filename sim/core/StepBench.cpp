#include <gravlab/sim/Communicator.hpp>
#include <gravlab/sim/Scenarios.hpp>
#include <gravlab/sim/Simulation.hpp>
#include <gravlab/sim/StepBench.hpp>

#if defined(GRAVLAB_HAS_CUDA)
#include <gravlab/sim/DeviceBench.hpp>
#endif

namespace gravlab {

StepTimes timeSteps(const SimParams& params, int warmupStepCount, int stepCount) {
    validateSimParams(params);
#if defined(GRAVLAB_HAS_CUDA)
    // The device run makes its own single-GPU backend: it measures free memory from before one exists. Across ranks
    // the backend is the distributed one createBackend makes.
    if (worldCommunicator().size() == 1 && cudaBackendWouldBeChosen(params)) {
        StepTimes times = timeDeviceSteps(params, warmupStepCount, stepCount);
        times.device = Device::Cuda;
        return times;
    }
#endif
    return timeSteps(params, createBackend, warmupStepCount, stepCount);
}

StepTimes timeSteps(const SimParams& params, const BackendFactory& makeBackend, int warmupStepCount, int stepCount) {
    validateSimParams(params);
    const std::unique_ptr<SimulationBackend> backend = makeBackend(params);
    StepTimes times;
    times.device = backend->device();
    backend->load(generateScenario(params.scenario, params.bodyCount, params.seed, params.scenarioParams));
    backend->step(params, warmupStepCount);
    for (int step = 0; step < stepCount; ++step) {
        backend->step(params, 1);
        times.steps.push_back(backend->lastStepTimings());
    }
    times.machine = backend->description();
    times.statistics = backend->solverStatistics();
    times.orb = backend->visuals().orbStatus();
    return times;
}

} // namespace gravlab
