// Output folder preparation, frame file names and recording names.
#include "OutputFolder.hpp"

#include "CommandLine.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <system_error>

namespace gravlab {

void prepareOutputFolder(const std::filesystem::path& folder, std::string_view flag) {
    namespace fs = std::filesystem;
    const std::string prefix = std::string(flag) + ": ";
    if (folder.empty())
        throw UsageError(prefix + "the output folder name is empty");
    std::error_code error;
    const bool exists = fs::exists(folder, error);
    if (exists && !fs::is_directory(folder, error))
        throw UsageError(prefix + folder.string() + " exists and is not a folder; choose another " + std::string(flag));
    if (!exists && !fs::create_directories(folder, error) && error)
        throw UsageError(prefix + "cannot create the folder " + folder.string() + ": " + error.message());

    const fs::path probe = folder / ".gravlab-write-check";
    {
        std::ofstream file(probe);
        if (!file || !(file << "gravlab\n") || !file.flush())
            throw UsageError(prefix + "cannot write into the folder " + folder.string() +
                             " (check its permissions and free space)");
    }
    fs::remove(probe, error);
}

std::string frameFileName(std::size_t frameIndex, std::size_t frameCount) {
    const std::size_t lastIndex = frameCount > 0 ? frameCount - 1 : 0;
    const int digits = std::max(5, static_cast<int>(std::to_string(lastIndex).size()));
    char name[64];
    std::snprintf(name, sizeof(name), "frame_%0*zu.png", digits, frameIndex);
    return name;
}

namespace {

/// folder / "<prefix>_YYYYmmdd_HHMMSS<extension>", with "_2", "_3", ... before the extension when that name is taken.
std::filesystem::path timestampedFileName(const std::filesystem::path& folder, std::time_t time, const char* prefix,
                                          const std::string& extension) {
    std::tm local{};
    localtime_r(&time, &local);
    char stamp[32];
    std::strftime(stamp, sizeof(stamp), "_%Y%m%d_%H%M%S", &local);
    const std::string stem = prefix + std::string(stamp);
    std::filesystem::path candidate = folder / (stem + extension);
    std::error_code ignored;
    for (int suffix = 2; std::filesystem::exists(candidate, ignored); ++suffix)
        candidate = folder / (stem + "_" + std::to_string(suffix) + extension);
    return candidate;
}

} // namespace

std::filesystem::path recordingFileName(const std::filesystem::path& folder, std::time_t time) {
    return timestampedFileName(folder, time, "gravlab", ".mp4");
}

std::filesystem::path screenshotFileName(const std::filesystem::path& folder, std::time_t time) {
    return timestampedFileName(folder, time, "gravlab_screenshot", ".png");
}

} // namespace gravlab
