#pragma once
// The one helper that sizes 1-D kernel launches, and the rounded-up division it and the other grid sizes use.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace gravlab {

/// ceil(count / groupSize) for groupSize > 0: how many groups of groupSize items (blocks, tiles, slices) hold count
/// items.
constexpr std::size_t divideRoundingUp(std::size_t count, std::size_t groupSize) {
    return (count + groupSize - 1) / groupSize;
}

struct LaunchSize {
    unsigned blocks;
    unsigned threadsPerBlock;
};

/// Enough blocks of threadsPerBlock threads for one thread per item (at least one block, so a launch over zero items
/// is still valid and its kernel sees no work). Throws when the grid would exceed CUDA's 2^31 - 1 blocks.
inline LaunchSize launchSize1d(std::size_t itemCount, unsigned threadsPerBlock = 256) {
    const std::size_t blocks = itemCount == 0 ? 1 : divideRoundingUp(itemCount, threadsPerBlock);
    if (blocks > 0x7fffffffu)
        throw std::length_error("a 1-D launch over " + std::to_string(itemCount) + " items needs " +
                                std::to_string(blocks) + " blocks; CUDA allows at most 2^31 - 1");
    return {static_cast<unsigned>(blocks), threadsPerBlock};
}

} // namespace gravlab
