#pragma once
// Writing a file so that it is either complete under its name or not there: snapshots, frames, sessions.
//
// Design note: the bytes go to a temporary file next to the target (same folder, so the final rename is atomic on
// POSIX file systems) and every write, the flush and the close are checked; commit() renames it over the target. An
// AtomicFile destroyed without commit() (a throw on the way) removes the temporary file, so a full disk or a failed
// encoder leaves the previous file, or none, and never a truncated one under the target's name. Libraries that write
// by name (HDF5) write to temporaryPath() and call commit() after closing their handle.
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace gravlab {

/// A write that failed; what() names the file and the reason ("gravlab_frames/frame_00012.png: No space left on
/// device").
class FileWriteError : public std::runtime_error {
public:
    FileWriteError(const std::filesystem::path& file, const std::string& reason);
    const std::filesystem::path& file() const { return m_file; }
    /// what() without the file name ("No space left on device"), for messages that name the file themselves.
    const std::string& reason() const { return m_reason; }

private:
    std::filesystem::path m_file;
    std::string m_reason;
};

class AtomicFile {
public:
    /// How the bytes arrive: through write() (Stream, a FILE opened here) or written by a library to
    /// temporaryPath() (ByName).
    enum class Mode { Stream, ByName };

    /// Creates the temporary file beside target. Throws FileWriteError when the folder does not exist or is not
    /// writable.
    explicit AtomicFile(std::filesystem::path target, Mode mode = Mode::Stream);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// Appends bytes (Stream mode); throws FileWriteError on a short write.
    void write(const void* data, std::size_t byteCount);
    /// Flushes, closes and checks, then renames the temporary file over the target; throws FileWriteError, removing
    /// the temporary file, when any of these fails.
    void commit();

    const std::filesystem::path& target() const { return m_target; }
    const std::filesystem::path& temporaryPath() const { return m_temporary; }

private:
    [[noreturn]] void fail(const std::string& reason);

    std::filesystem::path m_target;
    std::filesystem::path m_temporary;
    std::FILE* m_stream = nullptr;
    bool m_committed = false;
};

} // namespace gravlab
