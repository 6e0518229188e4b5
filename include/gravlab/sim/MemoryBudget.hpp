#pragma once
// Memory a run will need, checked against what is available before anything is allocated.
//
// Design note: an impossible body count used to be found out the slow way (2^28 bodies on the CPU generated and
// copied 16.8 GB over 81 s before failing; under a tighter limit Mesa crashed in the particle draw). Instead every
// place that creates bodies for a run (Simulation's constructor, Simulation::setParams when the estimate grows) asks
// requireMemoryFor first, which refuses at once with a sentence naming N, the bytes needed and the bytes available.
// The estimate is affine in N and counts each space separately, from the owners' own per-body figures:
//   host, CPU backend   CpuBackend::hostBytesPerBody: state, accelerations, work weights, octree or ORB buffers kept
//                       between steps, plus the largest transient (a step's rollback copy and its solver's scratch);
//   host, CUDA backend  nothing kept; a load holds the generated bodies and their float4 upload staging at once;
//   device              the CUDA core's bytes per body (CudaBackend::kDeviceBytesPerBody, ORB's when on) plus the
//                       fixed scratch reserve DeviceInfo adds (deviceFootprintFor);
//   companions          what the caller keeps next to the bodies (the render side's vertex buffers, its overlays),
//                       given as CompanionMemory so that sim never learns GL's layouts.
// A change to a running simulation may count on what its current bodies release: their resident bytes (not their
// transients, which are free between steps), so lowering N is never refused.
// Available bytes come from a MemorySource (SystemMemory.hpp reads the machine; tests inject fixed numbers), so the
// arithmetic and the refusal are tested deterministically.
#include <gravlab/sim/SimParams.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace gravlab {

/// Memory the caller holds next to the simulation's bodies for as long as they exist.
struct CompanionMemory {
    std::uint64_t hostBytesPerBody = 0; ///< always on the host (a staging array)
    /// Where the bodies live: on the device when they are there (the vertex buffer CUDA-GL interop writes), else on
    /// the host (the same buffer under a software GL), so a backend switch moves it.
    std::uint64_t besideBodiesBytesPerBody = 0;
    std::uint64_t hostBytes = 0; ///< independent of N (overlay buffers)
};

/// What the CUDA core holds on its device: bytes per body, and a fixed reserve for scratch and the runtime.
struct DeviceFootprint {
    std::uint64_t bytesPerBody = 0;
    std::uint64_t reserveBytes = 0;
};

/// Bytes of a run, in each space: the peak, and what stays allocated between steps (released with the bodies).
struct MemoryEstimate {
    std::uint64_t hostBytes = 0;
    std::uint64_t hostResidentBytes = 0;
    std::uint64_t deviceBytes = 0; ///< 0 when the run stays on the CPU
    std::uint64_t deviceResidentBytes = 0;
};

/// The estimate for params (body count, solver, ORB) on the CUDA core when device is set, else on the CPU backend,
/// with companion's bytes added. Saturates instead of overflowing.
MemoryEstimate estimateMemory(const SimParams& params, const std::optional<DeviceFootprint>& device,
                              const CompanionMemory& companion = {});

/// The CUDA core's footprint for params when createBackend(params) would choose it; nullopt when the run stays on
/// the CPU (always, in a build without CUDA).
std::optional<DeviceFootprint> deviceFootprintFor(const SimParams& params);

/// Bytes a run can still allocate; an unknown amount is not checked.
struct MemoryAvailable {
    std::optional<std::uint64_t> hostBytes;
    std::string hostLimit; ///< which bound set hostBytes, e.g. "MemAvailable in /proc/meminfo"
    std::optional<std::uint64_t> deviceBytes;
    std::string deviceName; ///< e.g. "NVIDIA H100 80GB HBM3"
};

/// Where the available bytes come from: the machine (systemMemory() in SystemMemory.hpp) or a test's numbers.
class MemorySource {
public:
    virtual ~MemorySource() = default;
    /// What is available now; the device is asked only when includeDevice is set.
    virtual MemoryAvailable available(bool includeDevice) const = 0;
};

/// A run that does not fit; what() names N, the bytes needed and available, and the largest N that fits.
class InsufficientMemoryError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Throws InsufficientMemoryError when the run of params (see estimateMemory) needs more host or device memory than
/// source reports available plus released (the resident bytes of bodies the run replaces).
void requireMemoryFor(const SimParams& params, const std::optional<DeviceFootprint>& device,
                      const CompanionMemory& companion, const MemorySource& source,
                      const MemoryEstimate& released = {});

/// "1.23 GB", "512.00 MB": decimal units, as nvidia-smi's neighbours in a message would read.
std::string formatBytes(double bytes);

} // namespace gravlab
