#pragma once
// One simulation session, shared by the window and the headless modes: parameter edits, run / pause / step / reset,
// energy measurements, and what each of them leaves stale in the drawn frame.
//
// Design note: the window (ViewerApp) and the headless loop (HeadlessRun) drive this one controller and keep only
// input and ImGui, or frame files. It is GL-free: it is built into gravlab_session, which links gravlab_sim alone, so
// a GL, GLFW or ImGui include here does not compile; the tests drive it on the CPU backend.
//   A frame: advanceFrame() steps stepsPerFrame times unless paused, stopping wherever a snapshot is due
// (SnapshotSaver) to write it, so a failed write pauses at that step; after a step the vertices are stale and both
// overlays are invalidated (the step rebuilt the octree and may have re-partitioned the ORB domains). A step that
// leaves a non-finite state has been rolled back by Simulation; the session pauses, keeps a message for the panel and
// returns the backend's report, so the headless loop can stop. Then the energy is measured if due, and stale vertices
// are pushed into the FrameSink. The caller then updates the overlays and draws (FramePipeline). The frame is two
// halves, stepSimulation() (the simulation and the saver alone) and completeFrame() (everything else), so the window
// can run the first on a worker thread (BackgroundStepper) while the headless loop calls advanceFrame(), both halves
// in turn on one thread, and stays deterministic.
//   Edits: applyParams() clamps the ORB domain count to N (validation refuses more domains than bodies; lowering N
// should not be refused), hands the edit to Simulation::setParams and follows the ParamsChange it returns, deciding
// nothing itself: a new backend gets the colour mode again, the device is probed only when the backend choice may have
// changed, overlays and vertices are refreshed as the report says, new bodies are pushed into the sink at once (their
// buffer grows and may not fit the GPU: the edit is then undone and the reason kept), and new bodies or a new energy
// function restart the energy history. So a theta edit touches nothing drawn and asks nothing of the device.
//   ORB default: asking to see domains (colour mode orb-domain, showing the cells) while ORB is off switches it on with
// defaultOrbDomainCount(N) domains, through applyParams like any edit.
//   Energy: measurements (O(N^2)) go into a fixed-capacity EnergyHistory. The diagnostics that recorded E0 are taken
// from Simulation (energyBaseline()), not computed again, so a reset or new bodies cost one O(N^2) evaluation. While
// running and auto refresh is on, one is taken every kEnergyRefreshSeconds of wall-clock time when it is cheap: the
// last measurement took less than kMaxAutomaticMeasureSeconds, or, with no measurement yet at this body count and
// backend, N <= kEagerEnergyBaselineMaxBodies (Simulation's own rule for an eager E0). On request one is always taken.
// The last cost survives a reset and a new G or softening (same N, same backend) and is dropped with new bodies or a
// new backend.
//   Plots: a DiagnosticsSampler keeps the plots' time series (tree or direct-sum energies, momenta, virial ratio,
// Lagrangian radii, step phases); it restarts with the energy history (and with a new backend) and samples after
// running frames, never while paused.
//   The world beyond the simulation comes in through SessionEnvironment (the device probe, the wall clock), so tests
// count probes and steer time.
#include "DiagnosticsSampler.hpp"
#include "EnergyHistory.hpp"
#include "FrameSink.hpp"
#include "SnapshotSaver.hpp"

#include <gravlab/sim/ColorScale.hpp>
#include <gravlab/sim/Simulation.hpp>
#include <gravlab/sim/TreeView.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace gravlab {

struct SessionSettings {
    int stepsPerFrame = 1; ///< simulation steps per advanceFrame() while running
    ColorMode colorMode = ColorMode::Component;
    ColorScaleChoice colorScale = ColorScaleChoice::Auto; ///< log, linear or auto for per-body quantities
    /// Measure energy every kEnergyRefreshSeconds while running, when a measurement is quick: on in the window, off
    /// headless, where nothing shows it.
    bool autoRefreshEnergy = true;
    std::size_t energyHistoryCapacity = 4096; ///< measurements kept for plots, at least 1
    SnapshotSaving saving;                    ///< snapshots while running (none by default)
    PlotSampling plots;                       ///< the plots' diagnostics time series (DiagnosticsSampler.hpp)
};

