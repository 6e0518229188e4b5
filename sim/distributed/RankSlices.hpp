#pragma once
// Which bodies a rank owns in a distributed run: the decomposition, in one place so it can be swapped.
//
// Design note: for now the bodies are split into contiguous slices by their position in the loaded set, rank r
// holding [r N / K, (r + 1) N / K): every rank computes every slice from N and K alone, without communicating, and the
// concatenation of the slices in rank order is the loaded order, so an all-gather of the slices restores it. A
// spatial decomposition (ORB across ranks) replaces contiguousSlice and then has to carry the ids for that order.
#include <gravlab/sim/Bodies.hpp>

#include <cstddef>
#include <span>

namespace gravlab {

/// The bodies [begin, begin + count) of the loaded set.
struct RankSlice {
    std::size_t begin = 0;
    std::size_t count = 0;
};

/// Rank rank's slice of bodyCount bodies over rankCount ranks (sizes differ by at most one).
RankSlice contiguousSlice(std::size_t bodyCount, int rank, int rankCount);

/// The bodies of slice, every array but the low parts (a state spread over ranks is single precision).
Bodies singlePrecisionSliceOf(const Bodies& bodies, RankSlice slice);

/// Rank rank's slice when every rank's body count is counts[r] and the slices lie in rank order (an all-gather's).
RankSlice sliceOfRank(std::span<const std::size_t> counts, int rank);

/// What a distributed run can load, checked the same on every rank: std::invalid_argument for arrays of different
/// lengths or more bodies than a distributed run indexes (2^32 - 1); InvalidParameterError (field "bodies") for fewer
/// bodies than ranks, since every rank's domain needs a body.
void requireLoadableAcrossRanks(const Bodies& bodies, int rankCount);

/// What a distributed backend's load() keeps of the bodies every rank is handed: rank's contiguous slice, single
/// precision. Throws as requireLoadableAcrossRanks.
Bodies loadedSliceOfRank(const Bodies& bodies, int rank, int rankCount);

} // namespace gravlab
