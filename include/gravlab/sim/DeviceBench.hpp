#pragma once
// Timing the CUDA core for `gravlab bench`: solver steps through the CUDA backend, and the GPU ORB build.
//
// Design note: the measurements run here, next to the CUDA code, and come back as plain numbers (milliseconds per
// step and phase, bytes, cell counts), so the command line that formats them never sees a CUDA header. Steps: the
// scenario's bodies are loaded into a CudaBackend, the warm-up steps run as one step() call (the first also pays the
// initial force evaluation, the module load and the tree's first allocations), then each timed step is one step()
// call whose phases the backend measures with CUDA events. Peak device memory is the drop in the device's free memory
// from before the backend exists to after the last step (the backend frees nothing between steps, so this is its
// peak). ORB builds: OrbGpu's own CUDA events around its kernels; each build starts from the same unpartitioned bodies,
// copied on the device outside the timed region; the device's copy bandwidth (1 GiB cudaMemcpy device to device,
// counted as read + write) is measured in the same run, as the yardstick for the build's effective bandwidth. Body
// counts the GPU cannot hold are refused before anything is generated or allocated. Defined only in builds with the
// CUDA core (GRAVLAB_HAS_CUDA); callers ask cudaDeviceAvailable() (DeviceInfo.hpp) first.
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/SimulationBackend.hpp>
#include <gravlab/sim/StepBench.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gravlab {

/// Loads params' scenario (scenario, bodyCount, seed) into a CudaBackend, runs warmupStepCount steps, then times
/// stepCount single steps with params. Throws std::runtime_error naming the memory when the device cannot hold the
/// bodies.
StepTimes timeDeviceSteps(const SimParams& params, int warmupStepCount, int stepCount);

/// What an ORB build benchmark builds.
struct DeviceOrbBench {
    std::uint64_t bodyCount = 0; ///< up to 2^32 - 1 with positionsOnly, else up to kMaxBodyCount
    std::uint32_t domainCount = 64;
    bool bisection = false; ///< the baseline bisection cut finder instead of radix select
    OrbBalance balance = OrbBalance::Count;
    /// Build over three float arrays of uniform random positions generated on the device (count balance only), for
    /// body counts whose full state would not fit. Otherwise the scenario's bodies, weighted (acceleration.w) by
    /// integers 1 + floor(1000 x an exponential random number) as a stand-in for per-body interaction counts.
    bool positionsOnly = false;
    std::string scenario = "plummer";
    std::uint64_t seed = 42;
    int warmupBuildCount = 3;
    int buildCount = 20; ///< timed builds
};

/// ORB builds on the device.
struct DeviceOrbBuildTimes {
    std::string gpu;                       ///< the device's name
    std::vector<double> buildMilliseconds; ///< each timed build
    double bytesPerBody = 0;               ///< OrbGpu::modelledBytesPerBody for the levels that split cells
    double copyBandwidth = 0;              ///< bytes/s of a device-to-device cudaMemcpy, read + write
    std::size_t splitLevels = 0;           ///< levels that split cells
    OrbImbalance imbalance;                ///< of the last build's domains (positions only: every body weighs 1)
};

/// Times bench.buildCount ORB builds after bench.warmupBuildCount untimed ones. Throws std::runtime_error naming the
/// memory when the device cannot hold the bodies.
DeviceOrbBuildTimes timeDeviceOrbBuilds(const DeviceOrbBench& bench);

} // namespace gravlab
