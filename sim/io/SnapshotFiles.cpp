// The format dispatcher behind readSnapshot and writeSnapshot (Snapshot.hpp).
//
// Design note: a file being read says what it is by its bytes, in order of certainty: the HDF5 signature, then a
// tipsy header whose counts make sense in exactly one byte order (ndim == 3 cannot read as 3 both ways), then a first
// line that starts like the CSV header (or the .csv extension, so that a CSV file with a bad header gets the CSV
// reader's message about its header rather than "unknown format"). A file being written is named by its extension;
// either can be forced (--format). Running out of memory while reading becomes a SnapshotError like any other failure,
// and so does every write failure of AtomicFile, whose temporary file is gone by then: the target is either the
// complete new file or whatever was there before.
#include "io/MappedFile.hpp"
#include "io/SnapshotFormats.hpp"

#include <gravlab/sim/AtomicFile.hpp>
#include <gravlab/sim/Snapshot.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <new>
#include <string>
#include <string_view>

namespace gravlab {
namespace {

struct ExtensionFormat {
    std::string_view extension;
    SnapshotFormat format;
};
/// What writeSnapshot infers from a name. Tipsy's extensions mean the big-endian variant, the one other codes read.
constexpr std::array<ExtensionFormat, 7> kExtensions{{{".tipsy", SnapshotFormat::Tipsy},
                                                      {".std", SnapshotFormat::Tipsy},
                                                      {".bin", SnapshotFormat::Tipsy},
                                                      {".tip", SnapshotFormat::Tipsy},
                                                      {".hdf5", SnapshotFormat::Hdf5},
                                                      {".h5", SnapshotFormat::Hdf5},
                                                      {".csv", SnapshotFormat::Csv}}};

std::string lowercaseExtension(const std::filesystem::path& file) {
    std::string extension = file.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return extension;
}

/// "name the format with --format tipsy, tipsy-native, hdf5 or csv"
std::string formatOptionHint() {
    std::string hint = "name the format with --format ";
    const auto& entries = EnumNames<SnapshotFormat>::entries;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (i > 0)
            hint += i + 1 == entries.size() ? " or " : ", ";
        hint += entries[i].name;
    }
    return hint;
}

/// ".tipsy, .std, .bin, .tip (tipsy), .hdf5, .h5 (hdf5), .csv (csv)"
std::string knownExtensions() {
    std::string list;
    for (std::size_t i = 0; i < kExtensions.size(); ++i) {
        if (i > 0)
            list += ", ";
        list += kExtensions[i].extension;
        if (i + 1 == kExtensions.size() || kExtensions[i + 1].format != kExtensions[i].format)
            list.append(" (").append(enumName(kExtensions[i].format)).append(")");
    }
    return list;
}

void writeIn(SnapshotFormat format, AtomicFile& out, const Snapshot& snapshot) {
    switch (format) {
    case SnapshotFormat::Tipsy:
        return io::writeTipsy(out, snapshot, io::ByteOrder::Big);
    case SnapshotFormat::TipsyNative:
        return io::writeTipsy(out, snapshot, io::ByteOrder::Little);
    case SnapshotFormat::Hdf5:
        return io::writeGadgetHdf5(out, snapshot);
    case SnapshotFormat::Csv:
        return io::writeCsv(out, snapshot);
    }
    throw std::invalid_argument("writeSnapshot: format " + std::to_string(int(format)) + " is no SnapshotFormat");
}

Snapshot readIn(SnapshotFormat format, const std::filesystem::path& file) {
    switch (format) {
    case SnapshotFormat::Tipsy:
        return io::readTipsy(file, io::ByteOrder::Big);
    case SnapshotFormat::TipsyNative:
        return io::readTipsy(file, io::ByteOrder::Little);
    case SnapshotFormat::Hdf5:
        return io::readGadgetHdf5(file);
    case SnapshotFormat::Csv:
        return io::readCsv(file);
    }
    throw std::invalid_argument("readSnapshot: format " + std::to_string(int(format)) + " is no SnapshotFormat");
}

} // namespace

SnapshotFormat detectSnapshotFormat(const std::filesystem::path& file) {
    const io::MappedFile mapped(file); // a missing or unreadable file is named here, with the system's reason
    if (io::hasHdf5Signature(file))
        return SnapshotFormat::Hdf5;
    if (const std::optional<io::ByteOrder> order = io::tipsyByteOrder(mapped.bytes()))
        return *order == io::ByteOrder::Big ? SnapshotFormat::Tipsy : SnapshotFormat::TipsyNative;
    if (io::looksLikeCsv(mapped.bytes()) || lowercaseExtension(file) == ".csv")
        return SnapshotFormat::Csv;
    throw SnapshotError(file, "cannot tell its format: not HDF5 (no signature), not tipsy (the header's counts make "
                              "sense in neither byte order), not CSV (no header row x,y,z,vx,vy,vz,m[,id]); " +
                                  formatOptionHint());
}

SnapshotFormat snapshotFormatForName(const std::filesystem::path& file) {
    const std::string extension = lowercaseExtension(file);
    for (const ExtensionFormat& known : kExtensions)
        if (known.extension == extension)
            return known.format;
    const std::string what = extension.empty() ? "the name has no extension" : "the extension " + extension;
    throw SnapshotError(file, "cannot tell which format to write: " + what + " is none of " + knownExtensions() + "; " +
                                  formatOptionHint());
}

Snapshot readSnapshot(const std::filesystem::path& file, std::optional<SnapshotFormat> format) {
    try {
        return readIn(format ? *format : detectSnapshotFormat(file), file);
    } catch (const std::bad_alloc&) {
        throw SnapshotError(file, "not enough memory to read it");
    }
}

void writeSnapshot(const std::filesystem::path& file, const Snapshot& snapshot, std::optional<SnapshotFormat> format) {
    const SnapshotFormat chosen = format ? *format : snapshotFormatForName(file);
    if (!snapshot.bodies.consistent())
        throw std::invalid_argument("writeSnapshot: the body arrays have different sizes");
    if (snapshot.bodies.size() == 0)
        throw SnapshotError(file, "no bodies to write");
    if (snapshot.bodies.size() > kMaxSnapshotBodies)
        throw SnapshotError(file, std::to_string(snapshot.bodies.size()) + " bodies: more than the " +
                                      std::to_string(kMaxSnapshotBodies) + " a snapshot may hold");
    try {
        AtomicFile out(file, chosen == SnapshotFormat::Hdf5 ? AtomicFile::Mode::ByName : AtomicFile::Mode::Stream);
        writeIn(chosen, out, snapshot);
        out.commit();
    } catch (const FileWriteError& error) {
        throw SnapshotError(file, error.reason());
    }
}

} // namespace gravlab
