#pragma once
// The Header group of one piece of a GADGET-4 / SWIFT / AREPO snapshot, read and checked, and the units it states.
//
// Design note: the header is read once per piece, before any dataset is touched, so the counts that size every
// allocation are known to be sane first: integers that are not negative, NumPart_Total (with GADGET-2's HighWord
// extension) within the snapshot limit, this piece's counts within the totals. Attributes are accepted in the shapes
// the codes write them: GADGET-4 writes scalars, SWIFT one-element arrays (BoxSize as three sides), AREPO either;
// integer attributes may be signed or unsigned of any width, as each code picked its own.
#include "io/Hdf5Handles.hpp"

#include <gravlab/sim/Bodies.hpp>
#include <gravlab/sim/Units.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>

namespace gravlab::io {

using TypeCounts = std::array<std::uint64_t, kComponentCount>;

/// The most files one snapshot may be split over (GADGET-4 writes one per group of MPI ranks; thousands at most).
inline constexpr std::uint64_t kMaxSnapshotPieces = 65536;

struct GadgetHdf5Header {
    TypeCounts countThisFile{};                      ///< bodies of each particle type in this piece
    TypeCounts countTotal{};                         ///< in the whole snapshot: NumPart_Total plus its HighWord
    std::array<double, kComponentCount> massTable{}; ///< mass of every body of a type stored without Masses; 0: none
    double time = 0;
    double redshift = 0;
    double boxSize = 0;          ///< largest side where the file gives three (SWIFT), 0 when absent
    std::uint64_t fileCount = 1; ///< NumFilesPerSnapshot, 1 when absent
};

/// Reads and checks the Header group of an open piece; the counts sum to at most maxBodies. Throws SnapshotError
/// naming the piece and the attribute.
GadgetHdf5Header readGadgetHdf5Header(hid_t file, const std::filesystem::path& name, std::uint64_t maxBodies);

/// The units the piece states: GADGET-4's Parameters group, AREPO's Header, then SWIFT's Units group, the first that
/// gives all three scales as positive numbers; nullopt when none does.
std::optional<UnitSystem> readGadgetHdf5Units(hid_t file, const std::filesystem::path& name);

/// Whether a stored datatype is a standard integer (1 to 8 bytes, either byte order, signed or not) or an IEEE float
/// (4 or 8 bytes, either byte order). Only such numbers are read: libhdf5 converts others bit by bit from fields a
/// damaged file can set to anything (the fuzzer crashed it that way), and no snapshot writer uses others.
bool isStandardNumberType(hid_t type);

/// Whether loc holds a link called name: true for a hard or soft link, false when absent; throws SnapshotError for an
/// external link, which would make libhdf5 open another file the user never named.
bool hasLocalLink(hid_t loc, const char* name, const std::filesystem::path& file, const std::string& where);

} // namespace gravlab::io
