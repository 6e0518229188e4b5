// Host and device memory available to this process (see SystemMemory.hpp).
#include <gravlab/sim/SystemMemory.hpp>

#if defined(GRAVLAB_HAS_CUDA)
#include <gravlab/sim/DeviceInfo.hpp>
#endif

#include <charconv>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <vector>

namespace gravlab {
namespace {

/// cgroup limits at or above this are v1's way of saying "no limit" (it prints 9223372036854771712).
constexpr std::uint64_t kNoCgroupLimit = std::uint64_t{1} << 62;

std::string_view trimmed(std::string_view text) {
    const std::size_t first = text.find_first_not_of(" \t\n");
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
}

std::optional<std::uint64_t> parseUnsigned(std::string_view text) {
    text = trimmed(text);
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

/// Calls visit(line) for every line of text.
template <typename Visit> void forEachLine(std::string_view text, Visit&& visit) {
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        visit(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    }
}

/// The value of a "key value" line of a cgroup memory.stat.
std::optional<std::uint64_t> statField(std::string_view stat, std::string_view key) {
    std::optional<std::uint64_t> value;
    forEachLine(stat, [&](std::string_view line) {
        if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ' ')
            value = parseUnsigned(line.substr(key.size() + 1));
    });
    return value;
}

/// One cgroup hierarchy's memory files: where its groups live and what they are called.
struct CgroupLayout {
    std::string root;            ///< "/sys/fs/cgroup"
    std::string limitFile;       ///< "memory.max"
    std::string usageFile;       ///< "memory.current"
    std::string inactiveFileKey; ///< the memory.stat line of reclaimable file cache
};

const CgroupLayout kCgroupV2{"/sys/fs/cgroup", "memory.max", "memory.current", "inactive_file"};
const CgroupLayout kCgroupV1{"/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes",
                             "total_inactive_file"};

/// The bytes left under the limit of the group in directory, if it has one.
std::optional<HostLimit> cgroupLimit(const TextFileReader& read, const CgroupLayout& layout,
                                     const std::string& directory) {
    const std::optional<std::string> limitText = read(directory + "/" + layout.limitFile);
    const std::optional<std::string> usageText = read(directory + "/" + layout.usageFile);
    if (!limitText || !usageText)
        return std::nullopt;
    const std::optional<std::uint64_t> limit = parseUnsigned(*limitText); // "max" does not parse: no limit
    const std::optional<std::uint64_t> usage = parseUnsigned(*usageText);
    if (!limit || !usage || *limit >= kNoCgroupLimit)
        return std::nullopt;
    const std::optional<std::string> stat = read(directory + "/memory.stat");
    const std::uint64_t reclaimable = stat ? statField(*stat, layout.inactiveFileKey).value_or(0) : 0;
    const std::uint64_t used = *usage - std::min(*usage, reclaimable);
    return HostLimit{*limit > used ? *limit - used : 0,
                     "the cgroup limit " + directory + "/" + layout.limitFile + " less its usage"};
}

/// Limits of the group at path (as /proc/self/cgroup names it) and of each of its ancestors.
void addCgroupLimits(const TextFileReader& read, const CgroupLayout& layout, std::string path,
                     std::vector<HostLimit>& limits) {
    while (true) {
        if (path == "/")
            path.clear();
        if (const std::optional<HostLimit> limit = cgroupLimit(read, layout, layout.root + path))
            limits.push_back(*limit);
        if (path.empty())
            return;
        path.erase(path.rfind('/'));
    }
}

/// Whether a comma-separated controller list of /proc/self/cgroup ("cpu,memory") names the memory controller.
bool listsMemoryController(std::string_view controllers) {
    while (true) {
        const std::size_t comma = controllers.find(',');
        if (controllers.substr(0, comma) == "memory")
            return true;
        if (comma == std::string_view::npos)
            return false;
        controllers.remove_prefix(comma + 1);
    }
}

/// The groups of /proc/self/cgroup: "0::/path" is the v2 group, "N:a,memory,b:/path" the v1 memory group.
void addAllCgroupLimits(const TextFileReader& read, std::vector<HostLimit>& limits) {
    const std::optional<std::string> groups = read("/proc/self/cgroup");
    if (!groups)
        return;
    forEachLine(*groups, [&](std::string_view line) {
        const std::size_t first = line.find(':');
        const std::size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
        if (second == std::string_view::npos)
            return;
        const std::string_view hierarchy = line.substr(0, first);
        const std::string_view controllers = line.substr(first + 1, second - first - 1);
        const std::string path(trimmed(line.substr(second + 1)));
        if (path.empty() || path.front() != '/')
            return;
        if (hierarchy == "0" && controllers.empty())
            addCgroupLimits(read, kCgroupV2, path, limits);
        else if (listsMemoryController(controllers))
            addCgroupLimits(read, kCgroupV1, path, limits);
    });
}

std::optional<std::string> readTextFile(const std::string& path) {
    std::ifstream file(path);
    if (!file)
        return std::nullopt;
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad())
        return std::nullopt;
    return text.str();
}

std::optional<std::uint64_t> addressSpaceLimit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
        return std::nullopt;
    return std::uint64_t(limit.rlim_cur);
}

} // namespace

