// Placeholder for the HDF5 reader and writer, which are being written on another branch: it lets the tipsy and CSV
// branch link its dispatcher. Dropped when the branches are merged.
#include "io/SnapshotFormats.hpp"

#include <array>
#include <cstdio>
#include <cstring>
#include <memory>

namespace gravlab::io {

Snapshot readGadgetHdf5(const std::filesystem::path& file) {
    throw SnapshotError(file, "HDF5 support is being built");
}

void writeGadgetHdf5(AtomicFile& out, const Snapshot&) {
    throw SnapshotError(out.target(), "HDF5 support is being built");
}

bool hasHdf5Signature(const std::filesystem::path& file) {
    constexpr std::array<unsigned char, 8> kSignature{0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(file.c_str(), "rb"), &std::fclose);
    std::array<unsigned char, 8> start{};
    return stream && std::fread(start.data(), 1, start.size(), stream.get()) == start.size() &&
           std::memcmp(start.data(), kSignature.data(), start.size()) == 0;
}

} // namespace gravlab::io
