// libFuzzer target: the CSV parser on arbitrary bytes, with the checks of FuzzSupport.hpp. The format detection's
// test (looksLikeCsv) runs on every input too.
#include "FuzzSupport.hpp"
#include "io/SnapshotFormats.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

using namespace gravlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
    io::looksLikeCsv(bytes);
    std::optional<Snapshot> snapshot;
    try {
        snapshot = io::parseCsv(bytes, "input");
    } catch (const SnapshotError&) {
        return 0;
    }
    fuzz::requireValid(*snapshot);
    fuzz::requireRoundTrip(*snapshot, "round_trip.csv", io::writeCsv, io::readCsv);
    return 0;
}
