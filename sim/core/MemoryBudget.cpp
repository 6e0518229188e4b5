// The memory estimate of a run and the check against what is available (see MemoryBudget.hpp).
#include "core/CpuBackend.hpp"

#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/MemoryBudget.hpp>
#include <gravlab/sim/Simulation.hpp>

#if defined(GRAVLAB_HAS_CUDA)
#include "device/cuda/CudaBackendFactory.hpp"
#endif

#include <cstdio>
#include <limits>
#include <vector>

namespace gravlab {
namespace {

constexpr std::uint64_t kMaxBytes = std::numeric_limits<std::uint64_t>::max();

std::uint64_t saturatingMultiply(std::uint64_t a, std::uint64_t b) {
    return b != 0 && a > kMaxBytes / b ? kMaxBytes : a * b;
}

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b) {
    return a > kMaxBytes - b ? kMaxBytes : a + b;
}

bool fits(const MemoryEstimate& needed, const MemoryAvailable& available, bool host) {
    const std::optional<std::uint64_t>& bytes = host ? available.hostBytes : available.deviceBytes;
    return !bytes || (host ? needed.hostBytes : needed.deviceBytes) <= *bytes;
}

/// The largest body count whose run fits in available (in the host or the device space), by bisection: the
/// estimate grows with N.
std::uint64_t bodiesThatFit(SimParams params, const std::optional<DeviceFootprint>& device,
                            const CompanionMemory& companion, const MemoryAvailable& available, bool host) {
    std::uint64_t low = 0, high = params.bodyCount; // fits(low), !fits(high)
    while (high - low > 1) {
        params.bodyCount = low + (high - low) / 2;
        (fits(estimateMemory(params, device, companion), available, host) ? low : high) = params.bodyCount;
    }
    return low;
}

std::string refusal(const SimParams& params, const std::optional<DeviceFootprint>& device,
                    const CompanionMemory& companion, const MemoryAvailable& available, std::uint64_t released,
                    bool host) {
    const MemoryEstimate needed = estimateMemory(params, device, companion);
    std::string message = std::to_string(params.bodyCount) + " bodies need " +
                          formatBytes(double(host ? needed.hostBytes : needed.deviceBytes)) +
                          (host ? " of host memory, " : " of GPU memory, ") +
                          formatBytes(double(host ? *available.hostBytes : *available.deviceBytes)) + " available";
    std::vector<std::string> notes;
    const std::string& source = host ? available.hostLimit : available.deviceName;
    if (!source.empty())
        notes.push_back(host ? source : "on " + source);
    if (released > 0)
        notes.push_back("including " + formatBytes(double(released)) + " the current bodies release");
    for (std::size_t i = 0; i < notes.size(); ++i)
        message += (i == 0 ? " (" : ", ") + notes[i] + (i + 1 == notes.size() ? ")" : "");
    const std::uint64_t fit = bodiesThatFit(params, device, companion, available, host);
    const std::string run = params.solver + " solver " + (device ? "on the GPU" : "on the CPU");
    if (fit == 0)
        return message + ": not even one body fits with the " + run + "; free some memory first";
    return message + ": at most " + std::to_string(fit) + " bodies fit with the " + run;
}

} // namespace

MemoryEstimate estimateMemory(const SimParams& params, const std::optional<DeviceFootprint>& device,
                              const CompanionMemory& companion) {
    const std::uint64_t n = params.bodyCount;
    MemoryEstimate estimate;
    std::uint64_t hostResidentPerBody = companion.hostBytesPerBody;
    std::uint64_t hostTransientPerBody = 0;
    // Bodies from a file stay on the host as a copy for reset().
    if (!params.initialFile.empty())
        hostResidentPerBody += Bodies::kBytesPerBody;
    if (device) {
        // The ids and components stay on the host (DeviceBodies' identity tables). A load holds the generated bodies
        // and uploadBodies' staging arrays (two float4 and the uint32 load order) at once.
        hostResidentPerBody += sizeof(std::uint64_t) + sizeof(std::uint8_t);
        hostTransientPerBody = Bodies::kBytesPerBody + 2 * 4 * sizeof(float) + sizeof(std::uint32_t);
        // Double precision: the low parts and their two float4 staging arrays as well.
        if (params.precision == Precision::Double)
            hostTransientPerBody += Bodies::kLowPartBytesPerBody + 2 * 4 * sizeof(float);
        const std::uint64_t perBody = device->bytesPerBody + companion.besideBodiesBytesPerBody;
        estimate.deviceResidentBytes = saturatingAdd(saturatingMultiply(n, perBody), device->reserveBytes);
        estimate.deviceBytes = estimate.deviceResidentBytes;
    } else {
        const CpuBackend::HostBytesPerBody cpu = CpuBackend::hostBytesPerBody(params);
        hostResidentPerBody += cpu.resident + companion.besideBodiesBytesPerBody;
        hostTransientPerBody = cpu.transient;
    }
    estimate.hostResidentBytes = saturatingAdd(saturatingMultiply(n, hostResidentPerBody), companion.hostBytes);
    estimate.hostBytes = saturatingAdd(estimate.hostResidentBytes, saturatingMultiply(n, hostTransientPerBody));
    return estimate;
}

std::optional<DeviceFootprint> deviceFootprintFor(const SimParams& params) {
#if defined(GRAVLAB_HAS_CUDA)
    if (cudaBackendWouldBeChosen(params))
        return DeviceFootprint{cudaDeviceBytesPerBody(params), deviceBytesNeeded(0, 0)};
#else
    (void)params;
#endif
    return std::nullopt;
}

void requireMemoryFor(const SimParams& params, const std::optional<DeviceFootprint>& device,
                      const CompanionMemory& companion, const MemorySource& source, const MemoryEstimate& released) {
    const MemoryEstimate needed = estimateMemory(params, device, companion);
    MemoryAvailable available = source.available(device.has_value());
    if (available.hostBytes)
        available.hostBytes = saturatingAdd(*available.hostBytes, released.hostResidentBytes);
    if (available.deviceBytes)
        available.deviceBytes = saturatingAdd(*available.deviceBytes, released.deviceResidentBytes);
    if (!fits(needed, available, true))
        throw InsufficientMemoryError(refusal(params, device, companion, available, released.hostResidentBytes, true));
    if (device && !fits(needed, available, false))
        throw InsufficientMemoryError(
            refusal(params, device, companion, available, released.deviceResidentBytes, false));
}

std::string formatBytes(double bytes) {
    const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
    int unit = 0;
    while (bytes >= 1000.0 && unit < 6) {
        bytes /= 1000.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.2f %s", bytes, units[unit]);
    return text;
}

} // namespace gravlab
