// SnapshotError's one-line message (Snapshot.hpp). On its own so that the fuzz targets link the readers without the
// format dispatcher.
#include <gravlab/sim/Snapshot.hpp>

namespace gravlab {
namespace {

std::string snapshotMessage(const std::filesystem::path& file, const std::string& problem, const std::string& where) {
    std::string message = file.string() + ": " + problem;
    if (!where.empty())
        message.append(" (").append(where).append(")");
    return message;
}

} // namespace

SnapshotError::SnapshotError(const std::filesystem::path& file, const std::string& problem, const std::string& where)
    : std::runtime_error(snapshotMessage(file, problem, where)), m_file(file) {}

} // namespace gravlab
