// Counting replacements of the global operator new and delete, and the peak measurement (see HeapPeak.hpp).
#include "HeapPeak.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

namespace {

constexpr std::size_t kHeaderBytes = 16;
std::atomic<std::int64_t> g_liveBytes{0};
std::atomic<std::int64_t> g_peakBytes{0};

void* countedAllocation(std::size_t bytes) {
    void* block = std::malloc(bytes + kHeaderBytes);
    if (block == nullptr)
        throw std::bad_alloc();
    *static_cast<std::size_t*>(block) = bytes;
    const std::int64_t live = g_liveBytes.fetch_add(std::int64_t(bytes)) + std::int64_t(bytes);
    std::int64_t peak = g_peakBytes.load();
    while (live > peak && !g_peakBytes.compare_exchange_weak(peak, live)) {
    }
    return static_cast<char*>(block) + kHeaderBytes;
}

void countedRelease(void* pointer) noexcept {
    if (pointer == nullptr)
        return;
    void* block = static_cast<char*>(pointer) - kHeaderBytes;
    g_liveBytes.fetch_sub(std::int64_t(*static_cast<std::size_t*>(block)));
    std::free(block);
}

} // namespace

void* operator new(std::size_t bytes) {
    return countedAllocation(bytes);
}
void* operator new[](std::size_t bytes) {
    return countedAllocation(bytes);
}
void operator delete(void* pointer) noexcept {
    countedRelease(pointer);
}
void operator delete[](void* pointer) noexcept {
    countedRelease(pointer);
}
void operator delete(void* pointer, std::size_t) noexcept {
    countedRelease(pointer);
}
void operator delete[](void* pointer, std::size_t) noexcept {
    countedRelease(pointer);
}

namespace gravlab::simtest {

HeapPeak::HeapPeak() : m_baseline(g_liveBytes.load()) {
    g_peakBytes.store(m_baseline);
}

std::uint64_t HeapPeak::peakBytes() const {
    return std::uint64_t(std::max<std::int64_t>(g_peakBytes.load() - m_baseline, 0));
}

} // namespace gravlab::simtest
