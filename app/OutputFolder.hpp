#pragma once
// The folders frames and movies go to: created when missing, checked for writing before any simulation work; the
// names of frame files and of the window's recordings.
#include <cstddef>
#include <ctime>
#include <filesystem>
#include <string>
#include <string_view>

namespace gravlab {

/// Creates folder (and its parents) when missing and proves it writable by creating and removing a probe file;
/// throws UsageError ("--out: ...", with the flag that named the folder) naming the folder and the reason otherwise.
void prepareOutputFolder(const std::filesystem::path& folder, std::string_view flag = "--out");

/// "frame_00042.png": zero-padded to at least 5 digits and to the digits of the last index, so names sort in order.
std::string frameFileName(std::size_t frameIndex, std::size_t frameCount);

/// A movie name in folder for a recording started at time, "gravlab_20250314_093005.mp4", with "_2", "_3", ...
/// before the extension when that name is taken.
std::filesystem::path recordingFileName(const std::filesystem::path& folder, std::time_t time);
/// A screenshot name in folder, "gravlab_screenshot_20250314_093005.png", numbered like recordingFileName.
std::filesystem::path screenshotFileName(const std::filesystem::path& folder, std::time_t time);

} // namespace gravlab
