#pragma once
// The scatter's decoupled look-back (Merrill and Garland's single-pass scan): how a tile of a resolved split learns the
// (below, equal) counts of its cell's earlier tiles without a count pass. Each tile announces its own counts, then
// reads earlier tiles' announcements, 32 at a time, until one that already knows its inclusive prefix. The states
// live per tile and level, zeroed at the start of each build (OrbGpu.cpp). See OrbGpu.hpp for the design.
#include "orb/cuda/OrbGpuDevice.cuh"

#include <cstdint>

namespace gravlab::orbdevice {

/// Look-back states of a tile of a resolved split: nothing yet, its own counts, or its counts with all earlier tiles'.
enum TileState : std::uint32_t { kTileNothing = 0, kTileAggregate = 1, kTileInclusive = 2 };

/// Announces a tile's counts: the values first, then the state, so a reader that sees the state reads the values.
__device__ __forceinline__ void publishTile(std::uint32_t* status, uint2* values, std::uint32_t tile, uint2 counts,
                                            TileState state) {
    __stcg(&values[tile], counts);
    __threadfence(); // the counts are visible before the state that announces them
    atomicExch(&status[tile], std::uint32_t(state));
}

/// Warp 0 of a tile of a resolved split: the (below, equal) counts of the cell's tiles before this one, by decoupled
/// look-back (Merrill and Garland's single-pass scan): the tile announces its own counts, then each lane reads one
/// earlier tile, 32 at a time, adding their counts until the nearest tile that already knows its inclusive prefix; then
/// it announces its own inclusive prefix. Tiles take their numbers in launch order (a ticket), so every tile waited on
/// is already running. Valid in every lane of warp 0.
__device__ inline uint2 lookBack(const OrbLevel& level, const OrbSplit& split, std::uint32_t tile, uint2 aggregate) {
    const std::uint32_t lane = threadIdx.x & 31;
    const std::uint32_t local = tile - split.tileBegin;
    uint2 before = make_uint2(0, 0);
    if (local > 0) {
        if (lane == 0)
            publishTile(level.tileStatus, level.tileAggregate, tile, aggregate, kTileAggregate);
        for (std::int64_t nearest = std::int64_t(local) - 1;; nearest -= 32) {
            const std::int64_t earlier = nearest - std::int64_t(lane);
            std::uint32_t state = kTileInclusive; // before the cell's first tile: an inclusive prefix of 0
            uint2 counts = make_uint2(0, 0);
            if (earlier >= 0) {
                const std::uint32_t other = split.tileBegin + std::uint32_t(earlier);
                do
                    state = atomicAdd(&level.tileStatus[other], 0u);
                while (state == kTileNothing);
                __threadfence(); // the counts are read after the state that announced them
                counts = __ldcg(state == kTileInclusive ? &level.tileInclusive[other] : &level.tileAggregate[other]);
            }
            const unsigned inclusive = __ballot_sync(kFullWarp, state == kTileInclusive);
            const std::uint32_t last = inclusive != 0 ? std::uint32_t(__ffs(inclusive) - 1) : 31u;
            before.x += warpSum(lane <= last ? counts.x : 0u);
            before.y += warpSum(lane <= last ? counts.y : 0u);
            if (inclusive != 0)
                break;
        }
    }
    if (lane == 0)
        publishTile(level.tileStatus, level.tileInclusive, tile,
                    make_uint2(before.x + aggregate.x, before.y + aggregate.y), kTileInclusive);
    return before;
}

} // namespace gravlab::orbdevice
