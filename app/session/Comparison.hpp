#pragma once
// A second run of the main run's current state with another solver or opening angle, stepped in lockstep, and how
// far the two drift apart.
//
// Design note: the comparison run is a second Simulation started from the main run's snapshot(), with the main run's
// parameters except the solver, the opening angle and, where asked, the ORB domain count (ComparisonChoice). Its
// constructor is the memory check: it counts what is already allocated for the main run (the machine reports that
// memory as taken) and the caller's companion bytes for the second picture, and refuses with InsufficientMemoryError
// before any body is copied. It is GL-free (gravlab_session), so the window, the headless loop and the tests share it.
//   Lockstep: follow(main) steps the comparison run until it has taken as many steps since the start as the main run
// (the main session decides how many per frame, stops for snapshots and pauses; the comparison takes the same steps
// with the same dt, so both states are at the same time whenever they are sampled). A time reversal of the main run
// is mirrored before the steps that follow it. A main run that went back (reset, an earlier step count) or whose
// parameters changed (new bodies, G, softening, dt, ...) makes the two incomparable: the comparison restarts from the
// main run's state as it is then, and says so in restarts(). With substeps K the comparison runs with dt / K and
// takes K steps per main step, so the samples still compare states at the same time (up to the rounding of K
// additions of dt / K against one of dt).
//   Sampling: every sampleEveryFrames follow() calls that stepped, a DivergenceSample is taken: both states read
// (readBodies), matched by id (ByIdPairing), the rms and largest position difference in fp64, and the rms over the
// half-mass radius of the state the comparison started from. Each run's relative energy error against its own E0
// (Simulation::diagnostics(), O(N^2)) is taken at a sample only when due (energyIntervalSeconds of wall-clock time
// since the last measurement) and cheap (the last pair took under maxEnergySeconds or, before the first, N <=
// kEagerEnergyBaselineMaxBodies, Simulation's own rule); otherwise the sample's energy errors are NaN.
//   A comparison step that leaves a non-finite state stops the comparison (failure() says why); the main run goes on.
#include "DivergenceHistory.hpp"
#include "PositionDivergence.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace gravlab {

/// What the comparison run does differently from the main run.
struct ComparisonChoice {
    std::string solver = std::string(kDefaultSolver); ///< a registered solver's name
    double openingAngle = SimParams{}.openingAngle;   ///< theta, in kOpeningAngleRange (read by tree solvers only)
    /// ORB domains of the comparison run; none: the main run's. Its body order then differs from the main run's.
    std::optional<std::uint32_t> orbDomainCount;
    /// Comparison steps per main step, in kComparisonSubstepsRange: the comparison runs with dt / substeps, so both
    /// runs still reach the same times (a time-step convergence study: K = 2 halves dt).
    int substeps = 1;
};

/// Allowed comparison substeps (--compare-substeps); each one costs a full force evaluation.
inline constexpr ParamRange kComparisonSubstepsRange{"compare-substeps", 1.0, 64.0, true,
                                                     "comparison steps per main step (dt / K)"};

/// The main run's parameters with choice applied: what the comparison run runs.
SimParams comparisonParams(const SimParams& main, const ComparisonChoice& choice);

/// How often the comparison measures.
struct ComparisonCadence {
    int sampleEveryFrames = 1;           ///< follow() calls that stepped between samples, at least 1
    double energyIntervalSeconds = 1.0;  ///< wall-clock seconds between energy measurements; 0: at every sample
    double maxEnergySeconds = 0.2;       ///< automatic energy measurements stop when a pair took longer than this
    std::size_t historyCapacity = 4096;  ///< samples kept, at least 1
    std::function<double()> wallSeconds; ///< the clock; empty: steadyClockSeconds
};

class Comparison {
public:
    /// Starts the comparison run from main's current state (see the design note); throws InvalidParameterError
    /// (field "compare", naming the choice's own field) for a bad choice (unknown solver, theta out of range, a solver
    /// that does not run on main's device) and
    /// InsufficientMemoryError when a second run does not fit. memory must outlive the comparison.
    Comparison(const Simulation& main, ComparisonChoice choice, ComparisonCadence cadence,
               const CompanionMemory& companion = {}, const MemorySource& memory = systemMemory());
    Comparison(const Comparison&) = delete;
    Comparison& operator=(const Comparison&) = delete;

    /// Brings the comparison run to main's step count (restarting first when main went back or changed) and samples
    /// when due. Returns whether the comparison run stepped or restarted (its picture is then stale).
    bool follow(const Simulation& main);
    /// Starts again from main's current state: a new comparison run, an empty history and a first sample. The new run
    /// is made before the old one is released, so a refusal (InsufficientMemoryError) leaves the comparison as it was.
    void restart(const Simulation& main);
    /// Measures both energies at the next sample, however long that takes.
    void measureEnergyAtNextSample() { m_energyRequested = true; }

    const ComparisonChoice& choice() const { return m_choice; }
    const Simulation& run() const { return *m_run; }
    Simulation& run() { return *m_run; }
    const DivergenceHistory& history() const { return m_history; }
    /// Half-mass radius of the main run's state when the comparison started; normalises rmsOverHalfMassRadius.
    double halfMassRadius() const { return m_halfMassRadius; }
    /// How often the comparison restarted by itself because the main run went back or changed.
    int restarts() const { return m_restarts; }
    /// Why the comparison stopped stepping (a non-finite state); empty while it runs.
    const std::string& failure() const { return m_failure; }

private:
    void start(const Simulation& main);
    bool mainWentBackOrChanged(const Simulation& main) const;
    void takeSample(const Simulation& mainRun);
    bool energyDue() const;

    /// Steps the comparison run to where the main run stood at its step mainStep (each main step is `substeps` of
    /// the comparison's); false, with the failure recorded, when that step fails.
    bool catchUpTo(std::uint64_t mainStep);

    ComparisonChoice m_choice;
    ComparisonCadence m_cadence;
    CompanionMemory m_companion;
    const MemorySource* m_memory;
    std::unique_ptr<Simulation> m_run;
    SimParams m_mainParamsAtStart;
    std::uint64_t m_mainStepsAtStart = 0;
    std::uint64_t m_mainStepsSeen = 0;
    int m_mainDirectionSeen = 1; ///< main's timeDirection() when the comparison last followed it
    double m_halfMassRadius = 0;
    DivergenceHistory m_history;
    ByIdPairing m_pairing;
    int m_framesSinceSample = 0;
    std::optional<double> m_lastEnergyAt;   ///< wallSeconds() at the last energy measurement
    std::optional<double> m_lastEnergyCost; ///< seconds the last pair of measurements took
    bool m_energyRequested = false;
    int m_restarts = 0;
    std::string m_failure;
};

} // namespace gravlab
