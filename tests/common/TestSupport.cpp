// Seeds and temporary folders for the tests.
#include "TestSupport.hpp"

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <system_error>

namespace gravlab::test {

std::uint64_t freshSeed() {
    if (const char* replay = std::getenv("GRAVLAB_TEST_SEED"))
        return std::strtoull(replay, nullptr, 10);
    std::random_device device;
    const auto clock = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    return (std::uint64_t{device()} << 32) ^ device() ^ clock;
}

TemporaryFolder::TemporaryFolder() {
    std::mt19937_64 random(freshSeed());
    m_path = std::filesystem::temp_directory_path() / ("gravlab_test_" + std::to_string(random()));
    std::filesystem::create_directories(m_path);
}

TemporaryFolder::~TemporaryFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

std::string seedTrace(std::uint64_t seed) {
    return "test input seed = " + std::to_string(seed) + " (replay with GRAVLAB_TEST_SEED=" + std::to_string(seed) +
           ")";
}

} // namespace gravlab::test
