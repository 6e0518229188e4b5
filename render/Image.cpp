// PNG output: stb_image_write with zlib's deflate, written through AtomicFile (see Image.hpp); the single translation
// unit that compiles stb_image_write.
#include <gravlab/render/Image.hpp>
#include <gravlab/sim/AtomicFile.hpp>

#include <cstdlib>
#include <exception>
#include <string>
#include <zlib.h>

namespace gravlab {
namespace {

/// zlib's speed-first level: see the measurements in Image.hpp.
constexpr int kPngZlibLevel = 1;

/// stb's deflate hook: a zlib stream (header, deflate data, Adler-32), as PNG's IDAT wants, in memory stb frees with
/// free(); null when compression fails, which stb reports as a failed write.
unsigned char* deflateWithZlib(const unsigned char* data, int length, int* compressedLength, int /*stbQuality*/) {
    uLongf capacity = compressBound(static_cast<uLong>(length));
    auto* compressed = static_cast<unsigned char*>(std::malloc(capacity));
    if (compressed == nullptr)
        return nullptr;
    if (compress2(compressed, &capacity, data, static_cast<uLong>(length), kPngZlibLevel) != Z_OK) {
        std::free(compressed);
        return nullptr;
    }
    *compressedLength = static_cast<int>(capacity);
    return compressed;
}

} // namespace
} // namespace gravlab

#define STBIW_ZLIB_COMPRESS gravlab::deflateWithZlib
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace gravlab {
namespace {

/// stb's row filter, a global of its implementation above: 0 stores every row unfiltered (see Image.hpp). Set once,
/// before the first encoding, through a thread-safe static so that concurrent writers only ever read it.
void useUnfilteredRows() {
    static const bool set = [] {
        stbi_write_force_png_filter = 0;
        return true;
    }();
    static_cast<void>(set);
}

/// Where stb hands over the finished PNG: into the temporary file, keeping the first failure for after stb returns
/// (stb is C: nothing may be thrown through it).
struct PngSink {
    AtomicFile* file;
    std::exception_ptr failure;
};

void writeToSink(void* context, void* data, int size) {
    auto* sink = static_cast<PngSink*>(context);
    if (sink->failure)
        return;
    try {
        sink->file->write(data, static_cast<std::size_t>(size));
    } catch (...) {
        sink->failure = std::current_exception();
    }
}

} // namespace

void writePng(const std::filesystem::path& path, const ImageRgba8& image) {
    useUnfilteredRows();
    AtomicFile file(path);
    PngSink sink{&file, nullptr};
    const int encoded =
        stbi_write_png_to_func(writeToSink, &sink, image.width, image.height, 4, image.pixels.data(), image.width * 4);
    if (sink.failure)
        std::rethrow_exception(sink.failure);
    if (encoded == 0)
        throw FileWriteError(path, "PNG encoding of the " + std::to_string(image.width) + "x" +
                                       std::to_string(image.height) + " image failed (out of memory?)");
    file.commit();
}

} // namespace gravlab
