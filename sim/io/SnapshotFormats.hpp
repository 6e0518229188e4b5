#pragma once
// The readers and writers behind readSnapshot() and writeSnapshot() (Snapshot.hpp), one pair per format, each in its
// own file of sim/io/. Writers receive an open AtomicFile; the dispatcher commits it. The tipsy and CSV readers are
// thin wrappers that map the file (MappedFile.hpp) and parse its bytes: the parse functions below see only a span, so
// the fuzz targets (fuzz/) drive them without touching the file system. writeSnapshot hands the writers at most
// kMaxSnapshotBodies bodies, at least one, with arrays of equal size.
#include <gravlab/sim/AtomicFile.hpp>
#include <gravlab/sim/Snapshot.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>

namespace gravlab::io {

enum class ByteOrder { Big, Little };

/// Tipsy with the given byte order: Big is XDR tipsy (28-byte header, no ids), Little the native variant (32-byte
/// header, ids in each record's last field).
Snapshot readTipsy(const std::filesystem::path& file, ByteOrder order);
void writeTipsy(AtomicFile& out, const Snapshot& snapshot, ByteOrder order);
/// The byte order a tipsy header's counts make sense in, or nullopt when they make sense in neither.
std::optional<ByteOrder> tipsyByteOrder(const std::filesystem::path& file);
/// The same from a whole file's bytes (only the header is looked at).
std::optional<ByteOrder> tipsyByteOrder(std::span<const std::byte> bytes);
/// readTipsy on a whole file's bytes; file only names the source in errors.
Snapshot parseTipsy(std::span<const std::byte> bytes, ByteOrder order, const std::filesystem::path& file);

Snapshot readCsv(const std::filesystem::path& file);
void writeCsv(AtomicFile& out, const Snapshot& snapshot);
/// readCsv on a whole file's bytes; file only names the source in errors.
Snapshot parseCsv(std::span<const std::byte> bytes, const std::filesystem::path& file);
/// Whether the bytes' first line (after comment lines) starts like the CSV header: x,y,z.
bool looksLikeCsv(std::span<const std::byte> bytes);

/// file may be one piece of a split snapshot (snap_000.0.hdf5): every piece is read.
Snapshot readGadgetHdf5(const std::filesystem::path& file);
/// Writes out.temporaryPath() by name (AtomicFile::Mode::ByName).
void writeGadgetHdf5(AtomicFile& out, const Snapshot& snapshot);
/// Whether the file starts with the HDF5 signature.
bool hasHdf5Signature(const std::filesystem::path& file);

} // namespace gravlab::io
