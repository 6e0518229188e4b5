// Host memory available: the tightest of MemAvailable, the cgroup v2 and v1 limits of the process's group and its
// ancestors (less usage, plus reclaimable file cache) and the address-space limit, read from fixed file texts with
// random amounts; "max", v1's no-limit sentinel and unreadable files are bounds that do not apply.
#include "SimTestSupport.hpp"

#include <gravlab/sim/SystemMemory.hpp>

#include <gtest/gtest.h>
#include <map>
#include <random>

namespace gravlab {
namespace {

/// A reader over a table of file texts; any other path cannot be read.
TextFileReader filesFrom(const std::map<std::string, std::string>& files) {
    return [files](const std::string& path) -> std::optional<std::string> {
        const auto found = files.find(path);
        if (found == files.end())
            return std::nullopt;
        return found->second;
    };
}

std::string meminfo(std::uint64_t availableKilobytes) {
    return "MemTotal:       32000000 kB\nMemFree:         1000000 kB\nMemAvailable:   " +
           std::to_string(availableKilobytes) + " kB\nBuffers:          10000 kB\n";
}

TEST(SystemMemory, KilobyteFieldsAreReadByTheirExactKey) {
    EXPECT_EQ(parseKilobyteField(meminfo(24112804), "MemAvailable"), 24112804ull * 1024);
    EXPECT_EQ(parseKilobyteField("VmPeak:\t  2048 kB\nVmSize:\t  1024 kB\n", "VmSize"), 1024ull * 1024);
    EXPECT_FALSE(parseKilobyteField(meminfo(5), "Mem"));
    EXPECT_FALSE(parseKilobyteField("MemAvailableSoon: 5 kB\n", "MemAvailable"));
    EXPECT_FALSE(parseKilobyteField("MemAvailable: lots\n", "MemAvailable"));
    EXPECT_FALSE(parseKilobyteField("", "MemAvailable"));
}

TEST(SystemMemory, WithoutLimitsMemAvailableIsTheAnswer) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    const std::uint64_t kilobytes = std::mt19937_64(seed)() % (1ull << 40);
    // This machine's layout: cgroup v1 with the no-limit sentinel, and a v2 group without a memory controller.
    const std::map<std::string, std::string> files{
        {"/proc/meminfo", meminfo(kilobytes)},
        {"/proc/self/cgroup", "9:name=systemd:/\n4:memory:/jobs/42\n0::/\n"},
        {"/sys/fs/cgroup/memory/jobs/42/memory.limit_in_bytes", "9223372036854771712\n"},
        {"/sys/fs/cgroup/memory/jobs/42/memory.usage_in_bytes", "384741376\n"},
        {"/sys/fs/cgroup/memory.max", "max\n"},
        {"/sys/fs/cgroup/memory.current", "1000\n"}};
    const std::optional<HostLimit> host = hostMemoryAvailable(filesFrom(files), std::nullopt);
    ASSERT_TRUE(host);
    EXPECT_EQ(host->bytes, kilobytes * 1024);
    EXPECT_EQ(host->source, "MemAvailable in /proc/meminfo");
}

TEST(SystemMemory, ACgroupV2AncestorsLimitLessItsUsageBindsWithItsCacheReclaimable) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::uint64_t limit = std::uniform_int_distribution<std::uint64_t>(1ull << 30, 1ull << 36)(random);
    const std::uint64_t usage = std::uniform_int_distribution<std::uint64_t>(0, limit)(random);
    const std::uint64_t cache = std::uniform_int_distribution<std::uint64_t>(0, usage)(random);
    const std::map<std::string, std::string> files{
        {"/proc/meminfo", meminfo(1ull << 40)},
        {"/proc/self/cgroup", "0::/app.slice/run.scope\n"},
        {"/sys/fs/cgroup/app.slice/run.scope/memory.max", "max\n"},
        {"/sys/fs/cgroup/app.slice/run.scope/memory.current", "4096\n"},
        {"/sys/fs/cgroup/app.slice/memory.max", std::to_string(limit) + "\n"},
        {"/sys/fs/cgroup/app.slice/memory.current", std::to_string(usage) + "\n"},
        {"/sys/fs/cgroup/app.slice/memory.stat",
         "anon 1\nfile 2\nactive_file 3\ninactive_file " + std::to_string(cache) + "\nslab 4\n"}};
    const std::optional<HostLimit> host = hostMemoryAvailable(filesFrom(files), std::nullopt);
    ASSERT_TRUE(host);
    EXPECT_EQ(host->bytes, limit - (usage - cache));
    EXPECT_NE(host->source.find("/sys/fs/cgroup/app.slice/memory.max"), std::string::npos) << host->source;
}

TEST(SystemMemory, ACgroupV1LimitBindsAndUsageAboveItLeavesNothing) {
    const std::map<std::string, std::string> files{
        {"/proc/meminfo", meminfo(1ull << 30)},
        {"/proc/self/cgroup", "5:cpu,memory:/batch\n"},
        {"/sys/fs/cgroup/memory/batch/memory.limit_in_bytes", "1000000\n"},
        {"/sys/fs/cgroup/memory/batch/memory.usage_in_bytes", "1500000\n"},
        {"/sys/fs/cgroup/memory/batch/memory.stat", "cache 9\ntotal_inactive_file 100000\n"}};
    const std::optional<HostLimit> host = hostMemoryAvailable(filesFrom(files), std::nullopt);
    ASSERT_TRUE(host);
    EXPECT_EQ(host->bytes, 0u);
    EXPECT_NE(host->source.find("/sys/fs/cgroup/memory/batch/memory.limit_in_bytes"), std::string::npos);
}

TEST(SystemMemory, TheAddressSpaceLimitCountsWhatIsAlreadyMapped) {
    const std::uint64_t seed = simtest::freshSeed();
    SCOPED_TRACE(simtest::seedTrace(seed));
    std::mt19937_64 random(seed);
    const std::uint64_t limit = std::uniform_int_distribution<std::uint64_t>(1ull << 30, 1ull << 34)(random);
    const std::uint64_t mappedKilobytes = std::uniform_int_distribution<std::uint64_t>(1, limit / 2048)(random);
    const std::map<std::string, std::string> files{
        {"/proc/meminfo", meminfo(1ull << 40)},
        {"/proc/self/status",
         "Name:\tgravlab\nVmPeak:\t 9 kB\nVmSize:\t " + std::to_string(mappedKilobytes) + " kB\n"}};
    const std::optional<HostLimit> host = hostMemoryAvailable(filesFrom(files), limit);
    ASSERT_TRUE(host);
    EXPECT_EQ(host->bytes, limit - mappedKilobytes * 1024);
    EXPECT_NE(host->source.find("ulimit -v"), std::string::npos) << host->source;
    EXPECT_EQ(hostMemoryAvailable(filesFrom(files), std::nullopt)->bytes, (1ull << 40) * 1024);
}

TEST(SystemMemory, NothingReadableIsUnknownAndThisMachineAnswers) {
    EXPECT_FALSE(hostMemoryAvailable(filesFrom({}), std::nullopt));
    const MemoryAvailable here = systemMemory().available(false);
    ASSERT_TRUE(here.hostBytes) << "Linux has /proc/meminfo";
    EXPECT_GT(*here.hostBytes, 0u);
    EXPECT_FALSE(here.hostLimit.empty());
    EXPECT_FALSE(here.deviceBytes) << "the device is not asked for";
}

} // namespace
} // namespace gravlab
