// SnapshotSaver: due steps, file names, and the write (see SnapshotSaver.hpp).
#include "SnapshotSaver.hpp"

#include <gravlab/sim/Simulation.hpp>

#include <cstdio>
#include <limits>
#include <system_error>

namespace gravlab {
namespace {

std::string_view extensionFor(SnapshotFormat format) {
    switch (format) {
    case SnapshotFormat::Hdf5:
        return ".hdf5";
    case SnapshotFormat::Csv:
        return ".csv";
    case SnapshotFormat::Tipsy:
    case SnapshotFormat::TipsyNative:
        return ".tipsy";
    }
    return ".snapshot";
}

} // namespace

std::uint64_t SnapshotSaver::stepsUntilDue(std::uint64_t stepCount) const {
    if (!enabled())
        return std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t sinceLast = stepCount % m_saving.everySteps;
    const bool dueNow = sinceLast == 0 && m_lastSavedStep != stepCount;
    return dueNow ? 0 : m_saving.everySteps - sinceLast;
}

std::filesystem::path SnapshotSaver::fileFor(std::uint64_t stepCount) const {
    char name[40];
    std::snprintf(name, sizeof name, "snapshot_%08llu", static_cast<unsigned long long>(stepCount));
    return m_saving.folder / (std::string(name) + std::string(extensionFor(m_saving.format)));
}

std::optional<std::filesystem::path> SnapshotSaver::saveIfDue(const Simulation& simulation) {
    const std::uint64_t step = simulation.stepCount();
    if (!enabled() || stepsUntilDue(step) != 0)
        return std::nullopt;
    const Snapshot state = simulation.snapshot(); // across MPI ranks every rank reads it together
    std::optional<std::filesystem::path> written;
    if (m_saving.writeFiles) {
        std::error_code error;
        std::filesystem::create_directories(m_saving.folder, error);
        if (error)
            throw SnapshotError(m_saving.folder, "cannot create the snapshot folder: " + error.message());
        written = fileFor(step);
        writeSnapshot(*written, state, m_saving.format);
    }
    m_lastSavedStep = step;
    ++m_savedCount;
    return written;
}

} // namespace gravlab
