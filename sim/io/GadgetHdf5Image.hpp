#pragma once
// Reading a GADGET-4 / SWIFT / AREPO snapshot from an HDF5 file image held in memory: the bytes of one whole file.
// The fuzzer feeds its inputs through here, so no byte it tries touches the file system; the tests use it to show
// that file and image read alike. Kept free of libhdf5's headers so callers need not see them.
#include <gravlab/sim/Snapshot.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

namespace gravlab::io {

/// Reads a snapshot of at most maxBodies bodies from a file image; name stands for the file in messages. A piece of a
/// split snapshot is refused: its other pieces cannot be found from an image. Throws SnapshotError.
Snapshot readGadgetHdf5Image(std::span<const std::byte> image, const std::filesystem::path& name,
                             std::uint64_t maxBodies = kMaxSnapshotBodies);

} // namespace gravlab::io
