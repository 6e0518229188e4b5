#pragma once
// Snapshots written while a session runs (--save-every K --save-dir DIR --save-format NAME), window or headless.
//
// Design note: a snapshot is due whenever the step count reaches a multiple of K, including step 0 (the initial
// conditions). The session controller asks stepsUntilDue() before stepping and splits a frame's steps there, so every
// file holds exactly step n*K however many steps a frame takes. Files are named snapshot_<step, 8 digits>.<ext> in
// the folder (created when missing) and written through writeSnapshot, whole or not at all; a failure throws
// SnapshotError naming the file, which stops a headless run and pauses the window with the message. Across MPI ranks
// every rank reads the due state (a collective read) and rank 0 alone writes it.
#include <gravlab/sim/SimParams.hpp>
#include <gravlab/sim/Snapshot.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>

namespace gravlab {

class Simulation;

struct SnapshotSaving {
    std::uint64_t everySteps = 0; ///< 0: no snapshots
    std::filesystem::path folder = "gravlab_snapshots";
    SnapshotFormat format = SnapshotFormat::Hdf5;
    /// false on the MPI ranks that follow rank 0: a due state is still read (every rank takes part in reading it)
    /// and counted, but only rank 0 writes the file.
    bool writeFiles = true;
};

inline constexpr ParamRange kSaveEveryRange{"save-every", 0.0, 1e12, true, "steps between snapshots, 0 for none"};

class SnapshotSaver {
public:
    explicit SnapshotSaver(SnapshotSaving saving = {}) : m_saving(std::move(saving)) {}

    bool enabled() const { return m_saving.everySteps > 0; }
    /// Steps that may be taken from stepCount before the next snapshot is due (a large number when saving is off).
    std::uint64_t stepsUntilDue(std::uint64_t stepCount) const;
    /// Writes the simulation's state when its step count is due and not yet written; returns the file written.
    std::optional<std::filesystem::path> saveIfDue(const Simulation& simulation);
    /// The file a snapshot of this step goes to.
    std::filesystem::path fileFor(std::uint64_t stepCount) const;
    std::uint64_t savedCount() const { return m_savedCount; }
    /// After a reset the step count starts again: the initial state is due once more.
    void restart() { m_lastSavedStep.reset(); }
    const SnapshotSaving& saving() const { return m_saving; }

private:
    SnapshotSaving m_saving;
    std::optional<std::uint64_t> m_lastSavedStep;
    std::uint64_t m_savedCount = 0;
};

} // namespace gravlab