/// Wall-clock seconds from a fixed origin (std::chrono::steady_clock).
double steadyClockSeconds();

/// What the session asks of the world beyond the simulation.
struct SessionEnvironment {
    /// Whether the CUDA backend runs these parameters; asks the CUDA runtime, so it is called only at start and when
    /// Simulation reports that the backend choice may have changed.
    std::function<bool(const SimParams&)> probeCudaBackend = cudaBackendWouldBeChosen;
    /// Wall-clock seconds: paces automatic energy measurements and times them.
    std::function<double()> wallSeconds = steadyClockSeconds;
};

/// An energy measurement taken next to the steps (stepSimulation), to be recorded by the main thread.
struct MeasuredEnergy {
    Diagnostics diagnostics;
    double computeSeconds = 0;
};

/// What one advanceFrame() (or stepSimulation()) did.
struct FrameAdvance {
    bool stepped = false;
    /// The backend's report when a step left a non-finite state: the state was rolled back and the session paused.
    std::optional<std::string> nonFiniteState;
    /// The backend's report when a force evaluation with softening 0 met two bodies at one position: the state was
    /// rolled back and the session paused.
    std::optional<std::string> coincidentBodies;
    /// A step was undone (either report above): nothing measured after it describes the state.
    bool rolledBack() const { return nonFiniteState || coincidentBodies; }
    /// Why a due snapshot could not be written (the session paused); the headless loop stops on it.
    std::optional<std::string> saveFailure;
    /// The snapshot written this frame, if one was due.
    std::optional<std::filesystem::path> savedSnapshot;
    /// The energy measured after the steps, when stepSimulation was asked to.
    std::optional<MeasuredEnergy> energy;
    /// The plots' sample measured after the steps, when one was due (recorded by completeFrame on the main thread).
    std::optional<DiagnosticsMeasurement> plotSample;
};

class SessionController {
public:
    /// Energy is measured this often while running, when auto refresh is on and measuring is cheap.
    static constexpr double kEnergyRefreshSeconds = 2.0;
    /// Automatic measurements stop when one takes longer than this (O(N^2) on the CPU would stall the window).
    static constexpr double kMaxAutomaticMeasureSeconds = 0.2;

    /// Hands the colour mode to the backend, probes the device, pushes the vertices into sink and starts the energy
    /// history. simulation and sink must outlive the controller.
    SessionController(Simulation& simulation, FrameSink& sink, const SessionSettings& settings,
                      SessionEnvironment environment = {});
    SessionController(const SessionController&) = delete;
    SessionController& operator=(const SessionController&) = delete;

    /// One frame's work before drawing (see the design note): stepSimulation() then completeFrame(), and the energy
    /// when due.
    FrameAdvance advanceFrame();
    /// The part of a frame that touches the simulation and the snapshot saver alone (no sink, no other controller
    /// state): saves a due snapshot, steps stepCount times (splitting at due snapshots), and measures the energy after
    /// them when asked. Failures are reported in the result, not applied. A worker thread runs it while the main
    /// thread reads nothing of the simulation (BackgroundStepper); nothing else may run on the controller meanwhile.
    FrameAdvance stepSimulation(int stepCount, bool measureEnergy = false);
    /// The main thread's part once stepSimulation() has returned: a failure pauses with its message, steps mark the
    /// drawn things stale, a measured energy is recorded, and stale vertices are pushed into the sink.
    void completeFrame(const FrameAdvance& advance);
    /// Pushes the vertices into the sink now if an edit made them stale (completeFrame() does it once per frame): a
    /// pick between an edit that reordered the bodies (ORB) and the next frame must read the new order.
    void pushVerticesIfStale();
    /// Pauses and keeps message for the panel (a step that failed on a worker for a reason of its own).
    void pauseWithError(const std::string& message);
    /// Whether an automatic energy measurement is due now (auto refresh on, running, time elapsed, cheap).
    bool energyDue() const;

    void togglePause() { m_paused = !m_paused; }
    void setPaused(bool paused) { m_paused = paused; }
    /// Pauses and steps once.
    void stepOnce();
    /// The scenario's initial conditions again; time and step count return to zero.
    void reset();
    /// Reverses every velocity, so the run retraces its steps and the clock runs backwards (Simulation::reverseTime).
    /// Positions do not move and speeds keep their size, so nothing drawn goes stale.
    void reverseTime() { m_simulation.reverseTime(); }

