// Contiguous slices of the loaded bodies per rank (see RankSlices.hpp).
#include "distributed/RankSlices.hpp"

#include <gravlab/sim/SimParams.hpp>

#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace gravlab {

RankSlice contiguousSlice(std::size_t bodyCount, int rank, int rankCount) {
    if (rankCount <= 0 || rank < 0 || rank >= rankCount)
        throw std::invalid_argument("contiguousSlice: rank " + std::to_string(rank) + " of " +
                                    std::to_string(rankCount) + " ranks");
    const auto boundary = [&](int r) { return bodyCount * std::size_t(r) / std::size_t(rankCount); };
    return {boundary(rank), boundary(rank + 1) - boundary(rank)};
}

RankSlice sliceOfRank(std::span<const std::size_t> counts, int rank) {
    if (rank < 0 || std::size_t(rank) >= counts.size())
        throw std::invalid_argument("sliceOfRank: rank " + std::to_string(rank) + " of " +
                                    std::to_string(counts.size()) + " ranks");
    const auto r = std::size_t(rank);
    return {std::accumulate(counts.begin(), counts.begin() + std::ptrdiff_t(r), std::size_t{0}), counts[r]};
}

Bodies singlePrecisionSliceOf(const Bodies& bodies, RankSlice slice) {
    if (slice.begin + slice.count > bodies.size())
        throw std::invalid_argument("singlePrecisionSliceOf: bodies [" + std::to_string(slice.begin) + ", " +
                                    std::to_string(slice.begin + slice.count) + ") of " +
                                    std::to_string(bodies.size()));
    Bodies out;
    const auto copySlice = [&](const auto& from, auto& to) {
        to.assign(from.begin() + std::ptrdiff_t(slice.begin), from.begin() + std::ptrdiff_t(slice.begin + slice.count));
    };
    copySlice(bodies.x, out.x);
    copySlice(bodies.y, out.y);
    copySlice(bodies.z, out.z);
    copySlice(bodies.vx, out.vx);
    copySlice(bodies.vy, out.vy);
    copySlice(bodies.vz, out.vz);
    copySlice(bodies.mass, out.mass);
    copySlice(bodies.colorKey, out.colorKey);
    copySlice(bodies.id, out.id);
    copySlice(bodies.component, out.component);
    return out;
}

void requireLoadableAcrossRanks(const Bodies& bodies, int rankCount) {
    if (!bodies.consistent())
        throw std::invalid_argument("load: the body arrays differ in length (" + std::to_string(bodies.size()) +
                                    " positions)");
    if (bodies.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::invalid_argument("load: " + std::to_string(bodies.size()) +
                                    " bodies, more than the 2^32 - 1 a distributed run indexes");
    if (bodies.size() < std::size_t(rankCount))
        throw InvalidParameterError("bodies", std::to_string(bodies.size()) + " bodies for " +
                                                  std::to_string(rankCount) +
                                                  " MPI ranks: every rank's domain needs a body; load at least " +
                                                  std::to_string(rankCount) + " bodies or start fewer ranks");
}

Bodies loadedSliceOfRank(const Bodies& bodies, int rank, int rankCount) {
    requireLoadableAcrossRanks(bodies, rankCount);
    return singlePrecisionSliceOf(bodies, contiguousSlice(bodies.size(), rank, rankCount));
}

} // namespace gravlab
