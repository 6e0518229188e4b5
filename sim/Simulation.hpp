#pragma once
// The simulation as the app sees it: parameters, a backend, time and energy bookkeeping.
//
// Design note: Simulation is the only object the app mutates. setParams() validates first and re-initialises the
// scenario only when a parameter that defines the initial conditions (scenario, body count, seed) changed; dt,
// softening and G apply from the next step; changing the backend moves the current state to the new backend.
// Energy baseline: E0 is recorded at reset, so the panel can show the relative energy drift |E - E0| / |E0| whenever
// diagnostics are requested. Diagnostics are O(N^2), so for N > kEagerEnergyBaselineMaxBodies reset does not compute
// them; E0 is then taken from the first diagnostics() call instead. Changing G or the softening changes the energy
// function itself, so it also drops E0 and the next diagnostics() call records the new baseline.
// ORB domains (params.orb) are brought up to date whenever bodies are loaded and after every setParams(), through the
// backend's updateOrbDomains(), so a paused view and a first frame show them without a step.
#include "Diagnostics.hpp"
#include "SimParams.hpp"
#include "SimulationBackend.hpp"

#include <cstdint>
#include <memory>
#include <optional>

namespace gravlab {

/// Largest body count for which reset() computes the energy baseline (O(N^2) fp64 pairs: 1.7 s on two CPU cores
/// at this N, about one CPU step; milliseconds on a GPU).
inline constexpr std::size_t kEagerEnergyBaselineMaxBodies = 65536;

class Simulation {
public:
    /// Validates params, creates the backend (params.backend) and loads the scenario.
    explicit Simulation(const SimParams& params);

    const SimParams& params() const { return m_params; }
    /// Validates, then applies; re-initialises when scenario, bodyCount or seed changed.
    void setParams(const SimParams& params);
    /// Regenerates the scenario's initial conditions; time and step count return to zero.
    void reset();
    /// Advances stepCount steps; on NonFiniteStateError (naming the step counted since reset) nothing has changed.
    void step(int stepCount = 1);

    double time() const { return m_time; }
    std::uint64_t stepCount() const { return m_stepCount; }
    std::size_t bodyCount() const { return m_bodyCount; }
    /// Computes diagnostics now (O(N^2) on the CPU backend: call it on demand, not every frame). Records the energy
    /// baseline E0 when there is none yet (see the design note).
    Diagnostics diagnostics() const;
    /// Relative energy drift |E - E0| / |E0| of the given diagnostics against the baseline; NaN while there is none.
    double relativeEnergyDrift(const Diagnostics& now) const;
    /// E0, or NaN while no baseline has been recorded.
    double initialEnergy() const;

    SimulationBackend& backend() { return *m_backend; }
    const SimulationBackend& backend() const { return *m_backend; }
    /// What is drawn of the current state: the backend's visual source. A new backend (setParams() switching backends)
    /// brings a new one, in the default colour mode.
    VisualSource& visuals() { return m_backend->visuals(); }
    const VisualSource& visuals() const { return m_backend->visuals(); }

private:
    /// Time, step count and energy baseline for a state just loaded from the scenario.
    void restartClockAndEnergy();

    SimParams m_params;
    std::unique_ptr<SimulationBackend> m_backend;
    std::size_t m_bodyCount = 0;
    double m_time = 0;
    std::uint64_t m_stepCount = 0;
    std::uint64_t m_stepCountAtLoad = 0; ///< m_stepCount when the backend last received bodies
    mutable std::optional<double> m_energyBaseline;
};

/// Body count and solver the app uses on a GPU when the user names none: the Barnes-Hut tree steps 2^20 bodies in
/// about 8 milliseconds on an H100 (docs/PERFORMANCE.md).
inline constexpr std::uint64_t kDefaultCudaBodyCount = std::uint64_t{1} << 20;
inline constexpr SolverKind kDefaultCudaSolver = SolverKind::Tree;

/// Whether createBackend(params) would choose the CUDA backend: a CUDA build, a device present, backend not cpu.
bool cudaBackendWouldBeChosen(const SimParams& params);

/// The backend params.backend asks for: CPU, or CUDA when built with it and a device is present.
/// Throws std::runtime_error when CUDA is demanded but unavailable, naming why.
std::unique_ptr<SimulationBackend> createBackend(const SimParams& params);

} // namespace gravlab
