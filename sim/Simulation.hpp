#pragma once
// The simulation as the app sees it: parameters, a backend, time and energy bookkeeping.
//
// Design note: Simulation is the only object the app mutates. setParams() validates first and re-initialises the
// scenario only when a parameter that defines the initial conditions (scenario, body count, seed) changed; dt,
// softening and G apply from the next step. The initial energy is recorded at reset so the panel can show the
// relative energy drift |E - E0| / |E0| whenever diagnostics are requested.
#include "Diagnostics.hpp"
#include "SimParams.hpp"
#include "SimulationBackend.hpp"

#include <memory>

namespace gravlab {

class Simulation {
public:
    /// Validates params, creates the backend (params.backend) and loads the scenario.
    explicit Simulation(const SimParams& params);

    const SimParams& params() const { return m_params; }
    /// Validates, then applies; re-initialises when scenario, bodyCount or seed changed.
    void setParams(const SimParams& params);
    /// Regenerates the scenario's initial conditions; time and step count return to zero.
    void reset();
    void step(int stepCount = 1);

    double time() const { return m_time; }
    std::uint64_t stepCount() const { return m_stepCount; }
    std::size_t bodyCount() const { return m_bodyCount; }
    /// Computes diagnostics now (O(N^2) on the CPU backend: call it on demand, not every frame).
    Diagnostics diagnostics() const;
    /// Relative energy drift |E - E0| / |E0| of the given diagnostics against the reset state.
    double relativeEnergyDrift(const Diagnostics& now) const;
    double initialEnergy() const { return m_initialEnergy; }

    SimulationBackend& backend() { return *m_backend; }
    const SimulationBackend& backend() const { return *m_backend; }

private:
    SimParams m_params;
    std::unique_ptr<SimulationBackend> m_backend;
    std::size_t m_bodyCount = 0;
    double m_time = 0;
    std::uint64_t m_stepCount = 0;
    double m_initialEnergy = 0;
};

/// The backend params.backend asks for: CPU, or CUDA when built with it and a device is present.
/// Throws std::runtime_error when CUDA is demanded but unavailable, naming why.
std::unique_ptr<SimulationBackend> createBackend(const SimParams& params);

} // namespace gravlab
