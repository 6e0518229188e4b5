#pragma once
// Bodies in files: snapshots and initial conditions read and written in the formats users already have.
//
// Design note: one Snapshot value is what every format reads into and writes from: the bodies (with their ids and
// components, Bodies.hpp), the time, and the units when the file states them. The format is chosen by the file's first
// bytes when reading (tipsy's byte order from its header, HDF5's signature), by the extension when writing, and
// either can be forced. Each format lives in its own file in sim/io/ behind the two functions below:
//   tipsy         big-endian XDR tipsy (pkdgrav, ChaNGa, gasoline): 28-byte header, gas, dark, star records, no ids
//   tipsy-native  little-endian tipsy (Bonsai, NVIDIA's nbody sample): 32-byte padded header, ids in the last field
//   hdf5          the GADGET-4 / SWIFT / AREPO layout: Header attributes, PartType0..5 groups, split files
//   csv           header row x,y,z,vx,vy,vz,m[,id] (students, spreadsheets)
// Readers check every count and offset against the file before allocating and refuse non-finite values and
// non-positive masses; every failure is a SnapshotError whose message names the file, what is wrong and where (record,
// dataset, line). Writers check every write and write to a temporary name that is renamed over the target only once
// complete, so a failed save never leaves a half-written file under the target name.
#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/EnumNames.hpp>
#include <gravlab/sim/Units.hpp>

#include <array>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gravlab {

enum class SnapshotFormat {
    Tipsy,       ///< big-endian XDR tipsy
    TipsyNative, ///< little-endian tipsy with ids
    Hdf5,        ///< GADGET-4 / SWIFT / AREPO HDF5
    Csv,         ///< x,y,z,vx,vy,vz,m[,id]
};

template <> struct EnumNames<SnapshotFormat> {
    static constexpr std::string_view field = "format";
    static constexpr std::array entries{
        EnumName<SnapshotFormat>{SnapshotFormat::Tipsy, "tipsy", "big-endian tipsy of pkdgrav, ChaNGa, gasoline"},
        EnumName<SnapshotFormat>{SnapshotFormat::TipsyNative, "tipsy-native",
                                 "little-endian tipsy of Bonsai and NVIDIA's nbody sample"},
        EnumName<SnapshotFormat>{SnapshotFormat::Hdf5, "hdf5", "GADGET-4, SWIFT and AREPO snapshots"},
        EnumName<SnapshotFormat>{SnapshotFormat::Csv, "csv", "header row x,y,z,vx,vy,vz,m[,id]"}};
};

struct Snapshot {
    Bodies bodies;
    double time = 0;      ///< in the file's time unit (cosmological files: the scale factor, as they store it)
    double redshift = 0;  ///< HDF5 Header/Redshift where present
    double boxSize = 0;   ///< periodic box side where the file states one, 0 otherwise
    /// The file's units where it states them (HDF5 Units or Parameters groups); none: N-body units or unknown.
    std::optional<UnitSystem> units{};
};

/// A file that cannot be read or written. what() is one line: "FILE: WHAT is wrong (WHERE)".
class SnapshotError : public std::runtime_error {
public:
    SnapshotError(const std::filesystem::path& file, const std::string& problem, const std::string& where = {});
    const std::filesystem::path& file() const { return m_file; }

private:
    std::filesystem::path m_file;
};

/// Largest body count a file may hold (the simulation's own limit, SimParams.hpp).
inline constexpr std::uint64_t kMaxSnapshotBodies = std::uint64_t{1} << 28;

/// The format of an existing file from its first bytes (tipsy byte order from its header), or from its extension
/// when the bytes decide nothing (CSV). Throws SnapshotError when neither tells.
SnapshotFormat detectSnapshotFormat(const std::filesystem::path& file);
/// The format a file of this name is written in: .tipsy/.std/.bin -> tipsy, .hdf5/.h5 -> hdf5, .csv -> csv.
/// Throws SnapshotError for any other extension, naming the known ones and --format.
SnapshotFormat snapshotFormatForName(const std::filesystem::path& file);

/// Reads a snapshot in the given format, or the detected one. Throws SnapshotError.
Snapshot readSnapshot(const std::filesystem::path& file, std::optional<SnapshotFormat> format = {});
/// Writes a snapshot in the given format, or the one the name implies, through a temporary file renamed into place.
/// Throws SnapshotError naming the file and the reason (a full disk, a missing folder) and leaves no partial file.
void writeSnapshot(const std::filesystem::path& file, const Snapshot& snapshot,
                   std::optional<SnapshotFormat> format = {});

} // namespace gravlab
