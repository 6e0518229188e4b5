// Stand-in for SnapshotError's constructor while the snapshot dispatcher (SnapshotFiles.cpp) is written on another
// branch, so this branch links on its own. It must be deleted when the branches are merged.
#include <gravlab/sim/Snapshot.hpp>

namespace gravlab {

SnapshotError::SnapshotError(const std::filesystem::path& file, const std::string& problem, const std::string& where)
    : std::runtime_error(file.string() + ": " + problem + (where.empty() ? std::string() : " (" + where + ")")),
      m_file(file) {}

} // namespace gravlab
