#pragma once
// Timing solver steps for `gravlab bench` on whichever backend params.backend chooses: the CUDA backend (CUDA events,
// DeviceBench.hpp) or the CPU backend (wall clock), so a machine without a GPU measures too.
//
// Design note: the scenario's bodies are loaded, the warm-up steps run as one step() call (the first also pays the
// initial force evaluation and first allocations), then each timed step is one step() call whose phases the backend
// reports (SolverInfo's phases, "integrate", "orb"). Device memory is measured only on the GPU (DeviceBench.hpp).
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/Simulation.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gravlab {

struct StepTimes {
    Device device = Device::Cpu;                 ///< where the steps ran
    std::string machine;                         ///< the backend's description
    std::vector<std::vector<PhaseTiming>> steps; ///< each timed step's phases, in the order the backend names them
    std::uint64_t peakDeviceBytes = 0;           ///< GPU only: the drop in free device memory over the run
    std::vector<SolverStatistic> statistics;     ///< the solver's figures after the last step
    OrbStatus orb;                               ///< ORB domains after the last step (with params.orb.domainCount)
};

/// Validates params, chooses the backend as a run would (createBackend: params.solver must run there) and times
/// warmupStepCount steps then stepCount single steps.
StepTimes timeSteps(const SimParams& params, int warmupStepCount, int stepCount);
/// As above on the backend makeBackend makes (the app's GL backend, whose context sim cannot create).
StepTimes timeSteps(const SimParams& params, const BackendFactory& makeBackend, int warmupStepCount, int stepCount);

} // namespace gravlab
