// A snapshot from its pieces: every header and shape checked first, then one allocation, then the values (see
// GadgetHdf5Reader.hpp).
#include "io/GadgetHdf5Reader.hpp"

#include "io/GadgetHdf5Datasets.hpp"
#include "io/GadgetHdf5Header.hpp"
#include "io/GadgetHdf5Layout.hpp"

#include <gravlab/sim/Precision.hpp>

#include <algorithm>
#include <array>
#include <numeric>
#include <optional>

namespace gravlab::io {
namespace {

using namespace gadget;

/// One piece as the first pass found it.
struct PieceLayout {
    std::filesystem::path name;
    GadgetHdf5Header header;
    std::array<bool, kComponentCount> hasGroup{};
    std::array<bool, kComponentCount> hasMasses{};
    std::array<bool, kComponentCount> hasIds{};
};

Hdf5Group openPartType(hid_t file, std::size_t type, const std::filesystem::path& name) {
    const std::string groupName = partTypeGroup(type);
    Hdf5Group group(H5Gopen2(file, groupName.c_str(), H5P_DEFAULT));
    if (!group.valid())
        throw SnapshotError(name, "the " + groupName + " group cannot be opened: " + hdf5ErrorText());
    return group;
}

/// The mass the Header's MassTable gives every body of a type stored without Masses; throws when there is none.
float tableMass(const PieceLayout& piece, std::size_t type) {
    const double mass = piece.header.massTable[type];
    if (!isFloatMass(mass))
        throw SnapshotError(piece.name, partTypeGroup(type) + " has no Masses dataset and Header MassTable[" +
                                            std::to_string(type) + "] gives none: " + massProblem(mass));
    return float(mass);
}

PieceLayout inspectPiece(hid_t file, const std::filesystem::path& name, std::uint64_t maxBodies) {
    PieceLayout piece{name, readGadgetHdf5Header(file, name, maxBodies)};
    for (std::size_t type = 0; type < kComponentCount; ++type) {
        const std::string groupName = partTypeGroup(type);
        const std::uint64_t rows = piece.header.countThisFile[type];
        piece.hasGroup[type] = hasLocalLink(file, groupName.c_str(), name, "root group");
        if (!piece.hasGroup[type]) {
            if (rows > 0)
                throw SnapshotError(name, "Header NumPart_ThisFile[" + std::to_string(type) + "] says " +
                                              std::to_string(rows) + " bodies, but there is no " + groupName +
                                              " group");
            continue;
        }
        const Hdf5Group group = openPartType(file, type, name);
        const DatasetPlace place{name, type};
        for (const char* required : {kCoordinates, kVelocities})
            if (!inspectDataset(group.get(), required, place, rows, 3, DatasetValues::Real) && rows > 0)
                throw SnapshotError(name, groupName + " holds " + std::to_string(rows) + " bodies but has no " +
                                              required + " dataset");
        piece.hasMasses[type] = inspectDataset(group.get(), kMasses, place, rows, 1, DatasetValues::Real);
        if (!piece.hasMasses[type] && rows > 0)
            tableMass(piece, type);
        piece.hasIds[type] = inspectDataset(group.get(), kParticleIds, place, rows, 1, DatasetValues::Integer);
    }
    return piece;
}

/// The counts of all pieces must agree with each other and add up to the totals; returns the totals.
TypeCounts checkPiecesAddUp(const std::vector<PieceLayout>& pieces, const std::filesystem::path& given) {
    const GadgetHdf5Header& first = pieces.front().header;
    TypeCounts sums{};
    bool anyGroup = false;
    for (const PieceLayout& piece : pieces) {
        if (piece.header.fileCount != first.fileCount || piece.header.countTotal != first.countTotal)
            throw SnapshotError(piece.name, "Header NumFilesPerSnapshot or NumPart_Total differ from those of " +
                                                pieces.front().name.filename().string() +
                                                ": the pieces are not of one snapshot");
        for (std::size_t type = 0; type < kComponentCount; ++type) {
            sums[type] += piece.header.countThisFile[type];
            anyGroup = anyGroup || piece.hasGroup[type];
        }
    }
    for (std::size_t type = 0; type < kComponentCount; ++type)
        if (sums[type] != first.countTotal[type])
            throw SnapshotError(given, "the " + std::to_string(pieces.size()) + " file(s) hold " +
                                           std::to_string(sums[type]) + " bodies of particle type " +
                                           std::to_string(type) + " (NumPart_ThisFile), but Header NumPart_Total[" +
                                           std::to_string(type) + "] says " + std::to_string(first.countTotal[type]));
    if (!anyGroup)
        throw SnapshotError(given, "there is no PartType0 to PartType5 group: the snapshot holds no bodies");
    if (std::accumulate(sums.begin(), sums.end(), std::uint64_t{0}) == 0)
        throw SnapshotError(given, "every PartType group is empty: the snapshot holds no bodies");
    return sums;
}

/// Reads one piece's bodies of one type into [first, first + count).
void readPartType(hid_t file, const PieceLayout& piece, std::size_t type, std::size_t first, Bodies& bodies) {
    const std::uint64_t count = piece.header.countThisFile[type];
    const Hdf5Group group = openPartType(file, type, piece.name);
    const DatasetPlace place{piece.name, type};
    // Doubles keep their low parts: the bodies turn double precision (zero low parts so far) at the first such dataset.
    if (!bodies.hasLowParts() && (datasetHoldsDoubles(group.get(), kCoordinates, place, count) ||
                                  datasetHoldsDoubles(group.get(), kVelocities, place, count)))
        convertPrecision(bodies, Precision::Double);
    const bool pairs = bodies.hasLowParts();
    readDatasetTriples(group.get(), kCoordinates, place, count, &bodies.x[first], &bodies.y[first], &bodies.z[first],
                       pairs ? LowTriple{&bodies.xLow[first], &bodies.yLow[first], &bodies.zLow[first]} : LowTriple{});
    readDatasetTriples(group.get(), kVelocities, place, count, &bodies.vx[first], &bodies.vy[first], &bodies.vz[first],
                       pairs ? LowTriple{&bodies.vxLow[first], &bodies.vyLow[first], &bodies.vzLow[first]}
                             : LowTriple{});
    const auto last = std::ptrdiff_t(first + count);
    if (piece.hasMasses[type])
        readDatasetMasses(group.get(), kMasses, place, count, &bodies.mass[first]);
    else
        std::fill(bodies.mass.begin() + std::ptrdiff_t(first), bodies.mass.begin() + last, tableMass(piece, type));
    if (piece.hasIds[type])
        readDatasetIds(group.get(), kParticleIds, place, count, &bodies.id[first]);
    else
        std::iota(bodies.id.begin() + std::ptrdiff_t(first), bodies.id.begin() + last, std::uint64_t(first));
    std::fill(bodies.component.begin() + std::ptrdiff_t(first), bodies.component.begin() + last, std::uint8_t(type));
    std::fill(bodies.colorKey.begin() + std::ptrdiff_t(first), bodies.colorKey.begin() + last,
              componentColorKey(std::uint8_t(type)));
}

} // namespace

Snapshot readGadgetHdf5Pieces(const Hdf5PieceSource& source, std::uint64_t maxBodies) {
    std::vector<std::filesystem::path> names{source.given};
    std::optional<UnitSystem> units;
    {
        const Hdf5File given = source.open(source.given);
        const GadgetHdf5Header header = readGadgetHdf5Header(given.get(), source.given, maxBodies);
        if (header.fileCount > 1)
            names = source.pieces(header.fileCount);
        units = readGadgetHdf5Units(given.get(), source.given);
    }

    std::vector<PieceLayout> pieces;
    pieces.reserve(names.size());
    for (const std::filesystem::path& name : names) {
        const Hdf5File file = source.open(name);
        pieces.push_back(inspectPiece(file.get(), name, maxBodies));
    }
    const TypeCounts totals = checkPiecesAddUp(pieces, source.given);

    Snapshot snapshot;
    const GadgetHdf5Header& header = pieces.front().header;
    snapshot.time = header.time;
    snapshot.redshift = header.redshift;
    snapshot.boxSize = header.boxSize;
    snapshot.units = units;
    snapshot.bodies.resize(std::size_t(std::accumulate(totals.begin(), totals.end(), std::uint64_t{0})));
    std::array<std::size_t, kComponentCount> next{}; // where each type's next rows go: types one after another
    for (std::size_t type = 1; type < kComponentCount; ++type)
        next[type] = next[type - 1] + std::size_t(totals[type - 1]);
    for (const PieceLayout& piece : pieces) {
        const Hdf5File file = source.open(piece.name);
        for (std::size_t type = 0; type < kComponentCount; ++type) {
            if (piece.header.countThisFile[type] == 0)
                continue;
            readPartType(file.get(), piece, type, next[type], snapshot.bodies);
            next[type] += std::size_t(piece.header.countThisFile[type]);
        }
    }
    return snapshot;
}

} // namespace gravlab::io
