#pragma once
// Rendered frames in memory, and written as PNG files.
//
// Design note: every ImageRgba8 in Gravlab is stored top row first; FramebufferReadback turns GL's bottom-up rows
// around while copying them out. PNG encoding is stb_image_write, compiled in Image.cpp and nowhere else, with two
// choices made for speed: stb's deflate is replaced by zlib's at level 1 (stb's hook STBIW_ZLIB_COMPRESS), and every
// row is stored unfiltered instead of trying stb's five filters per row. On a 1920x1080 frame of a million bodies
// (black sky, noisy stars) stb's defaults took 143 ms and 1.45 MB; zlib level 1 unfiltered takes 31 ms and 0.96 MB:
// the sky compresses best unfiltered, and the filter search alone cost a third of the time. stb's own deflate at its
// lowest level (5) with no filter still took 78 ms. The file is written through AtomicFile, so it is either complete
// under its name or absent, and a full disk is an error instead of a truncated frame.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace gravlab {

struct ImageRgba8 {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels; ///< width * height * 4 bytes, rows top to bottom, RGBA

    const std::uint8_t* pixel(int x, int y) const {
        return pixels.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + x) * 4;
    }
};

/// Writes image as a PNG file, complete or not at all; throws FileWriteError (AtomicFile.hpp) naming path and the
/// reason when it cannot be written.
void writePng(const std::filesystem::path& path, const ImageRgba8& image);

} // namespace gravlab