    /// Applies an edit (not yet validated); an invalid or impossible one leaves everything as it was and its reason
    /// in lastError(). Returns what changed, including an undo's implications when the edit had to be undone.
    ParamsChange applyParams(const SimParams& requested);
    /// What colours the bodies; orb-domain switches ORB on when it is off.
    void setColorMode(ColorMode mode);
    /// Linear, log or auto colour scale of the per-body quantities.
    void setColorScale(ColorScaleChoice choice);
    /// The user wants to see the ORB domains (their cells): switches ORB on when it is off.
    void showOrbDomains();

    /// Measures the energy now, however long it takes.
    void measureEnergyNow();
    void setAutoRefreshEnergy(bool on) { m_autoRefreshEnergy = on; }
    /// Steps per advanceFrame() while running, in kStepsPerFrameRange (a loaded session's).
    void setStepsPerFrame(int stepsPerFrame) { m_stepsPerFrame = stepsPerFrame; }

    const Simulation& simulation() const { return m_simulation; }
    bool paused() const { return m_paused; }
    int stepsPerFrame() const { return m_stepsPerFrame; }
    ColorMode colorMode() const { return m_colorMode; }
    ColorScaleChoice colorScale() const { return m_colorScale; }
    /// Whether the CUDA backend runs (the pair-once solver is offered only then); probed, not asked every frame.
    bool onCudaBackend() const { return m_onCudaBackend; }
    bool autoRefreshEnergy() const { return m_autoRefreshEnergy; }
    /// Why the last action failed; empty when it succeeded.
    const std::string& lastError() const { return m_lastError; }
    /// Snapshots written so far while running (--save-every).
    const SnapshotSaver& snapshotSaver() const { return m_saver; }
    /// The plots' series since their last restart, oldest first.
    const DiagnosticsHistory& plotHistory() const { return m_plots.history(); }
    const PlotSampling& plotSampling() const { return m_plots.sampling(); }
    /// Empties the plots' series and starts it again from the current state.
    void restartPlots() { m_plots.restart(m_simulation, m_onCudaBackend); }
    /// Whether the plots sample while running.
    void setPlotSampling(bool on) { m_plots.setEnabled(on); }
    /// Adds a plot sample of the current state now.
    void samplePlotsNow() { m_plots.sampleNow(m_simulation, m_onCudaBackend); }
    /// Measurements since E0 was last taken, oldest first.
    const EnergyHistory& energyHistory() const { return m_energy; }
    /// Wall-clock seconds since the newest measurement; empty while there is none.
    std::optional<double> secondsSinceLastMeasurement() const;

private:
    void afterStep();
    /// Writes the snapshot due at the current step, if any; a failure is put into advance.
    void saveSnapshotIfDue(FrameAdvance& advance);
    /// Applies what the steps did to the controller: pause and message on failure, stale drawn things, the energy.
    void followSteps(const FrameAdvance& advance);
    /// Follows an accepted edit's report; pushNewBodies: push re-initialised bodies' vertices now (may throw).
    void follow(const ParamsChange& change, bool pushNewBodies);
    /// Empties the history for a new E0 and records the first sample (Simulation's own, when it has one).
    void restartEnergyHistory();
    void record(const Diagnostics& diagnostics, double computeSeconds);
    bool energyIsCheap() const;
    void refreshEnergyIfDue();

    Simulation& m_simulation;
    FrameSink& m_sink;
    SessionEnvironment m_environment;
    int m_stepsPerFrame;
    ColorMode m_colorMode;
    ColorScaleChoice m_colorScale;
    bool m_paused = false;
    bool m_verticesStale = true;
    bool m_onCudaBackend = false;
    bool m_autoRefreshEnergy;
    SnapshotSaver m_saver;
    std::string m_lastError;
    EnergyHistory m_energy;
    DiagnosticsSampler m_plots;
    std::optional<double> m_lastMeasuredAt;  ///< wallSeconds() when the newest sample was taken
    std::optional<double> m_lastMeasureCost; ///< seconds the last measurement took, at this N on this backend
};

} // namespace gravlab
