// libFuzzer target: the tipsy parser on arbitrary bytes, in both byte orders. Besides the checks of FuzzSupport.hpp,
// an input parsed in a byte order must be one that tipsyByteOrder (the format detection) reports.
#include "FuzzSupport.hpp"
#include "io/SnapshotFormats.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

using namespace gravlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
    const std::optional<io::ByteOrder> detected = io::tipsyByteOrder(bytes);
    for (const io::ByteOrder order : {io::ByteOrder::Big, io::ByteOrder::Little}) {
        std::optional<Snapshot> snapshot;
        try {
            snapshot = io::parseTipsy(bytes, order, "input");
        } catch (const SnapshotError&) {
            continue;
        }
        if (detected != order)
            fuzz::fail("parsed in a byte order that detection does not report");
        fuzz::requireValid(*snapshot);
        fuzz::requireRoundTrip(
            *snapshot, "round_trip.tipsy",
            [order](AtomicFile& out, const Snapshot& s) { io::writeTipsy(out, s, order); },
            [order](const std::filesystem::path& file) { return io::readTipsy(file, order); });
    }
    return 0;
}
