#pragma once
// Helpers of the frame-output tests: independent readers of what the writers produced (stb_image for PNG files,
// ffprobe and ffmpeg for movies), random frames, the PATH seen by child processes, and a tiny tmpfs to fill up.
#include <gravlab/render/Image.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace gravlab::test {

/// A width x height frame of random pixels (alpha included): incompressible, so its PNG is as large as the pixels.
ImageRgba8 randomFrame(std::mt19937_64& random, int width, int height);

/// A frame whose top half is top and bottom half is bottom (RGB; alpha 255): survives lossy video encoding closely,
/// and tells the rows' order.
ImageRgba8 twoToneFrame(int width, int height, const std::array<std::uint8_t, 3>& top,
                        const std::array<std::uint8_t, 3>& bottom);

/// Decodes a PNG with stb_image (independent of stb_image_write and zlib, which wrote it); empty when it cannot.
std::optional<ImageRgba8> decodePng(const std::filesystem::path& path);

/// ffprobe's "width,height,frames" of the movie's first video stream, frames counted by decoding; empty when ffprobe
/// fails.
std::optional<std::string> probeMovie(const std::filesystem::path& movie);

/// Frame index's pixels decoded by ffmpeg as RGB24, rows top first; empty when ffmpeg fails.
std::optional<std::vector<std::uint8_t>> decodeMovieFrame(const std::filesystem::path& movie, int index, int width,
                                                          int height);

/// The names in folder, sorted (hidden temporary files included).
std::vector<std::string> folderEntries(const std::filesystem::path& folder);

/// Sets PATH for the scope (child processes and findOnPath see it) and restores the previous value.
class ScopedPath {
public:
    explicit ScopedPath(const std::string& path);
    ~ScopedPath();
    ScopedPath(const ScopedPath&) = delete;
    ScopedPath& operator=(const ScopedPath&) = delete;

private:
    std::optional<std::string> m_previous;
};

/// An executable shell script at path with body (after "#!/bin/sh").
void writeScript(const std::filesystem::path& path, const std::string& body);

/// A tmpfs of a few kilobytes mounted on a fresh folder, unmounted by the destructor; mounting needs root, so
/// skipReason() says why when it could not be mounted.
class TinyTmpfs {
public:
    explicit TinyTmpfs(std::size_t kilobytes);
    ~TinyTmpfs();
    TinyTmpfs(const TinyTmpfs&) = delete;
    TinyTmpfs& operator=(const TinyTmpfs&) = delete;
    bool mounted() const { return m_mounted; }
    const std::string& skipReason() const { return m_skipReason; }
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
    bool m_mounted = false;
    std::string m_skipReason;
};

} // namespace gravlab::test
