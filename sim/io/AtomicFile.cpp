// AtomicFile: temporary file beside the target, checked writes, rename on commit (see AtomicFile.hpp).
#include <gravlab/sim/AtomicFile.hpp>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <unistd.h>

namespace gravlab {
namespace {

/// "frame.png" -> ".frame.png.tmp-<pid>-<n>": hidden, unique within the process and across processes.
std::filesystem::path temporaryNameFor(const std::filesystem::path& target) {
    static std::atomic<unsigned> counter{0};
    std::string name = ".";
    name.append(target.filename().string());
    name.append(".tmp-").append(std::to_string(::getpid())).append("-").append(std::to_string(counter++));
    return target.parent_path() / name;
}

} // namespace

FileWriteError::FileWriteError(const std::filesystem::path& file, const std::string& reason)
    : std::runtime_error(file.string() + ": " + reason), m_file(file), m_reason(reason) {}

AtomicFile::AtomicFile(std::filesystem::path target, Mode mode)
    : m_target(std::move(target)), m_temporary(temporaryNameFor(m_target)) {
    if (m_target.filename().empty())
        throw FileWriteError(m_target, "the path names a folder, not a file");
    const std::filesystem::path folder = m_target.parent_path();
    std::error_code error;
    if (!folder.empty() && !std::filesystem::is_directory(folder, error))
        throw FileWriteError(m_target, "the folder " + folder.string() + " does not exist");
    m_stream = std::fopen(m_temporary.c_str(), "wb");
    if (m_stream == nullptr)
        throw FileWriteError(m_target, std::string("cannot create a file there: ") + std::strerror(errno));
    if (mode == Mode::ByName) {
        std::fclose(m_stream); // the library opens the name itself; the empty file reserves it
        m_stream = nullptr;
    }
}

AtomicFile::~AtomicFile() {
    if (m_stream != nullptr)
        std::fclose(m_stream);
    if (!m_committed) {
        std::error_code ignored; // nothing to report from a destructor: the throw that got here says what failed
        std::filesystem::remove(m_temporary, ignored);
    }
}

void AtomicFile::write(const void* data, std::size_t byteCount) {
    if (m_stream == nullptr)
        throw std::logic_error("AtomicFile::write on a file written by name or already committed");
    errno = 0;
    if (byteCount != 0 && std::fwrite(data, 1, byteCount, m_stream) != byteCount)
        fail(errno != 0 ? std::strerror(errno) : "the write was cut short");
}

void AtomicFile::commit() {
    if (m_stream != nullptr) {
        errno = 0;
        const bool flushed = std::fflush(m_stream) == 0;
        const int flushError = errno;
        const bool closed = std::fclose(m_stream) == 0;
        m_stream = nullptr;
        if (!flushed || !closed)
            fail(std::strerror(flushError != 0 ? flushError : errno));
    }
    std::error_code error;
    std::filesystem::rename(m_temporary, m_target, error);
    if (error)
        fail("cannot rename the finished file into place: " + error.message());
    m_committed = true;
}

void AtomicFile::fail(const std::string& reason) {
    if (m_stream != nullptr) {
        std::fclose(m_stream);
        m_stream = nullptr;
    }
    std::error_code ignored;
    std::filesystem::remove(m_temporary, ignored);
    m_committed = true; // nothing left to remove
    throw FileWriteError(m_target, reason);
}

} // namespace gravlab
