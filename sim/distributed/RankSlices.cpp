// Contiguous slices of the loaded bodies per rank (see RankSlices.hpp).
#include "distributed/RankSlices.hpp"

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

} // namespace gravlab
