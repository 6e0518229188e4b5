// Snapshot write and read rates per format, with a bit-exact check of every read (see SnapshotBench.hpp).
#include "SnapshotBench.hpp"

#include "ReportJson.hpp"

#include <gravlab/sim/Scenarios.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ostream>
#include <stdexcept>
#include <vector>
#include <unistd.h>

namespace gravlab {
namespace {

constexpr std::uint64_t kLargestCsvBench = 1 << 20;

struct FormatTiming {
    SnapshotFormat format;
    std::uint64_t bytes = 0;
    double writeSeconds = 0; ///< median
    double readSeconds = 0;  ///< median
};

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

template <typename Work> double secondsOf(Work&& work) {
    const auto start = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The arrays every format keeps exactly: positions, velocities, masses (tipsy-native keeps ids only below 2^31, and
/// big-endian tipsy none, so ids are compared where the format holds them).
void requireSameBodies(const Bodies& written, const Bodies& read, SnapshotFormat format) {
    const bool same = written.x == read.x && written.y == read.y && written.z == read.z && written.vx == read.vx &&
                      written.vy == read.vy && written.vz == read.vz && written.mass == read.mass &&
                      (format == SnapshotFormat::Tipsy || written.id == read.id);
    if (!same)
        throw std::runtime_error("bench --io: reading back the " + std::string(enumName(format)) +
                                 " file did not give the bodies written");
}

/// A fresh folder under the system temp folder, removed when the bench ends.
class ScratchFolder {
public:
    explicit ScratchFolder(std::filesystem::path given) : m_path(std::move(given)) {
        if (m_path.empty()) {
            m_path = std::filesystem::temp_directory_path() / ("gravlab-bench-io-" + std::to_string(::getpid()));
            m_owned = true;
        }
        std::filesystem::create_directories(m_path);
    }
    ~ScratchFolder() {
        std::error_code ignored; // a leftover temp folder is not worth a second error
        if (m_owned)
            std::filesystem::remove_all(m_path, ignored);
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
    bool m_owned = false;
};

FormatTiming timeFormat(const Snapshot& snapshot, SnapshotFormat format, const std::filesystem::path& file,
                        int repeats) {
    FormatTiming timing{format};
    std::vector<double> writes, reads;
    for (int round = 0; round <= repeats; ++round) { // round 0 warms up
        const double write = secondsOf([&] { writeSnapshot(file, snapshot, format); });
        Snapshot read;
        const double readTime = secondsOf([&] { read = readSnapshot(file, format); });
        requireSameBodies(snapshot.bodies, read.bodies, format);
        if (round > 0) {
            writes.push_back(write);
            reads.push_back(readTime);
        }
    }
    timing.bytes = std::filesystem::file_size(file);
    timing.writeSeconds = median(writes);
    timing.readSeconds = median(reads);
    std::filesystem::remove(file);
    return timing;
}

} // namespace

void runSnapshotBench(const SnapshotBenchOptions& options, std::ostream& out) {
    const ScratchFolder folder(options.folder);
    Snapshot snapshot{generateScenario(options.scenario, options.bodyCount, 42)};
    std::vector<FormatTiming> timings;
    for (const auto& entry : EnumNames<SnapshotFormat>::entries) {
        if (entry.value == SnapshotFormat::Csv && options.bodyCount > kLargestCsvBench)
            continue;
        const std::filesystem::path file = folder.path() / ("bench." + std::string(entry.name));
        timings.push_back(timeFormat(snapshot, entry.value, file, options.repeats));
    }
    if (options.json) {
        ReportJson report;
        report["bodies"] = options.bodyCount;
        report["repeats"] = options.repeats;
        report["folder"] = folder.path().string();
        ReportJson formats = ReportJson::array();
        for (const FormatTiming& t : timings)
            formats.push_back({{"format", std::string(enumName(t.format))},
                               {"bytes", t.bytes},
                               {"writeSeconds", reportedNumber(t.writeSeconds)},
                               {"readSeconds", reportedNumber(t.readSeconds)},
                               {"writeGBps", reportedNumber(double(t.bytes) / t.writeSeconds / 1e9)},
                               {"readGBps", reportedNumber(double(t.bytes) / t.readSeconds / 1e9)}});
        report["formats"] = std::move(formats);
        printReport(report, out);
        return;
    }
    char line[256];
    out << "snapshot I/O, " << options.bodyCount << " bodies, median of " << options.repeats << " in "
        << folder.path().string() << " (every read checked bit for bit against what was written)\n";
    for (const FormatTiming& t : timings) {
        std::snprintf(line, sizeof line, "  %-13s %8.1f MB  write %7.3f s (%6.2f GB/s)  read %7.3f s (%6.2f GB/s)\n",
                      std::string(enumName(t.format)).c_str(), double(t.bytes) / 1e6, t.writeSeconds,
                      double(t.bytes) / t.writeSeconds / 1e9, t.readSeconds, double(t.bytes) / t.readSeconds / 1e9);
        out << line;
    }
}

} // namespace gravlab
