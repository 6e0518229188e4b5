// Output folder preparation and frame file names.
#include "OutputFolder.hpp"

#include "CommandLine.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <system_error>

namespace gravlab {

void prepareOutputFolder(const std::filesystem::path& folder) {
    namespace fs = std::filesystem;
    if (folder.empty())
        throw UsageError("--out: the output folder name is empty");
    std::error_code error;
    const bool exists = fs::exists(folder, error);
    if (exists && !fs::is_directory(folder, error))
        throw UsageError("--out: " + folder.string() + " exists and is not a folder; choose another --out");
    if (!exists && !fs::create_directories(folder, error) && error)
        throw UsageError("--out: cannot create the folder " + folder.string() + ": " + error.message());

    const fs::path probe = folder / ".gravlab-write-check";
    {
        std::ofstream file(probe);
        if (!file || !(file << "gravlab\n") || !file.flush())
            throw UsageError("--out: cannot write into the folder " + folder.string() +
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

} // namespace gravlab
