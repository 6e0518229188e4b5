#pragma once
// The simulation panel: scenario, body count, dt, softening, G, backend, solver and theta, run controls (the movie
// recording among them) and live numbers (per-phase step timings among them).
//
// Design note: the panel displays a read-only view and returns what the user asked for; it never touches the
// simulation itself. Edits are accumulated with `changed |= ...` and come back as one SimParams that the viewer
// passes to Simulation::setParams, where validation happens. Fields that re-initialise the scenario (body count,
// seed) are committed only when their input loses focus or Enter is pressed, not on every keystroke.
#include "RecordingControls.hpp"
#include "ScenarioGallery.hpp"

#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SimulationBackend.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace gravlab {

/// The last energy measurement; diagnostics are O(N^2) on the CPU, so they are taken on request, not every frame.
struct EnergyReading {
    double relativeDrift = 0;  ///< |E - E0| / |E0|; NaN when this reading recorded the baseline E0 itself
    double simulationTime = 0; ///< N-body time at which it was computed
    double secondsAgo = 0;     ///< wall-clock seconds since it was computed
    double computeSeconds = 0; ///< how long computing it took
};

struct SimulationPanelView {
    const SimParams& params;
    double time = 0;
    std::uint64_t stepCount = 0;
    int timeDirection = 1; ///< +1 forward, -1 after a time reversal (Simulation::timeDirection)
    std::size_t bodyCount = 0;
    bool paused = false;
    int stepsPerFrame = 1;
    Device device = Device::Cpu; ///< where the steps run: the solver combo offers the solvers implemented there
    std::string_view backendDescription;
    std::string_view rendererDescription;
    /// How positions reach the vertex buffer: "CUDA-GL interop" or "host copy" with the reason.
    std::string_view vertexPath;
    std::span<const PhaseTiming> lastStepTimings;
    /// Bodies the live step time says this machine keeps at 30 frames/s with the current solver (InteractiveSize.hpp);
    /// 0 while nothing was timed.
    std::uint64_t interactiveBodies = 0;
    const TimeStepStatistics* timeSteps = nullptr; ///< levels of the last steps; null: not shown
    std::optional<EnergyReading> energy;
    bool autoRefreshEnergy = true;
    std::string_view lastError; ///< empty when the last action succeeded
    RecordingView recording;    ///< the window's movie recording
};

struct SimulationPanelRequests {
    std::optional<SimParams> params; ///< edited parameters, not yet validated
    bool togglePause = false;
    bool stepOnce = false;
    bool reset = false;
    bool reverseTime = false;
    bool fitCamera = false;
    bool toggleRecording = false;
    bool refreshEnergy = false;
    std::optional<bool> autoRefreshEnergy;
    std::optional<int> stepsPerFrame; ///< from the scenario's suggested settings
};

class SimulationPanel {
public:
    SimulationPanelRequests draw(const SimulationPanelView& view);

private:
    bool drawScenarioAndBodies(const SimulationPanelView& view, SimParams& edited);
    /// The gallery of the chosen scenario (none for a loaded file); folds its requests into edited and requests.
    bool drawGallery(const SimulationPanelView& view, SimParams& edited, SimulationPanelRequests& requests);
    bool drawPhysics(const SimulationPanelView& view, SimParams& edited);
    void drawRunControls(const SimulationPanelView& view, SimulationPanelRequests& requests);
    void drawNumbers(const SimulationPanelView& view, SimulationPanelRequests& requests);

    /// Drafts of the fields that commit on focus loss; they follow the simulation while not being edited.
    std::uint64_t m_bodyCountDraft = 0;
    std::uint64_t m_seedDraft = 0;
    ScenarioGallery m_gallery;
};

} // namespace gravlab
