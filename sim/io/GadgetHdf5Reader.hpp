#pragma once
// Reading a GADGET-4 / SWIFT / AREPO snapshot from its pieces, wherever their bytes come from (files on disk or a file
// image in memory): the format logic, kept apart from how a piece is found and opened.
//
// Design note: two passes. The first opens every piece and checks its Header and the shape of every dataset against
// it, and checks that the pieces' counts add up to the Header's totals; only then is memory allocated, once, for the
// whole snapshot. The second pass reads the values. Bodies are ordered by particle type, and within a type by piece,
// then by row, so a snapshot split over several files reads exactly like the same snapshot in one file.
// A type without a Masses dataset takes its Header MassTable entry; a type without ParticleIDs gets its bodies'
// positions in the snapshot (0 .. N-1) as ids. colorKey follows the particle type (componentColorKey).
#include "io/Hdf5Handles.hpp"

#include <gravlab/sim/Snapshot.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

namespace gravlab::io {

/// How the pieces of one snapshot are found and opened.
struct Hdf5PieceSource {
    std::filesystem::path given; ///< the piece the reader was asked for (a file name or an image's name)
    /// Opens a piece read-only; throws SnapshotError naming it when it cannot.
    std::function<Hdf5File(const std::filesystem::path& piece)> open;
    /// The names of all pieces in order, when the given piece's Header says the snapshot is split into pieceCount
    /// files; throws SnapshotError when they cannot all be found.
    std::function<std::vector<std::filesystem::path>(std::uint64_t pieceCount)> pieces;
};

/// Reads every piece of the snapshot, holding at most maxBodies bodies. Throws SnapshotError.
Snapshot readGadgetHdf5Pieces(const Hdf5PieceSource& source, std::uint64_t maxBodies);

} // namespace gravlab::io
