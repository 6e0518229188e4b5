#include "distributed/BodyRecords.hpp"

#include <algorithm>
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
        for (auto* low : lowPartArrays(bodies))
            low->resize(count);
    bodies.resize(count);
    return bodies;
}

template <typename Array> constexpr std::size_t elementBytes() {
    return sizeof(typename std::remove_cvref_t<Array>::value_type);
}

} // namespace

std::size_t bodyRecordBytes(bool withLowParts, std::size_t floatsPerBody) {
    // One body (a zero count would leave the low arrays empty, and with them the low parts out of the layout).
    const Bodies probe = bodiesWithLayout(1, withLowParts);
    std::size_t bytes = floatsPerBody * sizeof(float);
    forEachBodyArray(probe, [&](const auto& array) { bytes += elementBytes<decltype(array)>(); });
    return bytes;
}

std::vector<std::vector<std::byte>> packBodyRecords(const Bodies& bodies, std::span<const float> floats,
                                                    std::span<const std::uint32_t> destination,
                                                    std::size_t destinationCount, std::uint32_t keptDestination,
                                                    bool withLowParts, std::size_t floatsPerBody) {
    const std::size_t count = bodies.size();
    if (!bodies.consistent() || floats.size() != count * floatsPerBody || destination.size() != count)
        throw std::invalid_argument("body records: " + std::to_string(count) + " bodies (arrays consistent: " +
                                    std::to_string(bodies.consistent()) + ") with " + std::to_string(floats.size()) +
                                    " carried floats (" + std::to_string(floatsPerBody) + " per body) and " +
                                    std::to_string(destination.size()) + " destinations");
    if (count > 0 && bodies.hasLowParts() != withLowParts)
        throw std::invalid_argument(std::string("body records: the bodies ") +
                                    (withLowParts ? "lack the low parts" : "carry low parts") +
                                    " the other ranks' bodies " + (withLowParts ? "carry" : "lack"));
    const std::size_t recordBytes = bodyRecordBytes(withLowParts, floatsPerBody);
    std::vector<std::size_t> filled(destinationCount, 0);
    for (std::size_t i = 0; i < count; ++i) {
        if (destination[i] >= destinationCount)
            throw std::invalid_argument("body records: body " + std::to_string(i) + " goes to rank " +
                                        std::to_string(destination[i]) + " of " + std::to_string(destinationCount));
        filled[destination[i]] += destination[i] == keptDestination ? 0 : 1;
    }
    std::vector<std::vector<std::byte>> out(destinationCount);
    for (std::size_t d = 0; d < destinationCount; ++d)
        out[d].resize(filled[d] * recordBytes);
    // recordOf[k]: where the record of the k-th body that leaves begins.
    std::vector<std::size_t> leaving;
    std::vector<std::byte*> recordOf;
    std::fill(filled.begin(), filled.end(), 0);
    for (std::size_t i = 0; i < count; ++i)
        if (destination[i] != keptDestination) {
            leaving.push_back(i);
            recordOf.push_back(out[destination[i]].data() + recordBytes * filled[destination[i]]++);
        }
    std::size_t offset = 0;
    const auto write = [&]<typename Value>(const Value* values, std::size_t perBody) {
        for (std::size_t k = 0; k < leaving.size(); ++k)
            std::memcpy(recordOf[k] + offset, values + leaving[k] * perBody, perBody * sizeof(Value));
        offset += perBody * sizeof(Value);
    };
    forEachBodyArray(bodies, [&](const auto& array) { write(array.data(), 1); });
    write(floats.data(), floatsPerBody);
    return out;
}

void keepBodiesAmongArrivals(Bodies& bodies, std::vector<float>& floats, std::span<const std::uint32_t> destination,
                             std::uint32_t keptDestination, std::size_t arrivalsBefore, std::size_t arrivalsAfter,
                             bool withLowParts, std::size_t floatsPerBody) {
    std::size_t kept = 0;
    for (const std::uint32_t d : destination)
        kept += d == keptDestination ? 1 : 0;
    const std::size_t total = arrivalsBefore + kept + arrivalsAfter;
    const auto keep = [&](auto& array, std::size_t perBody) {
        std::remove_cvref_t<decltype(array)> arranged(total * perBody);
        std::size_t slot = arrivalsBefore;
        for (std::size_t i = 0; i < destination.size(); ++i)
            if (destination[i] == keptDestination) {
                std::copy_n(array.begin() + std::ptrdiff_t(i * perBody), perBody,
                            arranged.begin() + std::ptrdiff_t(slot * perBody));
                ++slot;
            }
        array.swap(arranged);
    };
    forEachBodyArray(bodies, [&](auto& array) { keep(array, 1); });
    keep(floats, floatsPerBody);
    // A rank that held no bodies had no low arrays for the visit to find.
    if (withLowParts)
        for (auto* low : lowPartArrays(bodies))
            low->resize(total);
}

void unpackBodyRecords(std::span<const std::byte> bytes, bool withLowParts, Bodies& bodies, std::vector<float>& floats,
                       std::size_t first, std::size_t floatsPerBody) {
    const std::size_t recordBytes = bodyRecordBytes(withLowParts, floatsPerBody);
    const std::size_t count = bytes.size() / recordBytes;
    if (bytes.size() % recordBytes != 0 || first + count > bodies.size() ||
        floats.size() != bodies.size() * floatsPerBody || (count > 0 && bodies.hasLowParts() != withLowParts))
        throw std::invalid_argument("body records: " + std::to_string(bytes.size()) + " bytes of records of " +
                                    std::to_string(recordBytes) + " do not fit from body " + std::to_string(first) +
                                    " of " + std::to_string(bodies.size()));
    std::size_t offset = 0;
    const auto read = [&]<typename Value>(Value* values, std::size_t perBody) {
        for (std::size_t i = 0; i < count; ++i)
            std::memcpy(values + (first + i) * perBody, bytes.data() + i * recordBytes + offset,
                        perBody * sizeof(Value));
        offset += perBody * sizeof(Value);
    };
    forEachBodyArray(bodies, [&](auto& array) { read(array.data(), 1); });
    read(floats.data(), floatsPerBody);
}

} // namespace gravlab
