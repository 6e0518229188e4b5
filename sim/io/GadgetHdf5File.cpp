// GADGET-4 / SWIFT / AREPO snapshots on disk and in memory: where the pieces of a snapshot come from, and the HDF5
// signature that tells the format.
//
// Design note: the reader itself (GadgetHdf5Reader.cpp) does not know where bytes come from; this file gives it the
// pieces. On disk, a snapshot split over n files is named NAME.0.hdf5 .. NAME.{n-1}.hdf5 (GADGET's convention, kept
// by AREPO and SWIFT): given any piece, the number before the extension says which one it is and the Header's
// NumFilesPerSnapshot how many there are, and every piece must be there before anything is read. In memory, the
// bytes of one file are opened through libhdf5's core driver, which copies the image and touches no file. libhdf5's
// own error printing is off while either runs; its messages end up in the SnapshotError instead.
#include "io/GadgetHdf5Image.hpp"
#include "io/GadgetHdf5Reader.hpp"
#include "io/Hdf5Handles.hpp"
#include "io/SnapshotFormats.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <fstream>
#include <system_error>
#include <unistd.h>

namespace gravlab::io {
namespace {

/// The eight bytes every HDF5 file starts with, at offset 0 or, after a user block, at 512, 1024, 2048, ...
constexpr std::array<unsigned char, 8> kHdf5Signature{0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
/// How much the core driver grows its in-memory file by (unused when reading, but libhdf5 wants a value).
constexpr std::size_t kCoreDriverIncrement = std::size_t{1} << 16;

/// The name libhdf5 is given for a file image. It must not exist on disk (libhdf5 refuses to open an image under the
/// name of an existing file) and must differ between images open at once (libhdf5 takes two open files of one name
/// for the same file). /nonexistent is the folder Debian reserves for never existing.
std::string imageNameForLibhdf5() {
    static std::atomic<std::uint64_t> counter{0};
    return "/nonexistent/gravlab-file-image-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

Hdf5File openOnDisk(const std::filesystem::path& piece) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(piece, error))
        throw SnapshotError(piece, "there is no such file");
    if (!hasHdf5Signature(piece))
        throw SnapshotError(piece, "this is not an HDF5 file: it does not carry the HDF5 signature");
    Hdf5File file(H5Fopen(piece.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    if (!file.valid())
        throw SnapshotError(piece, "the HDF5 file is damaged or cut short: " + hdf5ErrorText());
    return file;
}

/// NAME.0.EXT .. NAME.{count-1}.EXT from any one of them; throws when the name does not follow that pattern or when
/// a piece is missing.
std::vector<std::filesystem::path> piecesOnDisk(const std::filesystem::path& given, std::uint64_t count) {
    const std::string extension = given.extension().string();
    const std::filesystem::path stem = given.stem();
    const std::string index = stem.extension().string(); // ".3" of "snap_000.3"
    const bool numbered = index.size() > 1 && index.size() <= 10 &&
                          std::all_of(index.begin() + 1, index.end(), [](char c) { return std::isdigit(c) != 0; });
    const std::string pattern = stem.stem().string() + ".0" + extension + " to " + stem.stem().string() + "." +
                                std::to_string(count - 1) + extension;
    if (!numbered || std::stoull(index.substr(1)) >= count)
        throw SnapshotError(given, "Header NumFilesPerSnapshot says the snapshot is split into " +
                                       std::to_string(count) + " files, but this name is not one of " + pattern);
    std::vector<std::filesystem::path> pieces;
    for (std::uint64_t piece = 0; piece < count; ++piece) {
        pieces.push_back(given.parent_path() / (stem.stem().string() + "." + std::to_string(piece) + extension));
        std::error_code error;
        if (!std::filesystem::is_regular_file(pieces.back(), error))
            throw SnapshotError(pieces.back(), "this piece of a split snapshot is missing: Header NumFilesPerSnapshot "
                                               "of " +
                                                   given.filename().string() + " says there are " +
                                                   std::to_string(count) + " (" + pattern + ")");
    }
    return pieces;
}

} // namespace

bool hasHdf5Signature(const std::filesystem::path& file) {
    std::error_code error;
    const std::uintmax_t size = std::filesystem::file_size(file, error);
    std::ifstream in(file, std::ios::binary);
    if (error || !in)
        return false;
    for (std::uintmax_t offset = 0; offset + kHdf5Signature.size() <= size; offset = offset == 0 ? 512 : 2 * offset) {
        std::array<unsigned char, kHdf5Signature.size()> bytes{};
        in.seekg(std::streamoff(offset));
        if (!in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size())))
            return false;
        if (bytes == kHdf5Signature)
            return true;
    }
    return false;
}

Snapshot readGadgetHdf5(const std::filesystem::path& file) {
    const Hdf5Session session;
    const Hdf5PieceSource source{file, openOnDisk, [&file](std::uint64_t count) { return piecesOnDisk(file, count); }};
    return readGadgetHdf5Pieces(source, kMaxSnapshotBodies);
}

Snapshot readGadgetHdf5Image(std::span<const std::byte> image, const std::filesystem::path& name,
                             std::uint64_t maxBodies) {
    const Hdf5Session session;
    const auto open = [&](const std::filesystem::path&) {
        if (image.empty())
            throw SnapshotError(name, "the file image is empty");
        const Hdf5PropertyList access(H5Pcreate(H5P_FILE_ACCESS));
        // libhdf5 copies the image (its default callbacks), so it never writes through the pointer it is given.
        if (!access.valid() || H5Pset_fapl_core(access.get(), kCoreDriverIncrement, false) < 0 ||
            H5Pset_file_image(access.get(), const_cast<std::byte*>(image.data()), image.size()) < 0)
            throw SnapshotError(name, "libhdf5 cannot take the file image: " + hdf5ErrorText());
        Hdf5File file(H5Fopen(imageNameForLibhdf5().c_str(), H5F_ACC_RDONLY, access.get()));
        if (!file.valid())
            throw SnapshotError(name, "the HDF5 file image is damaged or cut short: " + hdf5ErrorText());
        return file;
    };
    const auto pieces = [&](std::uint64_t count) -> std::vector<std::filesystem::path> {
        throw SnapshotError(name, "the image is one piece of a snapshot split into " + std::to_string(count) +
                                      " files (Header NumFilesPerSnapshot); read it from disk so the other pieces "
                                      "can be found");
    };
    return readGadgetHdf5Pieces(Hdf5PieceSource{name, open, pieces}, maxBodies);
}

} // namespace gravlab::io
