#pragma once
// Helpers shared by the test binaries: a fresh random seed per run and a temporary folder.
#include <cstdint>
#include <filesystem>
#include <string>

namespace gravlab::test {

/// A seed that differs between runs; tests print it with SCOPED_TRACE so a failure can be replayed.
std::uint64_t freshSeed();

/// "test input seed = N (replay with GRAVLAB_TEST_SEED=N)", for SCOPED_TRACE.
std::string seedTrace(std::uint64_t seed);

/// A fresh, empty folder under the system temp folder, removed with its contents by the destructor.
class TemporaryFolder {
public:
    TemporaryFolder();
    ~TemporaryFolder();
    TemporaryFolder(const TemporaryFolder&) = delete;
    TemporaryFolder& operator=(const TemporaryFolder&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

} // namespace gravlab::test
