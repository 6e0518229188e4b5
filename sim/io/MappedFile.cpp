// MappedFile: the whole file mapped read-only (see MappedFile.hpp).
#include "io/MappedFile.hpp"

#include <gravlab/sim/Snapshot.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gravlab::io {
namespace {

/// Closes the descriptor when the constructor leaves, mapped or not (the mapping keeps the file open by itself).
struct Descriptor {
    int fd;
    ~Descriptor() {
        if (fd >= 0)
            ::close(fd);
    }
};

} // namespace

MappedFile::MappedFile(const std::filesystem::path& file) {
    const Descriptor descriptor{::open(file.c_str(), O_RDONLY | O_CLOEXEC)};
    if (descriptor.fd < 0)
        throw SnapshotError(file, std::string("cannot open it: ") + std::strerror(errno));
    struct stat status {};
    if (::fstat(descriptor.fd, &status) != 0)
        throw SnapshotError(file, std::string("cannot read its size: ") + std::strerror(errno));
    if (!S_ISREG(status.st_mode))
        throw SnapshotError(file, S_ISDIR(status.st_mode) ? "it is a folder, not a file" : "it is not a regular file");
    m_size = static_cast<std::size_t>(status.st_size);
    if (m_size == 0)
        return;
    void* mapping = ::mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, descriptor.fd, 0);
    if (mapping == MAP_FAILED)
        throw SnapshotError(file, std::string("cannot read it: ") + std::strerror(errno));
    ::madvise(mapping, m_size, MADV_SEQUENTIAL); // advice only: reading works the same without it
    m_data = static_cast<const std::byte*>(mapping);
}

MappedFile::~MappedFile() {
    if (m_data != nullptr)
        ::munmap(const_cast<std::byte*>(m_data), m_size);
}

} // namespace gravlab::io
