#pragma once
// The folder headless frames go to: created when missing, checked for writing before any simulation work.
#include <cstddef>
#include <filesystem>
#include <string>

namespace gravlab {

/// Creates folder (and its parents) when missing and proves it writable by creating and removing a probe file;
/// throws UsageError ("--out: ...") naming the folder and the reason otherwise.
void prepareOutputFolder(const std::filesystem::path& folder);

/// "frame_00042.png": zero-padded to at least 5 digits and to the digits of the last index, so names sort in order.
std::string frameFileName(std::size_t frameIndex, std::size_t frameCount);

} // namespace gravlab
