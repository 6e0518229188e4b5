#pragma once
// `gravlab timesteps-bench`: energy error against cost for fixed and hierarchical time steps, as a table or JSON.
//
// Design note: each scenario is a case with its own physics (softening, duration) and two families of runs over the
// same bodies: fixed steps at a range of dt, and hierarchical steps at one base dt over a range of eta
// (--fixed-steps and --hierarchical-runs base-dt:eta pairs replace them, to sweep the base step as well). A run records
// the largest |E - E0| / |E0| over evenly spaced samples (the backend's fp64 energy, so the error measured is the
// integrator's and the solver's, not the diagnostic's), the force evaluations the backend counted
// (TimeStepStatistics) and the wall time of its step() calls. Plotting error against evaluations for both families
// gives the curves of docs/PERFORMANCE.md: at equal cost, the lower curve wins. The cases are kept in the command
// (kepler-binary at e = 0.9, cold-sphere with a small softening, galaxy-collision), since the interesting dt and eta
// ranges differ by orders of magnitude between them; --duration-scale shortens every run for quick checks.
#include "CliDeclarations.hpp"

#include <gravlab/sim/SimParams.hpp>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace gravlab {

inline constexpr ParamRange kDurationScaleRange{"duration-scale", 0.0, 100.0, false,
                                                "factor on every case's simulated duration"};
inline constexpr ParamRange kBenchSofteningRange{"softening", 0.0, 1.0, true,
                                                 "softening of every case, 0 for each case's own"};
inline constexpr ParamRange kEnergySampleRange{"energy-samples", 1.0, 100000.0, true, "energy measurements per run"};

/// A hierarchical run: its base step (the longest step any body takes) and eta.
struct HierarchicalRun {
    double baseStep;
    double accuracy;
};

struct TimeStepBenchOptions {
    std::vector<std::string> scenarios{"kepler-binary", "cold-sphere", "galaxy-collision"};
    std::uint64_t bodyCount = 4096; ///< every case but the binary (which has 2 bodies); kBodyCountRange
    std::string solver = "direct";
    BackendKind backend = BackendKind::Auto;
    std::uint64_t seed = 42;
    double softeningLength = 0;       ///< kBenchSofteningRange; 0: each case's own
    double durationScale = 1.0;       ///< kDurationScaleRange
    std::uint32_t energySamples = 32; ///< kEnergySampleRange
    bool json = false;
    std::vector<double> fixedSteps;                ///< replace every case's fixed dts when not empty
    std::vector<HierarchicalRun> hierarchicalRuns; ///< replace every case's hierarchical runs when not empty
    /// Each hierarchical run is measured once per choice (the fixed runs once), so one call compares them.
    std::vector<LevelChoice> levelChoices{LevelChoice::Start};
};

/// Adds the "timesteps-bench" subcommand; values are checked while CLI11 parses. Returns the subcommand.
CLI::App* addTimeStepBenchCommand(CLI::App& app, TimeStepBenchOptions& options);

/// Runs every case and prints a table (rows as they finish) or one JSON object; returns 0, or 1 with a message on err.
int runTimeStepBench(const TimeStepBenchOptions& options, std::ostream& out, std::ostream& err);

} // namespace gravlab
