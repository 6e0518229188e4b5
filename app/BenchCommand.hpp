#pragma once
// `gravlab bench`: a force solver's speed on this machine's GPU, as text or JSON.
//
// Design note: bench loads a scenario into the backend --backend chooses (the CUDA one when a GPU is present, else the
// CPU one, saying so),  runs warm-up steps (the first also pays the initial force
// evaluation, the module load and the tree's first allocations), then times each of --steps single steps with CUDA
// events (the backend's phases) and reports the median step and the median of every phase. For the direct solvers,
// interactions per second count N^2 per step for both, so the pair-once solver (which evaluates N(N-1)/2 pairs) is
// compared on the same footing, and GFLOP/s uses the customary 20 flops per interaction. On the CPU they also report
// the measured float FMA peak (CpuFmaPeak.hpp) with its SIMD target and thread count, and the rate as a fraction of
// the peak's interaction equivalent (peak flops / 20). For the tree, whose work per step is not N^2, it reports
// body-steps per second and the phases box, build, summary, sort, force, integrate.
// Peak device memory is the drop in the device's free memory from before the backend exists to after the last step
// (the backend frees nothing between steps, so this is its peak), also per body. The result names the GPU and the
// date. A body count the GPU cannot hold is refused before anything is generated or allocated.
// With --orb it times the GPU ORB build instead (OrbGpu's own CUDA events around its kernels, median after warm-up;
// each build starts from the same unpartitioned bodies, copied on the device outside the timed region). It reports
// bodies/s, an effective bandwidth (OrbGpu::modelledBytesPerBody x N / time) next to the device's measured copy
// bandwidth (a 1 GiB cudaMemcpy device to device in the same run, counted as read + write), and the memory and work
// imbalance of the domains. Weights (acceleration.w) are integers drawn as 1 + floor(1000 x an exponential random
// number), a stand-in for the per-body interaction counts that the solvers report and bench does not compute (whole
// numbers, which the work-balanced radix passes sum in 32 bits); --orb-balance work balances them, count reports how
// unevenly count balance spreads them. --positions-only builds over three float arrays of uniform random positions
// generated on the device (count balance), for body counts up to 2^32 - 1 whose full state would not fit.
// With --io it times snapshot files instead: each format written and read back (SnapshotBench.hpp). With --frames N
// it times N frames of the window's frame path offscreen, part by part (FrameBench.hpp).
#include "CliDeclarations.hpp"

#include <gravlab/sim/SimParams.hpp>

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>

namespace gravlab {

inline constexpr ParamRange kBenchStepRange{"steps", 1.0, 1e4, true, "timed steps"};
inline constexpr ParamRange kBenchWarmupRange{"warmup", 1.0, 1e3, true, "warm-up steps before timing"};
inline constexpr ParamRange kBenchDomainRange{"domains", 1.0, double(1 << 20), true, "ORB domains"};
/// --bodies is parsed in this range; above kBenchStateBodyRange only with --orb --positions-only.
inline constexpr ParamRange kBenchBodyRange{"bodies", 1.0, 4294967295.0, true, "number of bodies"};
/// --bodies when the full body state is generated (every run but --orb --positions-only).
inline constexpr ParamRange kBenchStateBodyRange{"bodies", 1.0, double(kMaxBodyCount), true,
                                                 "number of bodies; up to 4294967295 with --orb --positions-only"};
inline constexpr int kFlopsPerInteraction = 20;

/// bench --frames --display-hz: the pacing of a display's refresh (0: none).
inline constexpr ParamRange kDisplayHzRange{"display-hz", 0.0, 1000.0, true, "display refresh rate in Hz"};

struct BenchOptions {
    std::string solver = std::string(kDefaultSolver);
    BackendKind backend = BackendKind::Auto; ///< where solver steps run (the ORB build runs on the GPU)
    Precision precision = Precision::Single; ///< solver steps only: the state's precision (Precision.hpp)
    std::uint64_t bodyCount = 262144;
    int stepCount = 20;        ///< timed steps; kBenchStepRange
    int warmupStepCount = 3;   ///< kBenchWarmupRange
    double openingAngle = 0.5; ///< tree only; kOpeningAngleRange
    OpeningCriterion openingCriterion = SimParams{}.openingCriterion; ///< tree only
    double forceAccuracy = SimParams{}.forceAccuracy;                ///< tree, relative criterion; kForceAccuracyRange
    std::string scenario = "plummer";
    std::uint64_t seed = 42;
    bool json = false;              ///< one JSON object instead of the human-readable lines
    bool orb = false;               ///< time the ORB build (cuts and in-place partition) instead of a solver step
    std::uint32_t domainCount = 64; ///< ORB only; kBenchDomainRange
    bool orbBisection = false;      ///< ORB only: the baseline bisection cut finder instead of radix select
    OrbBalance orbBalance = OrbBalance::Count; ///< ORB only
    bool orbPositionsOnly = false;             ///< ORB only: positions-only build over uniform random positions
    /// Solver steps only: ORB domains kept during the timed steps (0: none), re-partitioned every stepOrbEvery steps
    /// and migrating in between, so the step's "orb" phase shows what keeping domains costs.
    std::uint32_t stepOrbDomains = 0;
    std::uint32_t stepOrbEvery = OrbParams{}.rebuildInterval;
    /// Interactive frames (FrameBench.hpp): this many timed frames of the window's frame path, offscreen; 0: off.
    int frameCount = 0;
    int frameWidth = 1920;   ///< --frames only: pixels
    int frameHeight = 1080;  ///< --frames only: pixels
    int stepsPerFrame = 1;   ///< --frames only
    bool background = false; ///< --frames only: steps on the worker thread, as the window runs them
    /// --frames only: at most this many frames per second, as a display's refresh paces a window (0: as fast as the
    /// GPU draws, which hands a background step less of the GPU than a window would).
    double displayHz = 0;
    /// Time snapshot writes and reads per format instead of a solver step (SnapshotBench.hpp).
    bool io = false;
    std::filesystem::path ioFolder; ///< --io only: where the files go; empty: a temporary folder
};

/// Adds the "bench" subcommand; values are converted and range-checked while CLI11 parses, and a bad one becomes a
/// CLI::ValidationError naming the flag, the value and what is allowed. Returns the subcommand (check it with
/// `*subcommand` after parsing).
/// The simulation a step or frame bench runs: the options' scenario, N, seed, solver, backend, theta and ORB settings.
SimParams benchSimParams(const BenchOptions& options);

CLI::App* addBenchCommand(CLI::App& app, BenchOptions& options);

/// Runs the benchmark and prints the result to out; returns 0, or 1 with a message on err when the CUDA core is not
/// built, no device is present, or the device cannot hold the bodies.
int runBench(const BenchOptions& options, std::ostream& out, std::ostream& err);

} // namespace gravlab
