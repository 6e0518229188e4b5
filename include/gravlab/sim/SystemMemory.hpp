#pragma once
// How much memory this process can still allocate, on the host and on the CUDA device (the MemorySource of
// MemoryBudget.hpp that reads the machine).
//
// Design note: the host's answer is the tightest of the bounds that would stop an allocation:
//   MemAvailable in /proc/meminfo   the kernel's estimate of what can be allocated without swapping, page cache that
//                                   can be dropped included;
//   cgroup memory limits            for the process's group and each ancestor (what /proc/self/cgroup names): v2's
//                                   memory.max - memory.current under /sys/fs/cgroup, v1's memory.limit_in_bytes -
//                                   memory.usage_in_bytes under /sys/fs/cgroup/memory, each plus the group's
//                                   inactive file cache (memory.stat), which the kernel reclaims before failing;
//                                   "max" and v1's near-2^63 sentinel mean no limit;
//   the address-space limit         RLIMIT_AS (ulimit -v) less the VmSize already mapped.
// The device's answer is DeviceInfo's free memory of the current device. Files are read through a TextFileReader so
// the tests feed the parsers fixed texts; a file that cannot be read is a bound that does not apply.
#include <gravlab/sim/MemoryBudget.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gravlab {

/// A whole file's text; nullopt when it cannot be read.
using TextFileReader = std::function<std::optional<std::string>(const std::string& path)>;

/// One bound on host allocations: the bytes left under it and what it is, for a message.
struct HostLimit {
    std::uint64_t bytes = 0;
    std::string source; ///< e.g. "MemAvailable in /proc/meminfo"
};

/// Bytes of a "Key:   123 kB" line of /proc/meminfo or /proc/self/status (key without the colon); nullopt if absent.
std::optional<std::uint64_t> parseKilobyteField(std::string_view text, std::string_view key);

/// The tightest bound of the design note, reading files through read; addressSpaceLimit is RLIMIT_AS in bytes (nullopt
/// when unlimited). nullopt when no bound could be read.
std::optional<HostLimit> hostMemoryAvailable(const TextFileReader& read,
                                             std::optional<std::uint64_t> addressSpaceLimit);

/// This machine, read afresh on every call.
class SystemMemory final : public MemorySource {
public:
    MemoryAvailable available(bool includeDevice) const override;
};

/// The SystemMemory every Simulation uses unless told otherwise.
const MemorySource& systemMemory();

} // namespace gravlab
