#pragma once
// What the panels show of the simulation, copied while no step is running.
//
// Design note: with stepping on a worker thread (BackgroundStepper) the main thread may not read the simulation while
// a step is in flight: time, step count and timings change under it, and a CUDA backend's queries would race the
// step's stream. So the panels draw from this small value, captured each time the worker is idle; between captures
// they show the state the bodies on screen came from. It holds copies, not references, and costs a few strings.
#include <gravlab/sim/Orb.hpp>
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gravlab {

class Simulation;

struct SessionStatus {
    SimParams params;
    double time = 0; ///< N-body time units
    std::uint64_t stepCount = 0;
    int timeDirection = 1; ///< +1 forward, -1 after a time reversal
    std::size_t bodyCount = 0;
    std::vector<PhaseTiming> lastStepTimings; ///< of the last step() call, milliseconds per phase
    TimeStepStatistics timeSteps;             ///< levels and force evaluations of the last step() call
    std::string backendDescription;
    Device device = Device::Cpu; ///< where the backend steps
    OrbStatus orb;               ///< the current ORB domains (domainCount 0 when ORB is off)
};

/// The status of simulation now; call it only while no step runs on it.
SessionStatus captureStatus(const Simulation& simulation);

} // namespace gravlab