std::optional<std::uint64_t> parseKilobyteField(std::string_view text, std::string_view key) {
    std::optional<std::uint64_t> bytes;
    forEachLine(text, [&](std::string_view line) {
        if (line.size() <= key.size() || line.substr(0, key.size()) != key || line[key.size()] != ':')
            return;
        std::string_view value = trimmed(line.substr(key.size() + 1));
        if (value.size() < 3 || value.substr(value.size() - 3) != " kB")
            return;
        if (const std::optional<std::uint64_t> kilobytes = parseUnsigned(value.substr(0, value.size() - 3)))
            bytes = *kilobytes * 1024;
    });
    return bytes;
}

std::optional<HostLimit> hostMemoryAvailable(const TextFileReader& read,
                                             std::optional<std::uint64_t> addressSpaceLimit) {
    std::vector<HostLimit> limits;
    if (const std::optional<std::string> meminfo = read("/proc/meminfo"))
        if (const std::optional<std::uint64_t> bytes = parseKilobyteField(*meminfo, "MemAvailable"))
            limits.push_back({*bytes, "MemAvailable in /proc/meminfo"});
    addAllCgroupLimits(read, limits);
    if (addressSpaceLimit) {
        const std::optional<std::string> status = read("/proc/self/status");
        const std::uint64_t mapped = status ? parseKilobyteField(*status, "VmSize").value_or(0) : 0;
        limits.push_back(
            {*addressSpaceLimit > mapped ? *addressSpaceLimit - mapped : 0,
             "ulimit -v's address-space limit less the " + formatBytes(double(mapped)) + " already mapped"});
    }
    std::optional<HostLimit> tightest;
    for (const HostLimit& limit : limits)
        if (!tightest || limit.bytes < tightest->bytes)
            tightest = limit;
    return tightest;
}

MemoryAvailable SystemMemory::available(bool includeDevice) const {
    MemoryAvailable available;
    if (const std::optional<HostLimit> host = hostMemoryAvailable(readTextFile, addressSpaceLimit())) {
        available.hostBytes = host->bytes;
        available.hostLimit = host->source;
    }
#if defined(GRAVLAB_HAS_CUDA)
    if (includeDevice) {
        const DeviceSummary device = queryCurrentDevice();
        available.deviceBytes = device.freeMemoryBytes;
        available.deviceName = device.name;
    }
#else
    (void)includeDevice;
#endif
    return available;
}

const MemorySource& systemMemory() {
    static const SystemMemory memory;
    return memory;
}

} // namespace gravlab
