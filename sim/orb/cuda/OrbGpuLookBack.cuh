#pragma once
// The scatter's decoupled look-back (Merrill and Garland's single-pass scan): how a tile of a resolved split learns the
// counts and extreme keys of its cell's earlier tiles without a count pass, and how the cell's last tile learns them
// for the whole cell. Each tile announces its own summary, then reads earlier tiles' announcements, 32 at a time,
// until one that already knows its inclusive prefix. See OrbGpu.hpp for the design.
//
// Each field of a summary is a 64-bit word of its own, the state in the high half and the value in the low half, so a
// reader that sees a state sees its value: no fence between value and state, and one load per field. With the state
// and the values in separate words, each announcement and each read took a fence and a second dependent trip to L2
// (ncu, 2^20 bodies / 64 domains: warp 0's look-back held the other warps of a scatter tile at their barrier for about
// a quarter of the tile's time). With the extreme keys carried too, the cell's last tile places the cut from its own
// inclusive prefix: no atomics on the split, no tile counter and no fence at the end of the scatter. 2^20 / 64, H200,
// three leases: count balance 0.353-0.359 -> 0.329-0.334 ms, work balance 0.494-0.498 -> 0.470-0.477 ms (the look-back
// serves every level there; 2^27 / 4096, whose scatter reads the last pass's tally, is unchanged). The words
// live per tile and level, zeroed at the start of each build (OrbGpu.cpp).
#include "orb/cuda/OrbGpuDevice.cuh"

#include <cstdint>
#include <cuda/atomic>

namespace gravlab::orbdevice {

/// Look-back states of a tile of a resolved split: nothing yet, its own summary, or its summary with all earlier
/// tiles' of the cell.
enum TileState : std::uint32_t { kTileNothing = 0, kTileAggregate = 1, kTileInclusive = 2 };

/// What a tile tells the tiles after it: its bodies below and equal to the pivot, and its largest key below and
/// smallest key above the pivot (0 and ~0 when there are none).
struct TileSummary {
    static constexpr int kWords = int(kOrbLookBackWordsPerTile); ///< one look-back word per field
    std::uint32_t less = 0, equal = 0, maxLess = 0, minGreater = ~0u;

    __device__ __forceinline__ void add(const TileSummary& other) {
        less += other.less;
        equal += other.equal;
        maxLess = max(maxLess, other.maxLess);
        minGreater = min(minGreater, other.minGreater);
    }
    __device__ __forceinline__ std::uint32_t field(int f) const {
        return f == 0 ? less : f == 1 ? equal : f == 2 ? maxLess : minGreater;
    }
    /// Warp-wide: the summary of every lane's summary.
    __device__ __forceinline__ TileSummary warpTotal() const {
        return {warpSum(less), warpSum(equal), warpMax(maxLess), warpMin(minGreater)};
    }
};

/// A look-back word, read and written whole by every tile of the level (relaxed: each word carries its own state).
using LookBackWord = cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device>;

/// Lanes 0 to 3 of a warp: field `lane` of a tile's summary into its word.
__device__ __forceinline__ void publishSummary(std::uint64_t* tileWords, const TileSummary& summary, TileState state) {
    const int lane = int(threadIdx.x & 31);
    if (lane < TileSummary::kWords)
        LookBackWord(tileWords[lane])
            .store((std::uint64_t(state) << 32) | summary.field(lane), cuda::std::memory_order_relaxed);
}

/// Warp 0 of a tile of a resolved split: the summary of the cell's tiles before this one, by decoupled look-back: the
/// tile announces its own summary, then each lane reads one earlier tile, 32 at a time, combining their summaries back
/// to the nearest tile that already knows its inclusive prefix; then it announces its own inclusive prefix. A tile
/// writes its four words at once, first as an aggregate, later as inclusive, so a reader that sees them in different
/// states waits for the rest, which follow without any wait. Tiles take their numbers in launch order (a ticket), so
/// every tile waited on is already running. Valid in every lane of warp 0.
__device__ inline TileSummary lookBack(const OrbLevel& level, const OrbSplit& split, std::uint32_t tile,
                                       const TileSummary& aggregate) {
    const std::uint32_t lane = threadIdx.x & 31;
    const std::uint32_t local = tile - split.tileBegin;
    std::uint64_t* words = level.tileLookBack;
    TileSummary before;
    const bool hasReader = local + 1 < split.tileCount; // later tiles of the cell read this one
    if (local > 0) {
        if (hasReader)
            publishSummary(words + std::size_t(tile) * TileSummary::kWords, aggregate, kTileAggregate);
        for (std::int64_t nearest = std::int64_t(local) - 1;; nearest -= 32) {
            const std::int64_t earlier = nearest - std::int64_t(lane);
            std::uint32_t state = kTileInclusive; // before the cell's first tile: an empty inclusive prefix
            TileSummary other;
            if (earlier >= 0) {
                std::uint64_t* otherWords =
                    words + std::size_t(split.tileBegin + std::uint32_t(earlier)) * TileSummary::kWords;
                std::uint64_t w[TileSummary::kWords];
                bool settled;
                do {
                    for (int f = 0; f < TileSummary::kWords; ++f)
                        w[f] = LookBackWord(otherWords[f]).load(cuda::std::memory_order_relaxed);
                    state = std::uint32_t(w[0] >> 32);
                    settled = state != kTileNothing;
                    for (int f = 1; f < TileSummary::kWords; ++f)
                        settled = settled && std::uint32_t(w[f] >> 32) == state;
                } while (!settled);
                other = {std::uint32_t(w[0]), std::uint32_t(w[1]), std::uint32_t(w[2]), std::uint32_t(w[3])};
            }
            const unsigned inclusive = __ballot_sync(kFullWarp, state == kTileInclusive);
            const std::uint32_t last = inclusive != 0 ? std::uint32_t(__ffs(inclusive) - 1) : 31u;
            before.add((lane <= last ? other : TileSummary{}).warpTotal());
            if (inclusive != 0)
                break;
        }
    }
    TileSummary inclusive = before;
    inclusive.add(aggregate);
    if (hasReader)
        publishSummary(words + std::size_t(tile) * TileSummary::kWords, inclusive, kTileInclusive);
    return before;
}

} // namespace gravlab::orbdevice
