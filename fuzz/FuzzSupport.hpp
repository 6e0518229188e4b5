#pragma once
// What the reader fuzz targets check besides "no crash, no sanitizer report".
//
// Design note: a reader may refuse any input with a SnapshotError. Any other outcome is a finding: another exception
// (libFuzzer reports it as a crash), or a snapshot that breaks a promise of Snapshot.hpp: no bodies, arrays of
// different sizes, a non-finite value or a non-positive mass that escaped the checks, a component out of range. A
// snapshot that was read is also written back with the format's writer and read again, which must give the same bits:
// the writers' bit-exact round trip, tried on inputs no unit test thought of. A finding prints what broke and traps, so
// libFuzzer saves the input. Round-trip files go to a private folder under the temp folder, removed at exit.
#include "io/ReadBodies.hpp"

#include <gravlab/sim/AtomicFile.hpp>
#include <gravlab/sim/Snapshot.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace gravlab::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
    __builtin_trap();
}

inline void requireValid(const Snapshot& snapshot) {
    const Bodies& bodies = snapshot.bodies;
    if (bodies.size() == 0 || !bodies.consistent())
        fail("a snapshot with no bodies or with arrays of different sizes was returned");
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        if (!io::bodyIsValid(bodies, i))
            fail("body " + std::to_string(i) + " has a non-finite value or a non-positive mass");
        if (bodies.component[i] >= kComponentCount || bodies.colorKey[i] != componentColorKey(bodies.component[i]))
            fail("body " + std::to_string(i) + " has component " + std::to_string(bodies.component[i]) +
                 " and colour key " + std::to_string(bodies.colorKey[i]));
    }
}

inline void requireSame(const Snapshot& first, const Snapshot& second) {
    const auto sameBytes = [](const auto& a, const auto& b) {
        return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0);
    };
    bool same = std::memcmp(&first.time, &second.time, sizeof first.time) == 0;
    same = same && sameBytes(first.bodies.x, second.bodies.x) && sameBytes(first.bodies.y, second.bodies.y) &&
           sameBytes(first.bodies.z, second.bodies.z) && sameBytes(first.bodies.vx, second.bodies.vx) &&
           sameBytes(first.bodies.vy, second.bodies.vy) && sameBytes(first.bodies.vz, second.bodies.vz) &&
           sameBytes(first.bodies.mass, second.bodies.mass) &&
           sameBytes(first.bodies.colorKey, second.bodies.colorKey) && sameBytes(first.bodies.id, second.bodies.id) &&
           sameBytes(first.bodies.component, second.bodies.component) &&
           sameBytes(first.bodies.xLow, second.bodies.xLow) && sameBytes(first.bodies.yLow, second.bodies.yLow) &&
           sameBytes(first.bodies.zLow, second.bodies.zLow) && sameBytes(first.bodies.vxLow, second.bodies.vxLow) &&
           sameBytes(first.bodies.vyLow, second.bodies.vyLow) && sameBytes(first.bodies.vzLow, second.bodies.vzLow);
    if (!same)
        fail("writing what was read and reading it again changed it");
}

/// A folder of this process under the temp folder, removed when the process exits normally.
inline const std::filesystem::path& scratchFolder() {
    struct Folder {
        std::filesystem::path path;
        Folder() {
            std::string pattern = (std::filesystem::temp_directory_path() / "gravlab_fuzz_XXXXXX").string();
            if (::mkdtemp(pattern.data()) == nullptr)
                fail("cannot create a scratch folder: " + std::string(std::strerror(errno)));
            path = pattern;
        }
        ~Folder() {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    };
    static const Folder folder;
    return folder.path;
}

/// Writes snapshot with write(AtomicFile&, const Snapshot&), reads it back with read(path) and requires the same bits.
template <typename Write, typename Read>
void requireRoundTrip(const Snapshot& snapshot, const char* fileName, Write&& write, Read&& read) {
    const std::filesystem::path file = scratchFolder() / fileName;
    AtomicFile out(file);
    write(out, snapshot);
    out.commit();
    requireSame(snapshot, read(file));
}

} // namespace gravlab::fuzz
