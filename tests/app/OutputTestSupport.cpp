// Frame-output test helpers; the single translation unit of the app tests that compiles stb_image.
#include "OutputTestSupport.hpp"

#include <TestSupport.hpp>
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/mount.h>

#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

namespace gravlab::test {
namespace {

/// Runs command through the shell and returns its standard output, or nothing when it fails.
std::optional<std::string> commandOutput(const std::string& command) {
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr)
        return std::nullopt;
    std::string output;
    std::array<char, 4096> chunk{};
    std::size_t got = 0;
    while ((got = std::fread(chunk.data(), 1, chunk.size(), pipe)) > 0)
        output.append(chunk.data(), got);
    if (::pclose(pipe) != 0)
        return std::nullopt;
    return output;
}

std::string quoted(const std::filesystem::path& path) {
    std::string text = "'";
    for (const char c : path.string())
        text += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return text + "'";
}

} // namespace

ImageRgba8 randomFrame(std::mt19937_64& random, int width, int height) {
    ImageRgba8 image;
    image.width = width;
    image.height = height;
    image.pixels.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
    std::uniform_int_distribution<int> byte(0, 255);
    for (std::uint8_t& value : image.pixels)
        value = static_cast<std::uint8_t>(byte(random));
    return image;
}

ImageRgba8 twoToneFrame(int width, int height, const std::array<std::uint8_t, 3>& top,
                        const std::array<std::uint8_t, 3>& bottom) {
    ImageRgba8 image;
    image.width = width;
    image.height = height;
    image.pixels.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const std::array<std::uint8_t, 3>& colour = y < height / 2 ? top : bottom;
            std::uint8_t* pixel = image.pixels.data() + (static_cast<std::size_t>(y) * width + x) * 4;
            std::copy(colour.begin(), colour.end(), pixel);
            pixel[3] = 255;
        }
    return image;
}

std::optional<ImageRgba8> decodePng(const std::filesystem::path& path) {
    int width = 0, height = 0, channels = 0;
    stbi_uc* data = stbi_load(path.c_str(), &width, &height, &channels, 4);
    if (data == nullptr)
        return std::nullopt;
    ImageRgba8 image;
    image.width = width;
    image.height = height;
    image.pixels.assign(data, data + static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4);
    stbi_image_free(data);
    return image;
}

std::optional<std::string> probeMovie(const std::filesystem::path& movie) {
    std::optional<std::string> output =
        commandOutput("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                      "stream=nb_read_frames,width,height -of csv=p=0 " +
                      quoted(movie));
    if (output)
        output->erase(std::remove_if(output->begin(), output->end(), [](char c) { return c == '\n' || c == '\r'; }),
                      output->end());
    return output;
}

std::optional<std::vector<std::uint8_t>> decodeMovieFrame(const std::filesystem::path& movie, int index, int width,
                                                          int height) {
    const std::optional<std::string> output =
        commandOutput("ffmpeg -v error -i " + quoted(movie) + " -vf 'select=eq(n\\," + std::to_string(index) +
                      ")' -frames:v 1 -f rawvideo -pix_fmt rgb24 -");
    const std::size_t expected = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3;
    if (!output || output->size() != expected)
        return std::nullopt;
    return std::vector<std::uint8_t>(output->begin(), output->end());
}

std::vector<std::string> folderEntries(const std::filesystem::path& folder) {
    std::vector<std::string> names;
    for (const std::filesystem::directory_entry& entry : std::filesystem::directory_iterator(folder))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

ScopedPath::ScopedPath(const std::string& path) {
    if (const char* previous = std::getenv("PATH"))
        m_previous = previous;
    ::setenv("PATH", path.c_str(), 1);
}

ScopedPath::~ScopedPath() {
    if (m_previous)
        ::setenv("PATH", m_previous->c_str(), 1);
    else
        ::unsetenv("PATH");
}

void writeScript(const std::filesystem::path& path, const std::string& body) {
    {
        std::ofstream script(path);
        script << "#!/bin/sh\n" << body;
    }
    std::filesystem::permissions(path, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                           std::filesystem::perms::group_exec);
}

TinyTmpfs::TinyTmpfs(std::size_t kilobytes) {
    std::mt19937_64 random(freshSeed());
    m_path = std::filesystem::temp_directory_path() / ("gravlab_tiny_tmpfs_" + std::to_string(random()));
    std::filesystem::create_directories(m_path);
    const std::string options = "size=" + std::to_string(kilobytes) + "k";
    if (::mount("tmpfs", m_path.c_str(), "tmpfs", 0, options.c_str()) == 0)
        m_mounted = true;
    else
        m_skipReason = "cannot mount a " + std::to_string(kilobytes) + " KiB tmpfs on " + m_path.string() + " (" +
                       std::strerror(errno) + "; mounting needs root), so a full disk cannot be simulated";
}

TinyTmpfs::~TinyTmpfs() {
    if (m_mounted)
        ::umount(m_path.c_str());
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

} // namespace gravlab::test
