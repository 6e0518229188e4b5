#pragma once
// `gravlab bench --io`: how fast snapshots are written and read, per format, on this machine's disk.
//
// Design note: the bodies are a scenario's (N from --bodies) with ids, written to and read back from a folder
// (--io-dir, by default a fresh one under the system temp folder, removed afterwards) --steps times per format after
// one warm-up write and read; the median times give GB/s of the file's size on disk. Every read is compared with
// what was written, bit for bit, so a fast but wrong reader cannot report a rate. The page cache is not dropped (that
// needs root and is not what a user sees when saving then loading), so read rates are those of a warm cache unless
// the file is larger than memory; docs/PERFORMANCE.md says which. CSV, a text format, is timed only up to 2^20
// bodies.
#include <gravlab/sim/Snapshot.hpp>

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>

namespace gravlab {

struct SnapshotBenchOptions {
    std::uint64_t bodyCount = 1 << 20;
    int repeats = 3;
    std::string scenario = "plummer";
    std::filesystem::path folder; ///< empty: a temporary folder
    bool json = false;
};

/// Times every format; prints a line per format (or one JSON object) to out. Throws on a failed write, a failed
/// read, or a read that does not give back what was written.
void runSnapshotBench(const SnapshotBenchOptions& options, std::ostream& out);

} // namespace gravlab
