// Temporary stand-in for the snapshot file readers and writers, which are being written on other branches: it lets
// the Python module link before they land on main. Drop this file when merging them (they define the same symbols).
#include <gravlab/sim/Snapshot.hpp>

#include <stdexcept>

namespace gravlab {

SnapshotError::SnapshotError(const std::filesystem::path& file, const std::string& problem, const std::string& where)
    : std::runtime_error(file.string() + ": " + problem + (where.empty() ? "" : " (" + where + ")")), m_file(file) {}

Snapshot readSnapshot(const std::filesystem::path&, std::optional<SnapshotFormat>) {
    throw std::runtime_error("snapshot files are being built");
}

void writeSnapshot(const std::filesystem::path&, const Snapshot&, std::optional<SnapshotFormat>) {
    throw std::runtime_error("snapshot files are being built");
}

} // namespace gravlab
