// libFuzzer target: the GADGET-4 / SWIFT / AREPO HDF5 reader on arbitrary bytes, opened as a file image in memory
// (libhdf5's core driver), so no input touches the file system.
//
// Design note: the reader may refuse any input with a SnapshotError. Anything else is a finding: another exception
// (libFuzzer reports it as a crash), a returned snapshot that breaks a promise of Snapshot.hpp (no bodies, arrays of
// different sizes, a non-finite value, a non-positive mass, a component out of range, a colour key that is not its
// component's), or one that does not survive the writer: written as HDF5 and read back, it must give the same bits.
// The reader runs with a limit of 2^16 bodies, so a header claiming the real limit (2^28) cannot make one input
// allocate gigabytes; every check is the same, only the number differs. A finding prints what broke and traps, so
// libFuzzer saves the input.
// Found by this target and worked around in the reader: a corrupted integer or float type crashed libhdf5's number
// conversion (only standard number types are read now), and a damaged file left libhdf5's global state poisoned so
// that reading it again read freed memory (a session that fails now closes the library). Found and not avoidable above
// libhdf5 1.10.8, whose parsers trust the file: out-of-bounds and freed-memory reads decoding attribute messages
// (H5Aexists -> H5O__attr_exists -> H5O__msg_iterate_real), a null read in the metadata accumulator for a damaged local
// heap (H5Lexists -> H5HL_protect -> H5F__accum_read), a division by zero opening a dataset with a damaged layout
// (H5Dopen2), and leaks on its error paths (H5O_protect, H5D__layout_oh_read).
#include "io/GadgetHdf5Image.hpp"
#include "io/SnapshotFormats.hpp"

#include <gravlab/sim/AtomicFile.hpp>

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>

using namespace gravlab;

namespace {

constexpr std::uint64_t kFuzzMaxBodies = std::uint64_t{1} << 16;

[[noreturn]] void finding(const std::string& what) {
    std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
    __builtin_trap();
}

void requireValid(const Snapshot& snapshot) {
    const Bodies& b = snapshot.bodies;
    if (b.size() == 0 || b.size() > kFuzzMaxBodies || !b.consistent())
        finding("a snapshot of " + std::to_string(b.size()) + " bodies or with arrays of different sizes was returned");
    for (std::size_t i = 0; i < b.size(); ++i) {
        const bool finite = std::isfinite(b.x[i]) && std::isfinite(b.y[i]) && std::isfinite(b.z[i]) &&
                            std::isfinite(b.vx[i]) && std::isfinite(b.vy[i]) && std::isfinite(b.vz[i]);
        if (!finite || !(b.mass[i] > 0) || !std::isfinite(b.mass[i]))
            finding("body " + std::to_string(i) + " has a non-finite value or a non-positive mass");
        if (b.component[i] >= kComponentCount || b.colorKey[i] != componentColorKey(b.component[i]))
            finding("body " + std::to_string(i) + " has component " + std::to_string(b.component[i]) +
                    " and colour key " + std::to_string(b.colorKey[i]));
    }
    if (!std::isfinite(snapshot.time) || !std::isfinite(snapshot.redshift) || !(snapshot.boxSize >= 0))
        finding("the header values are not finite");
}

template <typename Array> bool sameBits(const Array& a, const Array& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0;
}

/// Writes the snapshot with the HDF5 writer into a scratch file and reads it back: the bits must not change.
void requireRoundTrip(const Snapshot& snapshot) {
    static const std::string scratch = [] {
        std::string pattern = "/tmp/gravlab_fuzz_hdf5_XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr)
            finding(std::string("cannot create a scratch folder: ") + std::strerror(errno));
        return pattern;
    }();
    const std::filesystem::path file = std::filesystem::path(scratch) / "round_trip.hdf5";
    Snapshot back;
    try {
        AtomicFile out(file, AtomicFile::Mode::ByName);
        io::writeGadgetHdf5(out, snapshot);
        out.commit();
        back = io::readGadgetHdf5(file);
    } catch (const std::exception& error) {
        finding(std::string("a snapshot that was read could not be written and read back: ") + error.what());
    }
    const Bodies &a = snapshot.bodies, &b = back.bodies;
    const bool same = sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z) && sameBits(a.vx, b.vx) &&
                      sameBits(a.vy, b.vy) && sameBits(a.vz, b.vz) && sameBits(a.mass, b.mass) &&
                      sameBits(a.colorKey, b.colorKey) && sameBits(a.id, b.id) && sameBits(a.component, b.component) &&
                      std::memcmp(&snapshot.time, &back.time, sizeof back.time) == 0 &&
                      std::memcmp(&snapshot.redshift, &back.redshift, sizeof back.redshift) == 0 &&
                      std::memcmp(&snapshot.boxSize, &back.boxSize, sizeof back.boxSize) == 0 &&
                      snapshot.units == back.units;
    if (!same)
        finding("writing what was read and reading it again changed it");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    Snapshot snapshot;
    try {
        snapshot = io::readGadgetHdf5Image(std::span(reinterpret_cast<const std::byte*>(data), size), "input.hdf5",
                                           kFuzzMaxBodies);
    } catch (const SnapshotError&) {
        return 0;
    }
    requireValid(snapshot);
    requireRoundTrip(snapshot);
    return 0;
}
