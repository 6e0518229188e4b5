// Deterministic parallel sort of (Morton key, body index) pairs (see MortonKeys.hpp).
//
// Design note: with T threads the input is cut into C chunks (C = the largest power of two <= T), each sorted with
// std::sort in parallel; then log2(C) rounds merge neighbouring runs into a second buffer with std::merge, one pair
// per thread. The comparison is a strict total order, so any correct sort gives the same result: the thread count
// changes the speed, never the order.
#include "tree/MortonKeys.hpp"

#include "core/Parallel.hpp"

#include <algorithm>
#include <omp.h>

namespace gravlab {
namespace {

std::size_t chunkCountFor(std::size_t itemCount) {
    if (std::int64_t(itemCount) < kMinBodiesForParallelStreaming)
        return 1;
    std::size_t chunks = 1;
    while (chunks * 2 <= std::size_t(omp_get_max_threads()))
        chunks *= 2;
    return chunks;
}

/// Start of chunk k of chunkCount over itemCount items (the last chunk ends at itemCount).
std::size_t chunkStart(std::size_t k, std::size_t chunkCount, std::size_t itemCount) {
    return itemCount * k / chunkCount;
}

} // namespace

void sortKeyedBodies(std::vector<KeyedBody>& items) {
    const std::size_t count = items.size();
    const std::size_t chunkCount = chunkCountFor(count);
    if (chunkCount == 1) {
        std::sort(items.begin(), items.end());
        return;
    }
#pragma omp parallel for schedule(static, 1)
    for (std::int64_t k = 0; k < std::int64_t(chunkCount); ++k)
        std::sort(items.begin() + std::ptrdiff_t(chunkStart(std::size_t(k), chunkCount, count)),
                  items.begin() + std::ptrdiff_t(chunkStart(std::size_t(k) + 1, chunkCount, count)));

    std::vector<KeyedBody> merged(count);
    for (std::size_t width = 1; width < chunkCount; width *= 2) {
        const auto pairCount = std::int64_t(chunkCount / (2 * width));
#pragma omp parallel for schedule(static, 1)
        for (std::int64_t pair = 0; pair < pairCount; ++pair) {
            const std::size_t first = std::size_t(pair) * 2 * width;
            const auto begin = std::ptrdiff_t(chunkStart(first, chunkCount, count));
            const auto middle = std::ptrdiff_t(chunkStart(first + width, chunkCount, count));
            const auto end = std::ptrdiff_t(chunkStart(first + 2 * width, chunkCount, count));
            std::merge(items.begin() + begin, items.begin() + middle, items.begin() + middle, items.begin() + end,
                       merged.begin() + begin);
        }
        items.swap(merged);
    }
}

} // namespace gravlab
