#pragma once
// Bodies as byte records, the form in which they travel between ranks (DistributedOrb's all-to-all).
//
// Design note: a record is one body's value from every per-body array of Bodies, in forEachBodyArray's order, then
// the floats the caller carries with each body (its work weight first, then e.g. the previous acceleration that the
// relative opening criterion reads), floatsPerBody of them, stored body-major in one array. Packing names no array, so
// an array that Bodies gains travels without a change here. Records are written array-major (one array at a time into
// every record's slot for it), which keeps the inner loops on one contiguous array. Bodies that stay on their rank are
// never packed: they are compacted in place and the arrivals are written around them, so the arrays end up ordered by
// source rank, then in the sender's order. Whether records carry the six low parts of double precision is part of the
// layout and must be the same on every rank: a rank left without bodies has empty low arrays and cannot tell by itself,
// so the caller agrees on it collectively and passes it in.
#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gravlab {

/// Bytes of one record: every per-body array's element, the low parts when withLowParts, and floatsPerBody floats.
std::size_t bodyRecordBytes(bool withLowParts, std::size_t floatsPerBody = 1);

/// Records of the bodies for each destination: out[d] holds, in index order, every body i with destination[i] == d,
/// except for keptDestination (this rank), whose bodies stay in the arrays and get no record. floats holds
/// floatsPerBody values per body (body i's from i * floatsPerBody). Throws std::invalid_argument when the arrays,
/// floats and destination differ in length, the bodies' low parts disagree with withLowParts, or a destination is not
/// below destinationCount.
std::vector<std::vector<std::byte>> packBodyRecords(const Bodies& bodies, std::span<const float> floats,
                                                    std::span<const std::uint32_t> destination,
                                                    std::size_t destinationCount, std::uint32_t keptDestination,
                                                    bool withLowParts, std::size_t floatsPerBody = 1);

/// Keeps the bodies with destination[i] == keptDestination, in their order, and makes room around them: afterwards
/// bodies and floats hold arrivalsBefore slots to fill, the kept bodies, then arrivalsAfter slots (low arrays present
/// exactly when withLowParts and any body is left). The arrays must match destination in length.
void keepBodiesAmongArrivals(Bodies& bodies, std::vector<float>& floats, std::span<const std::uint32_t> destination,
                             std::uint32_t keptDestination, std::size_t arrivalsBefore, std::size_t arrivalsAfter,
                             bool withLowParts, std::size_t floatsPerBody = 1);

/// Writes the records in bytes into bodies and floats at indices first, first + 1, ... (slots made by
/// keepBodiesAmongArrivals). Throws std::invalid_argument when bytes is not a whole number of records or the records
/// do not fit.
void unpackBodyRecords(std::span<const std::byte> bytes, bool withLowParts, Bodies& bodies, std::vector<float>& floats,
                       std::size_t first, std::size_t floatsPerBody = 1);

} // namespace gravlab
