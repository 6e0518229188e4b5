#include "distributed/BodyRecords.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace gravlab {
namespace {

/// Empty bodies whose low arrays exist exactly when withLowParts, so forEachBodyArray visits the record's arrays.
Bodies bodiesWithLayout(std::size_t count, bool withLowParts) {
    Bodies bodies;
    if (withLowParts)
        for (auto* low : {&bodies.xLow, &bodies.yLow, &bodies.zLow, &bodies.vxLow, &bodies.vyLow, &bodies.vzLow})
            low->resize(count);
    bodies.resize(count);
    return bodies;
}

template <typename Array> constexpr std::size_t elementBytes() {
    return sizeof(typename std::remove_cvref_t<Array>::value_type);
}

} // namespace

std::size_t bodyRecordBytes(bool withLowParts) {
    // One body (a zero count would leave the low arrays empty, and with them the low parts out of the layout).
    const Bodies probe = bodiesWithLayout(1, withLowParts);
    std::size_t bytes = sizeof(float);
    forEachBodyArray(probe, [&](const auto& array) { bytes += elementBytes<decltype(array)>(); });
    return bytes;
}

std::vector<std::vector<std::byte>> packBodyRecords(const Bodies& bodies, std::span<const float> work,
                                                    std::span<const std::uint32_t> destination,
                                                    std::size_t destinationCount, bool withLowParts) {
    const std::size_t count = bodies.size();
    if (!bodies.consistent() || work.size() != count || destination.size() != count)
        throw std::invalid_argument("body records: " + std::to_string(count) + " bodies (arrays consistent: " +
                                    std::to_string(bodies.consistent()) + ") with " + std::to_string(work.size()) +
                                    " work weights and " + std::to_string(destination.size()) + " destinations");
    if (count > 0 && bodies.hasLowParts() != withLowParts)
        throw std::invalid_argument(std::string("body records: the bodies ") +
                                    (withLowParts ? "lack the low parts" : "carry low parts") +
                                    " the other ranks' bodies " + (withLowParts ? "carry" : "lack"));
    const std::size_t recordBytes = bodyRecordBytes(withLowParts);
    std::vector<std::size_t> slot(count);
    std::vector<std::size_t> filled(destinationCount, 0);
    for (std::size_t i = 0; i < count; ++i) {
        if (destination[i] >= destinationCount)
            throw std::invalid_argument("body records: body " + std::to_string(i) + " goes to rank " +
                                        std::to_string(destination[i]) + " of " + std::to_string(destinationCount));
        slot[i] = filled[destination[i]]++;
    }
    std::vector<std::vector<std::byte>> out(destinationCount);
    for (std::size_t d = 0; d < destinationCount; ++d)
        out[d].resize(filled[d] * recordBytes);
    std::size_t offset = 0;
    const auto write = [&]<typename Value>(const Value* values) {
        for (std::size_t i = 0; i < count; ++i)
            std::memcpy(out[destination[i]].data() + slot[i] * recordBytes + offset, values + i, sizeof(Value));
        offset += sizeof(Value);
    };
    forEachBodyArray(bodies, [&](const auto& array) { write(array.data()); });
    write(work.data());
    return out;
}

void unpackBodyRecords(std::span<const std::byte> bytes, bool withLowParts, Bodies& bodies, std::vector<float>& work) {
    const std::size_t recordBytes = bodyRecordBytes(withLowParts);
    if (bytes.size() % recordBytes != 0)
        throw std::invalid_argument("body records: " + std::to_string(bytes.size()) +
                                    " bytes are not a whole number of records of " + std::to_string(recordBytes));
    const std::size_t count = bytes.size() / recordBytes;
    Bodies unpacked = bodiesWithLayout(count, withLowParts);
    std::vector<float> unpackedWork(count);
    std::size_t offset = 0;
    const auto read = [&]<typename Value>(Value* values) {
        for (std::size_t i = 0; i < count; ++i)
            std::memcpy(values + i, bytes.data() + i * recordBytes + offset, sizeof(Value));
        offset += sizeof(Value);
    };
    forEachBodyArray(unpacked, [&](auto& array) { read(array.data()); });
    read(unpackedWork.data());
    bodies = std::move(unpacked);
    work = std::move(unpackedWork);
}

} // namespace gravlab
