#pragma once
// A file's bytes, read-only, for the snapshot readers.
//
// Design note: the readers parse a span of the whole file (SnapshotFormats.hpp), so that the same code runs on fuzzer
// input. Mapping the file gives that span without a copy and without allocating the file's size on the heap: pages
// are read as the parser reaches them (sequential read-ahead is requested) and count as page cache, not as the
// process's memory, next to the bodies that are being filled. An empty file maps to an empty span (mmap refuses a
// length of 0). A file that another process shortens while it is mapped would fault; snapshots are not written in
// place (AtomicFile renames finished files over the old ones), so the mapped file keeps its size.
#include <cstddef>
#include <filesystem>
#include <span>

namespace gravlab::io {

class MappedFile {
public:
    /// Maps the whole file; throws SnapshotError naming the file and the system's reason (missing, unreadable, a
    /// folder).
    explicit MappedFile(const std::filesystem::path& file);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    std::span<const std::byte> bytes() const { return {m_data, m_size}; }

private:
    const std::byte* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace gravlab::io
